package io.oneway.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

/**
 * Whether one of this replicator's statements has waited on a lock for
 * oneway.notify.lock-wait-after ms, and who holds it: a replicated schema change behind a
 * report's long query on the central database, or a change log row an operator's open
 * transaction holds. Nothing fails then, nothing moves: said as a stall, with the holder.
 */
public final class LockWaits {

    private final DataSource database;
    private final String applicationName;
    private final long afterSeconds;

    /** @param applicationName the application_name of the replicator's connections to this database (its pool's) */
    public LockWaits(DataSource database, String applicationName, long afterMillis) {
        this.database = database;
        this.applicationName = applicationName;
        this.afterSeconds = Math.max(1, afterMillis / 1000);
    }

    /** @return the longest such wait, said with its holder, or null */
    public String problem() throws SQLException {
        try (Connection c = database.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("shared/queries/read-lock-waits.sql"))) {
            ps.setString(1, applicationName);
            ps.setLong(2, afterSeconds);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                String blockerQuery = rs.getString("blocker_query");
                long blockerTx = rs.getLong("blocker_transaction_seconds");
                boolean blockerTxKnown = !rs.wasNull();
                return "\"" + rs.getString("query") + "\" waits " + rs.getLong("waiting_seconds") + " s on a lock (" + rs.getString("wait_event")
                        + ") held by session " + rs.getLong("blocker_pid") + " of user " + rs.getString("blocker_user")
                        + (rs.getString("blocker_application") == null || rs.getString("blocker_application").isEmpty() ? ""
                                : ", application " + rs.getString("blocker_application"))
                        + (blockerTxKnown ? ", in a transaction open for " + blockerTx + " s" : "")
                        + (rs.getString("blocker_state") == null ? "" : ", " + rs.getString("blocker_state"))
                        + (blockerQuery == null ? "" : ", last statement \"" + blockerQuery + "\"")
                        + "; replication goes on when that transaction ends";
            }
        }
    }
}
