package io.oneway.apply;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.oneway.support.SqlScript;
import io.oneway.wire.ChangeRecord;

/**
 * Applies runs of whole source transactions to the central database: in one central transaction
 * the changes (statements from {@link TableCatalog}, batched as {@link ApplyPlan} orders them), their
 * receive-log rows and the source's new applied position, so that a change is applied exactly once.
 * Changes an operator skipped are not applied but logged with state S.
 */
public final class ChangeApplier {

    private static final Logger LOG = LoggerFactory.getLogger(ChangeApplier.class);
    private final DataSource central;
    private final TableCatalog catalog;

    public ChangeApplier(DataSource central, TableCatalog catalog) {
        this.central = central;
        this.catalog = catalog;
    }

    /** The source's progress, registering it on first contact. */
    public SourceProgress progress(String source) throws SQLException {
        try (Connection c = central.getConnection()) {
            update(c, "central/queries/register-source.sql", source);
            try (PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/read-progress.sql"))) {
                ps.setString(1, source);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return new SourceProgress(rs.getLong(1), rs.getString(2), rs.getBoolean(3), rs.getString(4));
                }
            }
        }
    }

    public void recordIncarnation(String source, String incarnation) throws SQLException {
        try (Connection c = central.getConnection()) {
            update(c, "central/queries/record-incarnation.sql", incarnation, source);
        }
    }

    public void halt(String source, String reason, long position) throws SQLException {
        try (Connection c = central.getConnection()) {
            update(c, "central/queries/halt-source.sql", reason, position, source);
        }
    }

    /** Positions after {@code applied} that an operator chose to skip. */
    public Set<Long> skipped(String source, long applied) throws SQLException {
        Set<Long> out = new HashSet<>();
        try (Connection c = central.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/read-skipped.sql"))) {
            ps.setString(1, source);
            ps.setLong(2, applied);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
            }
        }
        return out;
    }

    /**
     * Applies changes {@code first..last} (consecutive, ending a source transaction) after
     * position {@code first - 1}.
     * @throws ApplyHaltException when a change cannot be applied; nothing of the run is applied
     * @throws StaleProgressException when another applier moved the source meanwhile
     */
    public void apply(String source, List<ChangeRecord> run, Instant receivedAt, Set<Long> skipped) throws SQLException, ApplyHaltException {
        List<ChangeRecord> toApply = run.stream().filter(x -> !skipped.contains(x.position()) && !goneSince(x)).toList();
        try {
            try {
                applyRun(source, run, receivedAt, skipped, ApplyPlan.of(toApply, catalog), this::executeAsOne);
            } catch (SQLException e) {
                if (!isPermanent(e)) {
                    throw e;
                }
                // reordering rows can trip a secondary unique constraint: try the run strictly in position order
                LOG.info("Source {}: positions {}..{} applied in position order, the batched order was refused ({})", source,
                        run.get(0).position(), run.get(run.size() - 1).position(), firstLine(e));
                applyRun(source, run, receivedAt, skipped, inOrder(toApply), ChangeApplier::executeEach);
            }
        } catch (RowCountMismatch e) {
            throw culprit(source, toApply, e.getMessage());
        } catch (SQLException e) {
            if (isPermanent(e)) {
                throw culprit(source, toApply, "the central database refused the run of " + source + ": " + firstLine(e));
            }
            throw e;
        }
    }

    /** How a batch is executed: as one statement, or as one statement per change. */
    private interface BatchExecutor {
        void execute(Connection c, ApplyPlan.Batch batch) throws SQLException, ApplyHaltException, RowCountMismatch;
    }

    /** A batch executed as one statement touched fewer rows than it has changes: some change found no row. */
    private static final class RowCountMismatch extends Exception {
        RowCountMismatch(String message) {
            super(message, null, false, false);
        }
    }

    private void applyRun(String source, List<ChangeRecord> run, Instant receivedAt, Set<Long> skipped, List<ApplyPlan.Batch> batches,
            BatchExecutor executor) throws SQLException, ApplyHaltException, RowCountMismatch {
        try (Connection c = central.getConnection()) {
            c.setAutoCommit(false);
            try {
                update(c, "central/queries/begin-apply.sql");
                long applied = lockProgress(c, source);
                if (applied != run.get(0).position() - 1) {
                    throw new StaleProgressException(source, applied);
                }
                for (ApplyPlan.Batch batch : batches) {
                    executor.execute(c, batch);
                }
                logReceived(c, source, run, receivedAt, skipped);
                update(c, "central/queries/advance-progress.sql", run.get(run.size() - 1).position(), source);
                c.commit();
            } catch (SQLException | ApplyHaltException | RowCountMismatch | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    /** Consecutive changes with the same statement, in position order. */
    private List<ApplyPlan.Batch> inOrder(List<ChangeRecord> changes) throws SQLException, ApplyHaltException {
        List<ApplyPlan.Batch> batches = new ArrayList<>();
        for (ChangeRecord change : changes) {
            String sql = catalog.statement(change);
            if (batches.isEmpty() || !batches.get(batches.size() - 1).sql().equals(sql)) {
                batches.add(new ApplyPlan.Batch(sql, new ArrayList<>()));
            }
            batches.get(batches.size() - 1).changes().add(change);
        }
        return batches;
    }

    /**
     * The batch (changes of different rows, one statement) in one execution. A batch that may
     * rightly touch no row (reference-mode deletes) goes change by change, so that every other
     * change is held to exactly one row.
     */
    private void executeAsOne(Connection c, ApplyPlan.Batch batch) throws SQLException, ApplyHaltException, RowCountMismatch {
        if (batch.changes().size() == 1 || batch.changes().stream().anyMatch(change -> expected(change, 0))) {
            executeEach(c, batch);
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(catalog.batchStatement(batch.sql()))) {
            bind(ps, TableCatalog.batchParameters(batch.changes()));
            int rows = ps.executeUpdate();
            if (rows != batch.changes().size()) {
                throw new RowCountMismatch(batch.changes().size() + " changes of " + batch.changes().get(0).table() + " touched " + rows + " rows");
            }
        }
    }

    private static void executeEach(Connection c, ApplyPlan.Batch batch) throws SQLException, ApplyHaltException {
        try (PreparedStatement ps = c.prepareStatement(batch.sql())) {
            for (ChangeRecord change : batch.changes()) {
                bind(ps, TableCatalog.parameters(change));
                ps.addBatch();
            }
            int[] counts = ps.executeBatch();
            for (int k = 0; k < counts.length; k++) {
                ChangeRecord change = batch.changes().get(k);
                if (!expected(change, counts[k])) {
                    throw new ApplyHaltException(change, "the databases diverged: " + change.op() + " found "
                            + (counts[k] == 0 ? "no row" : counts[k] + " rows") + " for key " + change.key());
                }
            }
        }
    }

    private static void bind(PreparedStatement ps, List<String> params) throws SQLException {
        for (int p = 0; p < params.size(); p++) {
            ps.setString(p + 1, params.get(p));
        }
    }

    /**
     * A reference-mode insert or update whose row was deleted at the source before it was sent:
     * there is nothing to write; the delete that follows it in the log removes the object.
     */
    private static boolean goneSince(ChangeRecord change) {
        return change.reference() && change.row() == null && !"D".equals(change.op());
    }

    /**
     * Every change touches exactly one row, except a reference-mode delete, which may find none
     * when the object's insert was passed over as gone since.
     */
    private static boolean expected(ChangeRecord change, int rows) {
        return rows == 1 || rows == 0 && change.reference() && "D".equals(change.op());
    }

    private static void logReceived(Connection c, String source, List<ChangeRecord> run, Instant receivedAt, Set<Long> skipped)
            throws SQLException {
        int n = run.size();
        Long[] positions = new Long[n];
        Long[] txids = new Long[n];
        String[] tables = new String[n];
        String[] keys = new String[n];
        String[] ops = new String[n];
        String[] states = new String[n];
        String[] loggedAt = new String[n];
        for (int i = 0; i < n; i++) {
            ChangeRecord change = run.get(i);
            positions[i] = change.position();
            txids[i] = change.txid();
            tables[i] = change.table();
            keys[i] = change.key();
            ops[i] = change.op();
            states[i] = skipped.contains(change.position()) ? "S" : "R";
            loggedAt[i] = change.loggedAt();
        }
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/insert-receive-log.sql"))) {
            ps.setString(1, source);
            ps.setTimestamp(2, Timestamp.from(receivedAt));
            ps.setArray(3, c.createArrayOf("bigint", positions));
            ps.setArray(4, c.createArrayOf("bigint", txids));
            ps.setArray(5, c.createArrayOf("text", tables));
            ps.setArray(6, c.createArrayOf("text", keys));
            ps.setArray(7, c.createArrayOf("text", ops));
            ps.setArray(8, c.createArrayOf("text", states));
            ps.setArray(9, c.createArrayOf("text", loggedAt));
            ps.executeUpdate();
        }
    }

    /** Re-runs the changes one by one, in a transaction that is rolled back, to name the one the database refuses. */
    private ApplyHaltException culprit(String source, List<ChangeRecord> run, String runError) throws SQLException {
        try (Connection c = central.getConnection()) {
            c.setAutoCommit(false);
            try {
                update(c, "central/queries/begin-apply.sql");
                for (ChangeRecord change : run) {
                    try (PreparedStatement ps = c.prepareStatement(catalog.statement(change))) {
                        bind(ps, TableCatalog.parameters(change));
                        int n = ps.executeUpdate();
                        if (!expected(change, n)) {
                            return new ApplyHaltException(change, "the databases diverged: " + change.op() + " found no row for key " + change.key());
                        }
                    } catch (SQLException e) {
                        if (!isPermanent(e)) {
                            throw e;
                        }
                        String reason = "23505".equals(e.getSQLState()) && "I".equals(change.op())
                                ? "the databases diverged: insert found an existing row for key " + change.key()
                                : "the central database refused it: " + firstLine(e) + " (SQLSTATE " + e.getSQLState() + ")";
                        return new ApplyHaltException(change, reason);
                    } catch (ApplyHaltException e) {
                        return e;
                    }
                }
                return new ApplyHaltException(run.get(0), runError);
            } finally {
                c.rollback();
            }
        }
    }

    /** Data and schema errors need an operator; connection loss, shutdown, deadlock and lack of resources pass. */
    static boolean isPermanent(SQLException e) {
        SQLException root = e instanceof BatchUpdateException b && b.getNextException() != null ? b.getNextException() : e;
        String state = root.getSQLState();
        if (state == null || state.length() < 2) {
            return false;
        }
        return switch (state.substring(0, 2)) {
            case "08", "40", "53", "55", "57", "58", "HV", "XX" -> false;
            default -> true;
        };
    }

    private static String firstLine(SQLException e) {
        SQLException root = e instanceof BatchUpdateException b && b.getNextException() != null ? b.getNextException() : e;
        String m = String.valueOf(root.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    private static long lockProgress(Connection c, String source) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/lock-progress.sql"))) {
            ps.setString(1, source);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("source " + source + " has no progress row", "02000");
                }
                return rs.getLong(1);
            }
        }
    }

    private static void update(Connection c, String script, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load(script))) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            ps.executeUpdate();
        }
    }
}
