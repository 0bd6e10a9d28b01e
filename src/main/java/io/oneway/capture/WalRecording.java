package io.oneway.capture;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import org.postgresql.PGConnection;
import org.postgresql.copy.PGCopyOutputStream;

import io.oneway.support.SqlScript;

/**
 * Records a run of decoded changes in the change log, numbered, in one transaction
 * (sql/remote/12-wal.sql): begin_wal_recording locks the counter and hands out log ids, COPY
 * writes the new change-log rows and every change's position (a page of rows per WAL record,
 * which the WAL sender then reads), and end_wal_recording moves the counter and the stream's
 * recorded position with them.
 */
final class WalRecording {

    /** Bytes COPY data is sent in: a wide row's fields go straight through. */
    private static final int COPY_BUFFER = 1 << 16;

    /** What a run recorded: changes, transactions ended, the last position (unchanged if none). */
    record Recorded(long changes, long transactions, long lastPosition) {
    }

    private WalRecording() {
    }

    /**
     * @param throughLsn the commit LSN of the run's last transaction
     * @param throughItems how many of that transaction's items are recorded with this run
     * @param done whether that is all of them
     */
    static Recorded record(Connection c, WalBatch.Run run, String throughLsn, long throughItems, boolean done) throws SQLException {
        c.setAutoCommit(false);
        try {
            Recorded recorded = numberAndCopy(c, run);
            try (PreparedStatement ps = c.prepareStatement(SqlScript.load("remote/queries/end-wal-recording.sql"))) {
                ps.setLong(1, recorded.lastPosition());
                ps.setString(2, throughLsn);
                ps.setLong(3, throughItems);
                ps.setBoolean(4, done);
                ps.execute();
            }
            c.commit();
            return recorded;
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        }
    }

    private static Recorded numberAndCopy(Connection c, WalBatch.Run run) throws SQLException {
        long[] logged = Arrays.stream(run.logIds(), 0, run.items()).filter(id -> id != WalBatch.NEW_ROW).toArray();
        long base;
        long xmax;
        long[] newIds;
        Set<Long> numbered = new HashSet<>();
        PGConnection pg = c.unwrap(PGConnection.class);
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load("remote/queries/begin-wal-recording.sql"))) {
            ps.setInt(1, run.newRows());
            ps.setArray(2, pg.createArrayOf("bigint", logged));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                base = rs.getLong("last_position");
                xmax = rs.getLong("current_xmax");
                newIds = longs(rs.getArray("new_ids"));
                for (long id : longs(rs.getArray("numbered_ids"))) {
                    numbered.add(id);
                }
            }
        }
        if (newIds.length != run.newRows()) {
            throw new IllegalStateException("asked for " + run.newRows() + " log ids, got " + newIds.length);
        }
        long[] ids = copyChanges(pg, run, newIds, xmax);
        long position = base;
        long transactions = 0;
        try (PGCopyOutputStream out = new PGCopyOutputStream(pg, SqlScript.load("remote/queries/copy-wal-positions.sql"), COPY_BUFFER)) {
            for (int i = 0; i < run.items(); i++) {
                // rows the assigner numbered while the reader started (start_wal_positions) are not numbered twice
                if (run.logIds()[i] != WalBatch.NEW_ROW && numbered.contains(run.logIds()[i])) {
                    continue;
                }
                position++;
                transactions += run.ends()[i] ? 1 : 0;
                out.write(ascii(position + "\t" + ids[i] + (run.ends()[i] ? "\tt\n" : "\tf\n")));
            }
        } catch (IOException e) {
            throw new SQLException("copying a run's positions: " + e.getMessage(), e);
        }
        return new Recorded(position - base, transactions, position);
    }

    /** COPYs the run's new change-log rows (none: no statement); returns each item's log id. */
    private static long[] copyChanges(PGConnection pg, WalBatch.Run run, long[] newIds, long xmax) throws SQLException {
        if (run.newRows() == 0) {
            return Arrays.copyOf(run.logIds(), run.items());
        }
        long[] ids = new long[run.items()];
        try (PGCopyOutputStream out = new PGCopyOutputStream(pg, SqlScript.load("remote/queries/copy-wal-changes.sql"), COPY_BUFFER)) {
            int next = 0;
            int fieldsStart = 0;
            for (int i = 0; i < run.items(); i++) {
                if (run.logIds()[i] == WalBatch.NEW_ROW) {
                    ids[i] = newIds[next++];
                    out.write(ascii(ids[i] + "\t" + fullXid(run.xids()[i], xmax) + "\t"));
                    out.write(run.fields().array(), fieldsStart, run.fieldsEnd()[i] - fieldsStart);
                } else {
                    ids[i] = run.logIds()[i];
                }
                fieldsStart = run.fieldsEnd()[i];
            }
        } catch (IOException e) {
            throw new SQLException("copying a run of WAL changes into the change log: " + e.getMessage(), e);
        }
        return ids;
    }

    /**
     * The 64-bit id of a transaction the WAL names by its 32-bit xid, given the current 64-bit
     * xmax: the transaction ran recently (a slot holds the xid horizon back), so its epoch is the
     * current one or the one before.
     */
    static long fullXid(long xid, long currentXmax) {
        long epoch = currentXmax >>> 32;
        return xid < (currentXmax & 0xFFFF_FFFFL) ? epoch << 32 | xid : (epoch - 1) << 32 | xid;
    }

    private static long[] longs(Array array) throws SQLException {
        Long[] boxed = (Long[]) array.getArray();
        long[] values = new long[boxed.length];
        for (int i = 0; i < boxed.length; i++) {
            values[i] = boxed[i];
        }
        return values;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
