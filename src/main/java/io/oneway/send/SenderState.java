package io.oneway.send;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

import io.oneway.support.SqlScript;

/**
 * The sender's durable state (oneway.sender_state), as read at one moment.
 *
 * @param acked    applied on the central database, digest verified
 * @param digest   the running digest at {@code acked}
 * @param received held durably by the central database (applied or staged)
 * @param sent     the highest position ever sent
 * @param diverged true while a digest mismatch halts the transfer
 */
record SenderState(long acked, byte[] digest, long received, long sent, boolean diverged, long divergedFrom, long divergedTo) {

    static SenderState read(DataSource remote) {
        try (Connection c = remote.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("remote/queries/read-sender-state.sql"));
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new IllegalStateException("oneway.sender_state is empty: install sql/remote on the remote database");
            }
            return new SenderState(rs.getLong("acked_position"), rs.getBytes("acked_digest"), rs.getLong("received_position"),
                    rs.getLong("sent_position"), rs.getBoolean("diverged"), rs.getLong("diverged_from"), rs.getLong("diverged_to"));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the sender's state (oneway.sender_state): " + e.getMessage(), e);
        }
    }
}
