package io.oneway.capture;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import javax.sql.DataSource;

import io.oneway.support.SqlScript;

/**
 * The captured tables whose capture is not in force (a trigger dropped or disabled by hand, a
 * table taken out of the WAL reader's publication, made unlogged or given another replica
 * identity), told as one cause with the way back. A
 * table whose changes are not captured has nothing to send, so without this look the transfer
 * would stay healthy and caught up while the central copy falls behind for good.
 */
public final class CaptureGaps {

    /** Tables told with their cause and fix; the rest by name, so a trigger disabled on every table keeps the message readable. */
    private static final int DETAILED = 5;
    private final DataSource remote;

    public CaptureGaps(DataSource remote) {
        this.remote = remote;
    }

    /** @return what keeps changes from being captured, naming each table and how to put it right, or null */
    public String problem() throws SQLException {
        List<String> gaps = new ArrayList<>();
        // a partitioned table may be at fault in several partitions: named once, and not again once told in detail
        Set<String> detailed = new HashSet<>();
        Set<String> more = new LinkedHashSet<>();
        try (Connection c = remote.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("remote/queries/read-capture-gaps.sql"));
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String table = rs.getString("table_name");
                if (gaps.size() >= DETAILED) {
                    if (!detailed.contains(table)) {
                        more.add(table);
                    }
                    continue;
                }
                detailed.add(table);
                gaps.add(table + ": " + rs.getString("problem") + " (" + rs.getString("remedy") + " puts it back" + (rs.getBoolean("changes_missed")
                        ? "; the changes made meanwhile were not captured: ./oneway snapshot " + table + " then makes the central copy equal)"
                        : ")"));
            }
        }
        if (!more.isEmpty()) {
            gaps.add("and " + more.size() + " more tables the same way: " + String.join(", ", more));
        }
        return gaps.isEmpty() ? null : "capture is not in force for " + String.join("; ", gaps);
    }
}
