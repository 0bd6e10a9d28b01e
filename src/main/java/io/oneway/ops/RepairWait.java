package io.oneway.ops;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * verify --repair waits here for the repair's snapshot: until the remote logged its last chunk and
 * gave it a position, then until the central database applied that position. A line of progress every
 * few seconds; the snapshot goes on by itself if the command is interrupted.
 */
final class RepairWait {

    private static final long POLL_MILLIS = 500;
    private static final long REPORT_MILLIS = 5_000;
    private final Settings settings;
    private final String table;

    RepairWait(Settings settings, String table) {
        this.settings = settings;
        this.table = table;
    }

    void await() throws SQLException {
        long target = -1;
        long reported = System.currentTimeMillis();
        while (true) {
            String progress;
            String state;
            try (Connection c = settings.dataSource("remote").getConnection();
                    PreparedStatement ps = OnewayCommand.prepare(c, "remote/queries/read-snapshot.sql", table); ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("the snapshot of " + table + " is gone from oneway.snapshot");
                }
                state = rs.getString("state");
                if (state.equals("cancelled")) {
                    throw new IllegalStateException("the repair of " + table + " was cancelled");
                }
                long captured = rs.getLong("captured");
                if (state.equals("done") && target < 0 && !rs.wasNull()) {
                    target = captured;
                }
                progress = rs.getLong("rows_done") + " of " + rs.getLong("rows_total") + " rows reloaded in " + rs.getLong("chunks_done") + " chunks";
            }
            // read at every turn: a source halted before the last chunk is logged holds the snapshot back (its chunks go only
            // a few ahead of what the central side received), and the wait would never end
            long applied = applied();
            if (target >= 0) {
                if (applied >= target) {
                    return;
                }
                progress += "; the central database applied up to position " + applied + " of " + target;
            } else if (state.equals("done")) {
                progress += "; the last chunk waits for its position (is the remote replicator running?)";
            }
            if (System.currentTimeMillis() - reported >= REPORT_MILLIS) {
                reported = System.currentTimeMillis();
                System.out.println("repair: " + table + ": " + progress);
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted; the repair's snapshot goes on");
            }
        }
    }

    /** Where the central database has applied the source to; a halted source ends the wait, as nothing comes until it is resumed. */
    private long applied() throws SQLException {
        String source = settings.get("oneway.source.id");
        try (Connection c = settings.dataSource("central").getConnection();
                PreparedStatement ps = OnewayCommand.prepare(c, "central/queries/read-progress.sql", source); ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                return 0;
            }
            if (rs.getBoolean("halted")) {
                throw new IllegalStateException("the central database halted source " + source + ", so the repair of " + table
                        + " waits behind it: " + rs.getString("halt_reason") + ". Once resumed, the repair goes on by itself; verify again then");
            }
            return rs.getLong("applied_position");
        }
    }
}
