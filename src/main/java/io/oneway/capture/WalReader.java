package io.oneway.capture;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;

import org.postgresql.PGConnection;
import org.postgresql.PGProperty;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.oneway.capture.PgOutputDecoder.Begin;
import io.oneway.capture.PgOutputDecoder.Commit;
import io.oneway.capture.PgOutputDecoder.Message;
import io.oneway.capture.PgOutputDecoder.Relation;
import io.oneway.capture.PgOutputDecoder.RowChange;
import io.oneway.support.OnewayMetrics;
import io.oneway.support.ProgressLog;
import io.oneway.support.SqlScript;

/**
 * Capture from the WAL (sql/remote/12-wal.sql): reads the remote database's logical replication
 * slot (pgoutput) and records every source transaction's changes in the change log, numbered in
 * commit order (WalRecording). Called by route read-wal; each call reads what the stream has,
 * for at most a poll's time, and records it in batches. The slot's confirmed position moves only
 * past transactions whose rows are committed, so a crash of the replicator or the database loses
 * nothing; position_counter.wal_lsn (written with the rows) tells a restarted reader which
 * transactions it already recorded, so nothing is recorded twice.
 */
public final class WalReader {

    private static final Logger LOG = LoggerFactory.getLogger(WalReader.class);
    /** PostgreSQL's epoch, in seconds after the Unix epoch: commit times count µs from it. */
    private static final long PG_EPOCH_SECONDS = 946_684_800L;
    private static final long POLL_MILLIS = 500;
    /** How long the reader may fail before it is reported as a stall (a database restart takes seconds). */
    private static final Duration FAILING_REPORTED_AFTER = Duration.ofSeconds(10);

    private final boolean enabled;
    private final String slot;
    /** The remote pool: the replication connection is made with its URL, login and socket settings. */
    private final HikariDataSource remote;
    private final int batchItems;
    private final int batchBytes;
    private final ProgressLog progress;
    private final OnewayMetrics metrics;

    private final PgOutputDecoder decoder = new PgOutputDecoder();
    private final WalBatch batch = new WalBatch();
    private final Map<Relation, String> tableNames = new HashMap<>();
    private Connection replication;
    private PGReplicationStream stream;

    /** What the change log holds already (position_counter.wal_*), read at start. */
    private long recordedLsn;
    private long recordedItems;
    private boolean recordedDone = true;

    /** The transaction being read: its commit LSN, xid, commit time, items so far, whether it is recorded already. */
    private boolean inTransaction;
    private long txLsn;
    private long txXid;
    private String txCommittedAt;
    private long txCommitMillis;
    private long txItems;
    /** The end of the last transaction whose commit was read: once the batch is recorded, all of it is. */
    private long lastCommitEnd;

    private volatile String failure;
    private volatile Instant failingSince;
    /** What the transfer monitor's thread sees of the reader, without waiting for a read that may hang. */
    private volatile long messagesRead;
    private volatile long changesRecorded;
    /** When the transaction of the newest change recorded committed (epoch ms): how late the reader records. */
    private volatile long recordedCommitMillis;
    private volatile Instant pollStartedAt;
    private volatile Instant lastPollEndedAt;
    /** Read and written by the transfer monitor's thread only (watch). */
    private final SlotWatch slotWatch;
    private volatile long behindBytes;
    private volatile String slotProblem;

    public WalReader(boolean enabled, String slot, HikariDataSource remote, int batchItems, int batchBytes, long stuckAfterMillis,
            ProgressLog progress, OnewayMetrics metrics) {
        this.enabled = enabled;
        this.slot = slot;
        this.remote = remote;
        this.batchItems = batchItems;
        this.batchBytes = batchBytes;
        this.slotWatch = new SlotWatch(slot, Duration.ofMillis(stuckAfterMillis));
        this.progress = progress;
        this.metrics = metrics;
    }

    public boolean enabled() {
        return enabled;
    }

    /** Changes recorded since this reader started. */
    public long changesRecorded() {
        return changesRecorded;
    }

    /** When the newest change recorded was committed (epoch ms), 0 before the first. */
    public long recordedCommitMillis() {
        return recordedCommitMillis;
    }

    /** Bytes of WAL written since what the slot confirmed, as the last watch read them. */
    public long behindBytes() {
        return behindBytes;
    }

    /** Registers the meters of the WAL capture (only when it is on). */
    public void registerMeters(String source) {
        if (enabled) {
            metrics.gauge("oneway_wal_behind_bytes", source, () -> behindBytes);
        }
    }

    /** Reads and records what the slot has, for at most about half a second. */
    public synchronized void poll() throws SQLException {
        if (!enabled) {
            return;
        }
        pollStartedAt = Instant.now();
        try {
            if (stream == null) {
                start();
            }
            long until = System.currentTimeMillis() + POLL_MILLIS;
            while (System.currentTimeMillis() < until) {
                Message message = next();
                if (message == null) {
                    break;
                }
                messagesRead++;
                handle(message);
            }
            record();
            if (batch.ready() == 0 && !batch.holdsBack()) {
                // nothing read is left unrecorded: the server may forget the WAL up to the last commit read, and
                // between transactions up to what it last sent
                confirm(inTransaction ? lastCommitEnd : Math.max(lastCommitEnd, stream.getLastReceiveLSN().asLong()));
            }
            failure = null;
            failingSince = null;
        } catch (SQLException | RuntimeException | Error e) {
            // an Error too (out of memory while a wide row is read): the message it was handling is gone from the
            // stream, so reading on would lose it; the slot hands it over again from the last confirmed position
            failure = e instanceof Error ? e.toString() : e.getMessage();
            if (failingSince == null) {
                failingSince = Instant.now();
            }
            close();
            throw e;
        } finally {
            pollStartedAt = null;
            lastPollEndedAt = Instant.now();
        }
    }

    /**
     * Looks at the slot from the transfer monitor's thread (never waiting for the reader): whether
     * it keeps the WAL it needs and moves while behind. With capture from the WAL off, whether the
     * changes of this database are numbered from the WAL all the same: nothing would number them
     * (the position assigner stops for good when the reader starts).
     */
    public void watch() throws SQLException {
        if (!enabled) {
            String numberingFrom = numberingSlot();
            slotProblem = numberingFrom == null ? null : "changes of this database are numbered from the WAL (slot " + numberingFrom
                    + ") but oneway.capture.from-wal is false: nothing is numbered or sent; set it to true";
            return;
        }
        if (failingSince != null) {
            // the reader's own error says more than the slot standing still
            slotWatch.reset();
            slotProblem = null;
            return;
        }
        try (Connection c = remote.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("remote/queries/read-wal-slot.sql"))) {
            ps.setString(1, slot);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    // made by the reader's first start
                    slotProblem = null;
                    return;
                }
                behindBytes = rs.getLong("behind_bytes");
                slotProblem = slotWatch.observe(new SlotWatch.Look(rs.getString("wal_status"), rs.getBoolean("active"), rs.getString("wait_event"),
                        behindBytes, rs.getString("confirmed_lsn"), rs.getString("sent_lsn"), messagesRead, changesRecorded, pollStartedAt,
                        lastPollEndedAt), Instant.now());
            }
        }
    }

    private String numberingSlot() throws SQLException {
        try (Connection c = remote.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(SqlScript.load("remote/queries/read-wal-numbering.sql"))) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    /** Why WAL capture does not go on (read by the transfer monitor: a stall), or null. */
    public String problem() {
        Instant since = failingSince;
        if (since != null && Duration.between(since, Instant.now()).compareTo(FAILING_REPORTED_AFTER) >= 0) {
            return "capture from the WAL fails since " + Duration.between(since, Instant.now()).toSeconds() + " s: " + failure;
        }
        return slotProblem;
    }

    /**
     * The replication connection's settings: the pool's login (set as properties, so any password works) and its socket
     * settings (TCP keepalive probes after oneway.database.keepalive-idle seconds), so that a read of a stream whose database
     * host went away without closing it fails and is retried, as a pooled statement's does, instead of the reader standing
     * still until a restart.
     */
    private Properties replicationSettings() {
        Properties p = new Properties();
        if (remote.getUsername() != null) {
            PGProperty.USER.set(p, remote.getUsername());
        }
        if (remote.getPassword() != null) {
            PGProperty.PASSWORD.set(p, remote.getPassword());
        }
        for (PGProperty setting : new PGProperty[] {PGProperty.TCP_KEEP_ALIVE, PGProperty.SOCKET_FACTORY, PGProperty.SOCKET_FACTORY_ARG}) {
            Object value = remote.getDataSourceProperties().get(setting.getName());
            if (value != null) {
                setting.set(p, value.toString());
            }
        }
        PGProperty.REPLICATION.set(p, "database");
        PGProperty.ASSUME_MIN_SERVER_VERSION.set(p, "15");
        PGProperty.PREFER_QUERY_MODE.set(p, "simple");
        PGProperty.APPLICATION_NAME.set(p, "oneway-wal-reader");
        return p;
    }

    private void start() throws SQLException {
        try (Connection c = remote.getConnection(); Statement s = c.createStatement()) {
            s.execute("select oneway.prepare_wal_capture()");
        }
        replication = DriverManager.getConnection(remote.getJdbcUrl(), replicationSettings());
        try (Statement s = replication.createStatement()) {
            // the text forms of the values pgoutput sends are made with these settings: the same as the capture triggers'
            for (String setting : new String[] {"datestyle = 'ISO, YMD'", "intervalstyle = 'postgres'", "timezone = 'UTC'",
                    "extra_float_digits = 3", "bytea_output = 'hex'", "lc_monetary = 'C'"}) {
                s.execute("set " + setting);
            }
        }
        String numberingFrom = readCounter();
        boolean slotExists = slotExists();
        if (numberingFrom != null && !numberingFrom.equals(slot)) {
            throw new IllegalStateException("this database's changes are numbered from replication slot " + numberingFrom
                    + ", not " + slot + " (oneway.capture.wal-slot)");
        }
        if (numberingFrom != null && !slotExists) {
            throw new IllegalStateException("replication slot " + slot + " is gone: changes committed since the last one recorded ("
                    + LogSequenceNumber.valueOf(recordedLsn).asString() + ") cannot be read; onboard the tables again (README \"Capture from the WAL\")");
        }
        if (!slotExists) {
            replication.unwrap(PGConnection.class).getReplicationAPI().createReplicationSlot().logical()
                    .withSlotName(slot).withOutputPlugin("pgoutput").make();
            LOG.info("Created replication slot {} for capture from the WAL", slot);
        }
        if (numberingFrom == null) {
            try (Connection c = remote.getConnection(); PreparedStatement ps = c.prepareStatement("select oneway.start_wal_positions(?)")) {
                ps.setString(1, slot);
                ps.execute();
            }
            readCounter();
            LOG.info("Changes are numbered from the WAL from now on (slot {}); the position assigner stopped", slot);
        }
        stream = replication.unwrap(PGConnection.class).getReplicationAPI().replicationStream().logical()
                .withSlotName(slot)
                .withSlotOption("proto_version", "1")
                .withSlotOption("publication_names", "oneway_tables,oneway_log")
                .withStatusInterval(1, TimeUnit.SECONDS)
                .start();
        inTransaction = false;
        batch.clear();
        LOG.info("Reading the WAL from slot {}, after commit {} ({} of its changes recorded{})", slot, LogSequenceNumber.valueOf(recordedLsn).asString(),
                recordedItems, recordedDone ? ", all" : "");
    }

    /** @return the slot changes are numbered from, or null while the position assigner numbers them */
    private String readCounter() throws SQLException {
        try (Connection c = remote.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("select wal_slot, coalesce(wal_lsn, '0/0')::text as lsn, wal_items, wal_done from oneway.position_counter")) {
            rs.next();
            recordedLsn = LogSequenceNumber.valueOf(rs.getString("lsn")).asLong();
            recordedItems = rs.getLong("wal_items");
            recordedDone = rs.getBoolean("wal_done");
            return rs.getString("wal_slot");
        }
    }

    private boolean slotExists() throws SQLException {
        try (Connection c = remote.getConnection(); PreparedStatement ps = c.prepareStatement("select from pg_replication_slots where slot_name = ?")) {
            ps.setString(1, slot);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** The next message the slot has, or null; its values stay in the bytes it came in until they are copied into the batch. */
    private Message next() throws SQLException {
        ByteBuffer bytes = stream.readPending();
        return bytes == null ? null : decoder.decode(bytes);
    }

    private void handle(Message m) throws SQLException {
        if (m instanceof Begin b) {
            inTransaction = true;
            txLsn = b.finalLsn();
            txXid = b.xid();
            txItems = 0;
            txCommittedAt = committedAt(b.commitMicros());
            txCommitMillis = PG_EPOCH_SECONDS * 1000L + Math.floorDiv(b.commitMicros(), 1000L);
        } else if (m instanceof RowChange r) {
            txItems++;
            if (alreadyRecorded()) {
                return;
            }
            add(r);
            if (batch.ready() >= batchItems || batch.length() >= batchBytes) {
                record();
            }
        } else if (m instanceof Commit c) {
            batch.endTransaction();
            inTransaction = false;
            lastCommitEnd = c.endLsn();
        }
        // Relation messages are kept by the decoder; Type and Origin are not needed. TRUNCATE is not published:
        // the trigger enable_capture puts on every captured table refuses it, as in trigger mode
    }

    /** Whether the current item was recorded before the reader (re)started. */
    private boolean alreadyRecorded() {
        int order = Long.compareUnsigned(txLsn, recordedLsn);
        return order < 0 || (order == 0 && (recordedDone || txItems <= recordedItems));
    }

    private void add(RowChange r) throws SQLException {
        Relation rel = r.relation();
        if ("oneway".equals(rel.schema()) && "change_log".equals(rel.name())) {
            batch.addLogRow(txXid, Long.parseLong(r.newRow()[logIdColumn(rel)].toString()));
            return;
        }
        TextValue[] keySource = r.oldRow() != null ? r.oldRow() : r.newRow();
        batch.addRow(txXid, txCommittedAt, tableName(rel), r.op(), rel.columns(), keySource, rel.key(), r.newRow());
    }

    private static int logIdColumn(Relation changeLog) {
        for (int i = 0; i < changeLog.columns().length; i++) {
            if ("log_id".equals(changeLog.columns()[i])) {
                return i;
            }
        }
        throw new IllegalStateException("oneway.change_log has no column log_id in the WAL");
    }

    /** Records the batch: its rows and positions, and how far the change log now holds the stream, in one transaction. */
    private void record() throws SQLException {
        if (batch.ready() == 0) {
            return;
        }
        boolean done = !inTransaction;
        long throughItems = txItems - (batch.holdsBack() ? 1 : 0);
        try (Connection c = remote.getConnection()) {
            WalRecording.Recorded recorded = WalRecording.record(c, batch.takeReady(), LogSequenceNumber.valueOf(txLsn).asString(), throughItems, done);
            if (recorded.changes() > 0) {
                progress.add(recorded.changes(), recorded.transactions(), recorded.lastPosition());
                changesRecorded += recorded.changes();
                recordedCommitMillis = txCommitMillis;
            }
        }
        recordedLsn = txLsn;
        recordedItems = throughItems;
        recordedDone = done;
    }

    private void confirm(long lsn) {
        LogSequenceNumber l = LogSequenceNumber.valueOf(lsn);
        stream.setFlushedLSN(l);
        stream.setAppliedLSN(l);
    }

    private String tableName(Relation r) throws SQLException {
        String name = tableNames.get(r);
        if (name == null) {
            try (Connection c = remote.getConnection(); PreparedStatement ps = c.prepareStatement("select format('%I.%I', ?, ?)")) {
                ps.setString(1, r.schema());
                ps.setString(2, r.name());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    name = rs.getString(1);
                }
            }
            tableNames.put(r, name);
        }
        return name;
    }

    private static String committedAt(long micros) {
        long seconds = Math.floorDiv(micros, 1_000_000L);
        long nanos = Math.floorMod(micros, 1_000_000L) * 1000L;
        return Instant.ofEpochSecond(PG_EPOCH_SECONDS + seconds, nanos).toString();
    }

    /** Closes the replication connection (the slot is kept, and read again from its confirmed position). */
    public synchronized void close() {
        stream = null;
        tableNames.clear();
        if (replication != null) {
            try {
                replication.close();
            } catch (SQLException e) {
                LOG.debug("closing the replication connection: {}", e.getMessage());
            }
            replication = null;
        }
    }
}
