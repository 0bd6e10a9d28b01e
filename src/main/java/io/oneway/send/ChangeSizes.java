package io.oneway.send;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.oneway.support.SqlScript;

/**
 * Stops the transfer loudly at a change too large to send (SPEC §4 sizes): a change whose key
 * and row are over {@code oneway.wire.max-change-bytes} is blocked with the reason, so the
 * blocked-record machinery tells operators (log, health, metric, notification, status), and the
 * changes before it are sent. Never an endless resend of something the receiver refuses.
 */
public final class ChangeSizes {

    private static final Logger LOG = LoggerFactory.getLogger(ChangeSizes.class);
    private final DataSource remote;
    private final long maxChangeBytes;

    public ChangeSizes(DataSource remote, long maxChangeBytes) {
        this.remote = remote;
        this.maxChangeBytes = maxChangeBytes;
    }

    /** oneway.wire.max-change-bytes, for the sender's query. */
    public long maxChangeBytes() {
        return maxChangeBytes;
    }

    /** @return the changes before the first one over the limit (all of them when none is) */
    public List<OutgoingChange> admit(List<OutgoingChange> changes) throws SQLException {
        for (int i = 0; i < changes.size(); i++) {
            OutgoingChange c = changes.get(i);
            if (c.bytes() > maxChangeBytes) {
                try (Connection conn = remote.getConnection();
                        PreparedStatement ps = conn.prepareStatement(SqlScript.load("remote/queries/block-oversized.sql"))) {
                    ps.setLong(1, c.change().position());
                    ps.setLong(2, c.bytes());
                    ps.setLong(3, maxChangeBytes);
                    ps.execute();
                }
                LOG.error("Change at position {} ({} {} {}) is {} bytes, over oneway.wire.max-change-bytes ({}): blocked, the transfer stops before it",
                        c.change().position(), c.change().op(), c.change().table(), c.change().key(), c.bytes(), maxChangeBytes);
                return changes.subList(0, i);
            }
        }
        return changes;
    }
}
