package io.oneway.send;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.apache.camel.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.oneway.support.SqlScript;
import io.oneway.wire.ControlMessage;

/**
 * The sender's view of delivery: what was sent last, what the central database acknowledged,
 * how far ahead of the ack sending may run, and when unacknowledged changes are due again.
 * Only the ack is durable; after a restart sending resumes after it, so nothing unacknowledged is skipped.
 */
public final class SendWindow {

    /** Headers of a range to (re)send, read by sql/remote/queries/read-change-range.sql. */
    public static final String RESEND_FROM = "OnewayResendFrom";
    public static final String RESEND_TO = "OnewayResendTo";

    private static final Logger LOG = LoggerFactory.getLogger(SendWindow.class);
    private final DataSource remote;
    private final SourceIdentity identity;
    private final long window;
    private final long retransmitAfterMillis;
    private final long maxRetransmitAfterMillis;
    private final long retransmitChunk;
    private final long resendDedupMillis;

    private boolean loaded;
    private long acked;
    private long lastSent;
    private long waitingSince;
    private long retransmitAfter;
    private long lastResendFrom = -1;
    private long lastResendTo = -1;
    private long lastResendAt;

    public SendWindow(DataSource remote, SourceIdentity identity, long window, long retransmitAfterMillis,
            long maxRetransmitAfterMillis, long retransmitChunk, long resendDedupMillis) {
        this.remote = remote;
        this.identity = identity;
        this.window = window;
        this.retransmitAfterMillis = retransmitAfterMillis;
        this.maxRetransmitAfterMillis = maxRetransmitAfterMillis;
        this.retransmitChunk = retransmitChunk;
        this.resendDedupMillis = resendDedupMillis;
        this.retransmitAfter = retransmitAfterMillis;
    }

    public synchronized long lastSent() {
        load();
        return lastSent;
    }

    /** The highest position that may be sent now. */
    public synchronized long sendLimit() {
        load();
        return acked + window;
    }

    public synchronized void sent(long last) {
        load();
        if (last > lastSent) {
            if (lastSent == acked) {
                waitingSince = System.currentTimeMillis();
            }
            lastSent = last;
        }
    }

    /** An ack: record it durably; a stale or repeated one changes nothing. */
    public synchronized void acknowledge(ControlMessage ack) throws SQLException {
        load();
        if (!fromThisIncarnation(ack) || ack.to() <= acked) {
            return;
        }
        String sql = SqlScript.load("remote/queries/record-ack.sql");
        try (Connection c = remote.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, ack.to());
            ps.setLong(2, ack.to());
            ps.executeUpdate();
        }
        acked = ack.to();
        lastSent = Math.max(lastSent, acked);
        waitingSince = System.currentTimeMillis();
        retransmitAfter = retransmitAfterMillis;
    }

    /**
     * A resend request: sets the range headers (positions already acknowledged are left out).
     * A request for a range that was just resent is served once: requests that queued up while
     * the link was down, or were duplicated on the way, arrive together.
     * @return false when nothing of the request is left to send, or it was just sent
     */
    public synchronized boolean resendRange(Message message) {
        load();
        ControlMessage request = message.getBody(ControlMessage.class);
        if (!fromThisIncarnation(request)) {
            return false;
        }
        long from = Math.max(request.from(), acked + 1);
        if (from > request.to()) {
            return false;
        }
        long now = System.currentTimeMillis();
        if (from == lastResendFrom && request.to() <= lastResendTo && now - lastResendAt < resendDedupMillis) {
            return false;
        }
        lastResendFrom = from;
        lastResendTo = request.to();
        lastResendAt = now;
        message.setHeader(RESEND_FROM, from);
        message.setHeader(RESEND_TO, request.to());
        return true;
    }

    /**
     * Retransmission: when changes were sent and no ack has moved for a while, the oldest
     * unacknowledged ones are due again; the wait doubles each time, up to its maximum.
     * @return true when the range headers were set
     */
    public synchronized boolean retransmitDue(Message message) {
        load();
        long now = System.currentTimeMillis();
        if (lastSent <= acked || now - waitingSince < retransmitAfter) {
            return false;
        }
        message.setHeader(RESEND_FROM, acked + 1);
        message.setHeader(RESEND_TO, Math.min(lastSent, acked + retransmitChunk));
        LOG.info("No ack for positions after {} for {} ms: sending {}..{} again", acked, now - waitingSince, acked + 1,
                Math.min(lastSent, acked + retransmitChunk));
        waitingSince = now;
        retransmitAfter = Math.min(retransmitAfter * 2, maxRetransmitAfterMillis);
        return true;
    }

    public synchronized ControlMessage heartbeat() {
        load();
        return ControlMessage.heartbeat(identity.source(), identity.incarnation(), lastSent);
    }

    private boolean fromThisIncarnation(ControlMessage message) {
        if (identity.incarnation().equals(message.incarnation())) {
            return true;
        }
        LOG.warn("Ignored a {} for incarnation {}: this remote database is incarnation {}", message.kind().wireName(),
                message.incarnation(), identity.incarnation());
        return false;
    }

    private void load() {
        if (loaded) {
            return;
        }
        try (Connection c = remote.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("remote/queries/read-acked.sql"));
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new IllegalStateException("oneway.sender_state is empty: install sql/remote on the remote database");
            }
            acked = rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the acknowledged position: " + e.getMessage(), e);
        }
        lastSent = acked;
        waitingSince = System.currentTimeMillis();
        loaded = true;
        LOG.info("Source {}: sending resumes after the acknowledged position {}", identity.source(), acked);
    }
}
