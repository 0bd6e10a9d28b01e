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
import io.oneway.wire.Fingerprint;

/**
 * Applies runs of whole source transactions to the central database: in one central transaction
 * the changes (statements from {@link TableCatalog}, batched as {@link ApplyPlan} orders them), their
 * receive-log rows with fingerprints, and the source's new applied position and running digest,
 * so that a change is applied exactly once. A source transaction too large for one run is staged
 * first ({@link #stage}) and applied from there, page by page, in one transaction when its end
 * arrives ({@link #applyStaged}). Changes an operator skipped are not applied but logged with state S.
 */
public final class ChangeApplier {

    private static final Logger LOG = LoggerFactory.getLogger(ChangeApplier.class);
    /** Key and row text bound into one statement execution at most (a batch larger is cut). */
    private static final long MAX_STATEMENT_BYTES = 4L << 20;
    private final DataSource central;
    private final TableCatalog catalog;
    private final SchemaChanges schemaChanges;
    private final SequenceValues sequenceValues;
    private final SnapshotLoader snapshots;
    private final int pageChanges;

    /** @param pageChanges changes read from the staging table at a time while a staged transaction is applied */
    public ChangeApplier(DataSource central, TableCatalog catalog, SchemaChanges schemaChanges, SequenceValues sequenceValues,
            SnapshotLoader snapshots, int pageChanges) {
        this.central = central;
        this.catalog = catalog;
        this.schemaChanges = schemaChanges;
        this.sequenceValues = sequenceValues;
        this.snapshots = snapshots;
        this.pageChanges = pageChanges;
    }

    /**
     * The source's progress; a source never heard from is at its start (it is registered by its
     * first message, so that configuring a source does not make it appear in source_progress).
     */
    public SourceProgress progress(String source) throws SQLException {
        try (Connection c = central.getConnection();
                PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/read-progress.sql"))) {
            ps.setString(1, source);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new SourceProgress(0, null, false, null, Fingerprint.START, 0);
                }
                return new SourceProgress(rs.getLong(1), rs.getString(2), rs.getBoolean(3), rs.getString(4), rs.getBytes(5), rs.getLong(6));
            }
        }
    }

    /** Registers the source on its first message, with the incarnation it is first seen with. */
    public void recordIncarnation(String source, String incarnation) throws SQLException {
        try (Connection c = central.getConnection()) {
            update(c, "central/queries/register-source.sql", source);
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

    /** Whatever was read from the catalogue is read again (an operator changed a table, then resumed). */
    public void forgetCatalog() {
        catalog.forget();
    }

    /** The fingerprints of applied changes {@code from..to} that the receive log still holds, in position order. */
    public List<byte[]> fingerprints(String source, long from, long to) throws SQLException {
        List<byte[]> out = new ArrayList<>();
        try (Connection c = central.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/read-fingerprints.sql"))) {
            ps.setString(1, source);
            ps.setLong(2, from);
            ps.setLong(3, to);
            try (ResultSet rs = ps.executeQuery()) {
                long expected = from;
                while (rs.next() && rs.getLong(1) == expected && rs.getBytes(2) != null) {
                    out.add(rs.getBytes(2));
                    expected++;
                }
            }
        }
        return out;
    }

    /**
     * Applies changes {@code first..last} (consecutive, ending a source transaction) after
     * position {@code first - 1}.
     * @param digest the running digest at {@code first - 1}
     * @return the running digest at the last change
     * @throws ApplyHaltException when a change cannot be applied; nothing of the run is applied
     * @throws StaleProgressException when another applier moved the source meanwhile
     */
    public byte[] apply(String source, List<ChangeRecord> run, Instant receivedAt, Set<Long> skipped, byte[] digest)
            throws SQLException, ApplyHaltException {
        long first = run.get(0).position();
        return applyPages(source, first, run.get(run.size() - 1).position(), (c, action) -> action.accept(run), receivedAt, skipped, digest, false);
    }

    /**
     * Keeps changes of a source transaction whose end has not arrived yet, durably, after the
     * last position applied or staged.
     * @throws StaleProgressException when they do not follow it (another applier moved the source)
     */
    public void stage(String source, List<ChangeRecord> changes, Instant receivedAt) throws SQLException {
        int n = changes.size();
        Long[] positions = new Long[n];
        Long[] txids = new Long[n];
        Boolean[] ends = new Boolean[n];
        String[] tables = new String[n];
        String[] ops = new String[n];
        Boolean[] references = new Boolean[n];
        String[] keys = new String[n];
        String[] rows = new String[n];
        String[] loggedAt = new String[n];
        for (int i = 0; i < n; i++) {
            ChangeRecord change = changes.get(i);
            positions[i] = change.position();
            txids[i] = change.txid();
            ends[i] = change.txEnd();
            tables[i] = change.table();
            ops[i] = change.op();
            references[i] = change.reference();
            keys[i] = change.key();
            rows[i] = change.row();
            loggedAt[i] = change.loggedAt();
        }
        try (Connection c = central.getConnection()) {
            c.setAutoCommit(false);
            try {
                SourceProgress locked = lockProgress(c, source);
                if (locked.received() != positions[0] - 1) {
                    throw new StaleProgressException(source, locked.appliedPosition(), locked.stagedPosition());
                }
                try (PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/stage-changes.sql"))) {
                    ps.setString(1, source);
                    ps.setTimestamp(2, Timestamp.from(receivedAt));
                    ps.setArray(3, c.createArrayOf("bigint", positions));
                    ps.setArray(4, c.createArrayOf("bigint", txids));
                    ps.setArray(5, c.createArrayOf("boolean", ends));
                    ps.setArray(6, c.createArrayOf("text", tables));
                    ps.setArray(7, c.createArrayOf("text", ops));
                    ps.setArray(8, c.createArrayOf("boolean", references));
                    ps.setArray(9, c.createArrayOf("text", keys));
                    ps.setArray(10, c.createArrayOf("text", rows));
                    ps.setArray(11, c.createArrayOf("text", loggedAt));
                    ps.executeUpdate();
                }
                update(c, "central/queries/advance-staged.sql", positions[n - 1], source);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    /**
     * Applies a staged source transaction: its staged changes after {@code applied} and the
     * {@code tail} that ends it, in one central transaction, reading the staged changes a page
     * at a time; the staged rows go in the same transaction.
     * @param digest the running digest at {@code applied}
     * @return the running digest at the end of the tail
     */
    public byte[] applyStaged(String source, long applied, long stagedThrough, List<ChangeRecord> tail, Set<Long> skipped, byte[] digest)
            throws SQLException, ApplyHaltException {
        Instant receivedAt;
        try (Connection c = central.getConnection();
                PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/read-staged-received-at.sql"))) {
            ps.setString(1, source);
            try (ResultSet rs = ps.executeQuery()) {
                Timestamp t = rs.next() ? rs.getTimestamp(1) : null;
                receivedAt = t == null ? Instant.now() : t.toInstant();
            }
        }
        Pages pages = (c, action) -> {
            long after = applied;
            while (after < stagedThrough) {
                List<ChangeRecord> page = readStaged(c, source, after, stagedThrough);
                if (page.isEmpty() || page.get(0).position() != after + 1) {
                    throw new SQLException("staged position " + (after + 1) + " of source " + source + " is missing", "XX001");
                }
                action.accept(page);
                after = page.get(page.size() - 1).position();
            }
            action.accept(tail);
        };
        return applyPages(source, applied + 1, tail.get(tail.size() - 1).position(), pages, receivedAt, skipped, digest, true);
    }

    /** The changes of one apply transaction, a page at a time, in position order. */
    private interface Pages {
        void forEach(Connection c, PageAction action) throws SQLException, ApplyHaltException, RowCountMismatch;
    }

    private interface PageAction {
        void accept(List<ChangeRecord> page) throws SQLException, ApplyHaltException, RowCountMismatch;
    }

    /** How a page's changes are grouped into batches: {@link ApplyPlan} (few round trips) or strictly in position order. */
    private interface Planner {
        List<ApplyPlan.Batch> plan(Connection c, List<ChangeRecord> changes) throws SQLException, ApplyHaltException;
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

    private byte[] applyPages(String source, long first, long last, Pages pages, Instant receivedAt, Set<Long> skipped, byte[] digest,
            boolean staged) throws SQLException, ApplyHaltException {
        try {
            try {
                return applyRun(source, first, last, pages, receivedAt, skipped, digest, staged,
                        (c, changes) -> ApplyPlan.of(changes, (change, shape) -> catalog.statement(c, change, shape)), this::executeAsOne);
            } catch (SQLException e) {
                if (!isPermanent(e)) {
                    throw e;
                }
                // reordering rows can trip a secondary unique constraint: try the run strictly in position order
                LOG.info("Source {}: positions {}..{} applied in position order, the batched order was refused ({})", source, first, last,
                        firstLine(e));
                return applyRun(source, first, last, pages, receivedAt, skipped, digest, staged, this::inOrder, ChangeApplier::executeEach);
            }
        } catch (RowCountMismatch e) {
            throw culprit(source, pages, skipped, e.getMessage());
        } catch (SQLException e) {
            if (isPermanent(e)) {
                throw culprit(source, pages, skipped, "the central database refused the run of " + source + ": " + firstLine(e));
            }
            throw e;
        }
    }

    private byte[] applyRun(String source, long first, long last, Pages pages, Instant receivedAt, Set<Long> skipped, byte[] digest,
            boolean staged, Planner planner, BatchExecutor executor) throws SQLException, ApplyHaltException, RowCountMismatch {
        try (Connection c = central.getConnection()) {
            c.setAutoCommit(false);
            try {
                update(c, "central/queries/begin-apply.sql");
                SourceProgress locked = lockProgress(c, source);
                if (locked.appliedPosition() != first - 1) {
                    throw new StaleProgressException(source, locked.appliedPosition(), locked.stagedPosition());
                }
                byte[][] running = {digest};
                boolean[] schemaChanged = {false};
                Set<String> snapshotting = snapshots.running(c, source);
                pages.forEach(c, page -> {
                    // a schema change and a snapshot's marks and chunks are applied at their place: the row changes before
                    // them as batches (leniently for tables under snapshot), those after as further batches
                    List<ChangeRecord> segment = new ArrayList<>();
                    List<ChangeRecord> lenient = new ArrayList<>();
                    for (ChangeRecord change : toApply(page, skipped)) {
                        if (change.rowChange()) {
                            (snapshotting.contains(change.table()) ? lenient : segment).add(change);
                            continue;
                        }
                        applySegment(c, segment, planner, executor);
                        segment.clear();
                        snapshots.applyLeniently(c, lenient);
                        lenient.clear();
                        schemaChanged[0] |= change.schemaChange();
                        applyOne(c, source, change, snapshotting);
                    }
                    applySegment(c, segment, planner, executor);
                    snapshots.applyLeniently(c, lenient);
                    running[0] = logReceived(c, source, page, receivedAt, skipped, running[0]);
                });
                if (staged) {
                    update(c, "central/queries/delete-staged.sql", source, last);
                }
                update(c, "central/queries/advance-progress.sql", last, running[0], source);
                c.commit();
                if (schemaChanged[0]) {
                    catalog.forget();
                }
                return running[0];
            } catch (SQLException | ApplyHaltException | RowCountMismatch | RuntimeException e) {
                c.rollback();
                // what a schema change in this transaction made the catalogue look like is gone with it
                catalog.forget();
                throw e;
            }
        }
    }

    private static void applySegment(Connection c, List<ChangeRecord> segment, Planner planner, BatchExecutor executor)
            throws SQLException, ApplyHaltException, RowCountMismatch {
        if (!segment.isEmpty()) {
            for (ApplyPlan.Batch batch : planner.plan(c, segment)) {
                executor.execute(c, batch);
            }
        }
    }

    private static List<ChangeRecord> toApply(List<ChangeRecord> page, Set<Long> skipped) {
        return page.stream().filter(x -> !skipped.contains(x.position()) && !goneSince(x)).toList();
    }

    private List<ChangeRecord> readStaged(Connection c, String source, long after, long upto) throws SQLException {
        List<ChangeRecord> page = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/read-staged.sql"))) {
            ps.setString(1, source);
            ps.setLong(2, after);
            ps.setLong(3, upto);
            ps.setInt(4, pageChanges);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    page.add(new ChangeRecord(rs.getLong(1), rs.getLong(2), rs.getBoolean(3), rs.getString(4), rs.getString(5),
                            rs.getBoolean(6), rs.getString(7), rs.getString(8), rs.getString(9), null));
                }
            }
        }
        return page;
    }

    /** Consecutive changes with the same statement, in position order. */
    private List<ApplyPlan.Batch> inOrder(Connection c, List<ChangeRecord> changes) throws SQLException, ApplyHaltException {
        List<ApplyPlan.Batch> batches = new ArrayList<>();
        for (ChangeRecord change : changes) {
            String sql = catalog.statement(c, change);
            if (batches.isEmpty() || !batches.get(batches.size() - 1).sql().equals(sql)) {
                batches.add(new ApplyPlan.Batch(sql, new ArrayList<>()));
            }
            batches.get(batches.size() - 1).changes().add(change);
        }
        return batches;
    }

    /**
     * The batch (changes of different rows, one statement) in as few executions as its size
     * allows. A batch that may rightly touch no row (reference-mode deletes) goes change by
     * change, so that every other change is held to exactly one row.
     */
    private void executeAsOne(Connection c, ApplyPlan.Batch batch) throws SQLException, ApplyHaltException, RowCountMismatch {
        if (batch.changes().size() == 1 || batch.changes().stream().anyMatch(change -> expected(change, 0))) {
            executeEach(c, batch);
            return;
        }
        String sql = catalog.batchStatement(batch.sql());
        int from = 0;
        while (from < batch.changes().size()) {
            int to = from;
            long bytes = 0;
            while (to < batch.changes().size() && (to == from || bytes + textBytes(batch.changes().get(to)) <= MAX_STATEMENT_BYTES)) {
                bytes += textBytes(batch.changes().get(to++));
            }
            List<ChangeRecord> part = batch.changes().subList(from, to);
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                bind(ps, TableCatalog.batchParameters(part));
                int rows = ps.executeUpdate();
                if (rows != part.size()) {
                    throw new RowCountMismatch(part.size() + " changes of " + part.get(0).table() + " touched " + rows + " rows");
                }
            }
            from = to;
        }
    }

    private static long textBytes(ChangeRecord change) {
        return change.key().length() + (change.row() == null ? 0 : change.row().length());
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

    /** Inserts the receive-log run of a page (consecutive positions). @return the running digest after its last change */
    private static byte[] logReceived(Connection c, String source, List<ChangeRecord> page, Instant receivedAt, Set<Long> skipped,
            byte[] digest) throws SQLException {
        int n = page.size();
        if (n == 0) {
            return digest;
        }
        Long[] txids = new Long[n];
        String[] tables = new String[n];
        String[] keys = new String[n];
        String[] ops = new String[n];
        String[] states = new String[n];
        String[] loggedAt = new String[n];
        byte[][] fingerprints = new byte[n][];
        int skippedHere = 0;
        byte[] d = digest;
        long first = page.get(0).position();
        for (int i = 0; i < n; i++) {
            ChangeRecord change = page.get(i);
            if (change.position() != first + i) {
                throw new IllegalStateException("position " + change.position() + " of source " + source + " does not follow " + (first + i - 1));
            }
            txids[i] = change.txid();
            tables[i] = change.table();
            keys[i] = change.key();
            ops[i] = change.op();
            boolean skip = skipped.contains(change.position());
            states[i] = skip ? "S" : "R";
            skippedHere += skip ? 1 : 0;
            loggedAt[i] = change.loggedAt();
            fingerprints[i] = Fingerprint.of(change);
            d = Fingerprint.chain(d, fingerprints[i]);
        }
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/insert-receive-log.sql"))) {
            ps.setString(1, source);
            ps.setTimestamp(2, Timestamp.from(receivedAt));
            ps.setLong(3, first);
            ps.setLong(4, first + n - 1);
            ps.setArray(5, c.createArrayOf("bigint", txids));
            ps.setArray(6, c.createArrayOf("text", tables));
            ps.setArray(7, c.createArrayOf("text", keys));
            ps.setArray(8, c.createArrayOf("text", ops));
            ps.setArray(9, c.createArrayOf("text", states));
            ps.setArray(10, c.createArrayOf("text", loggedAt));
            ps.setArray(11, c.createArrayOf("bytea", fingerprints));
            ps.setInt(12, skippedHere);
            ps.executeUpdate();
        }
        return d;
    }

    /** Re-runs the changes one by one, in a transaction that is rolled back, to name the one the database refuses. */
    private ApplyHaltException culprit(String source, Pages pages, Set<Long> skipped, String runError) throws SQLException {
        try (Connection c = central.getConnection()) {
            c.setAutoCommit(false);
            try {
                update(c, "central/queries/begin-apply.sql");
                ChangeRecord[] first = {null};
                Set<String> snapshotting = snapshots.running(c, source);
                pages.forEach(c, page -> {
                    first[0] = first[0] == null && !page.isEmpty() ? page.get(0) : first[0];
                    for (ChangeRecord change : toApply(page, skipped)) {
                        if (change.rowChange() && !snapshotting.contains(change.table())) {
                            tryOne(c, change);
                        } else {
                            applyOneNamed(c, source, change, snapshotting);
                        }
                    }
                });
                return new ApplyHaltException(first[0], runError);
            } catch (ApplyHaltException e) {
                return e;
            } catch (RowCountMismatch e) {
                throw new IllegalStateException(e);
            } finally {
                c.rollback();
                catalog.forget();
            }
        }
    }

    /** A change applied on its own: a schema change, a sequence value, a snapshot's mark or chunk, a change of a table under snapshot. */
    private void applyOne(Connection c, String source, ChangeRecord change, Set<String> snapshotting) throws SQLException, ApplyHaltException {
        if (change.schemaChange()) {
            schemaChanges.apply(c, change);
        } else if (change.sequenceValue()) {
            sequenceValues.apply(c, change);
        } else {
            snapshots.apply(c, source, change, snapshotting);
        }
    }

    /** {@link #applyOne}, with a refusal of the database named as this change's. */
    private void applyOneNamed(Connection c, String source, ChangeRecord change, Set<String> snapshotting)
            throws SQLException, ApplyHaltException {
        try {
            applyOne(c, source, change, snapshotting);
        } catch (SQLException e) {
            if (!isPermanent(e)) {
                throw e;
            }
            throw new ApplyHaltException(change, "the central database refused it: " + firstLine(e) + " (SQLSTATE " + e.getSQLState() + ")");
        }
    }

    private void tryOne(Connection c, ChangeRecord change) throws SQLException, ApplyHaltException {
        try (PreparedStatement ps = c.prepareStatement(catalog.statement(c, change))) {
            bind(ps, TableCatalog.parameters(change));
            if (!expected(change, ps.executeUpdate())) {
                throw new ApplyHaltException(change, "the databases diverged: " + change.op() + " found no row for key " + change.key());
            }
        } catch (SQLException e) {
            if (!isPermanent(e)) {
                throw e;
            }
            String reason = "23505".equals(e.getSQLState()) && "I".equals(change.op())
                    ? "the databases diverged: insert found an existing row for key " + change.key()
                    : "the central database refused it: " + firstLine(e) + " (SQLSTATE " + e.getSQLState() + ")";
            throw new ApplyHaltException(change, reason);
        }
    }

    /**
     * Data and schema errors need an operator; connection loss, shutdown, deadlock and lack of
     * resources pass, and so does a central database that is read-only for now (a standby before
     * its promotion, default_transaction_read_only for maintenance): retried, and told as the
     * stall apply-failing while it lasts, not a halt that waits for ./oneway resume.
     */
    static boolean isPermanent(SQLException e) {
        String state = databaseError(e).getSQLState();
        if (state == null || state.length() < 2 || "25006".equals(state)) {
            return false;
        }
        return switch (state.substring(0, 2)) {
            case "08", "40", "53", "55", "57", "58", "HV", "XX" -> false;
            default -> true;
        };
    }

    /** The database's own error: a batch's message repeats its statement, its next exception is what the database said. */
    private static SQLException databaseError(SQLException e) {
        return e instanceof BatchUpdateException b && b.getNextException() != null ? b.getNextException() : e;
    }

    private static String firstLine(SQLException e) {
        String m = String.valueOf(databaseError(e).getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    /** The database's error in one line with its SQLSTATE, as a stall tells it. */
    static String describe(SQLException e) {
        String state = databaseError(e).getSQLState();
        return state == null ? firstLine(e) : firstLine(e) + " (SQLSTATE " + state + ")";
    }

    private static SourceProgress lockProgress(Connection c, String source) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/lock-progress.sql"))) {
            ps.setString(1, source);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("source " + source + " has no progress row", "02000");
                }
                return new SourceProgress(rs.getLong(1), null, false, null, null, rs.getLong(2));
            }
        }
    }

    private static void update(Connection c, String script, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load(script))) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            ps.execute();
        }
    }
}
