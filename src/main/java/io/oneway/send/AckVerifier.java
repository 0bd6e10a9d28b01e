package io.oneway.send;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Base64;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.oneway.support.OnewayMetrics;
import io.oneway.support.Refusals;
import io.oneway.support.SqlScript;
import io.oneway.wire.ControlMessage;
import io.oneway.wire.Fingerprint;

/**
 * Checks every ack against what this remote knows before acting on it (SPEC §4): an ack above
 * the highest position sent is an integrity alarm and is never recorded; an ack whose running
 * digest differs from the digest of what this remote logged halts the transfer and the first
 * differing position is found by asking the central database for its fingerprints. Only a
 * verified ack is recorded, so purge never removes what the central database did not apply.
 */
public final class AckVerifier {

    private static final Logger LOG = LoggerFactory.getLogger(AckVerifier.class);
    /** Positions whose fingerprints are read per query, and asked for per digest request. */
    static final int CHUNK = 10_000;
    private final DataSource remote;
    private final SourceIdentity identity;
    private final SendWindow window;
    private final SentFingerprints sent;
    private final OnewayMetrics metrics;
    private final Refusals refusals;

    public AckVerifier(DataSource remote, SourceIdentity identity, SendWindow window, SentFingerprints sent, OnewayMetrics metrics,
            Refusals refusals) {
        this.remote = remote;
        this.refusals = refusals;
        this.identity = identity;
        this.window = window;
        this.sent = sent;
        this.metrics = metrics;
    }

    /** @return a digest request for the central database when the digests differ, else null */
    public synchronized ControlMessage onAck(ControlMessage ack) throws SQLException {
        if (!fromThisIncarnation(ack)) {
            return null;
        }
        SenderState s = SenderState.read(remote);
        if (s.diverged()) {
            return null;
        }
        if (ack.applied() > ack.received()) {
            alarm("malformed-ack", "an ack claims position " + ack.applied() + " applied but only " + ack.received() + " received");
            return null;
        }
        if (ack.received() > s.sent()) {
            alarm("ack-beyond-sent", "an ack claims positions up to " + ack.received() + " received; this remote has sent only up to "
                    + s.sent());
            return null;
        }
        window.heard();
        if (ack.applied() <= s.acked() && ack.received() <= s.received()) {
            return null;
        }
        byte[] digest = s.digest();
        if (ack.applied() > s.acked()) {
            byte[] theirs;
            try {
                theirs = ack.digest() == null ? null : Fingerprint.bytes(ack.digest());
            } catch (IllegalArgumentException e) {
                theirs = null;
            }
            if (theirs == null) {
                alarm("malformed-ack", "an ack for position " + ack.applied() + " carries no readable digest");
                return null;
            }
            // reading the fingerprints of a large applied range takes a while: the central side is
            // plainly alive meanwhile, so nothing is sent again for its silence
            window.verifying(true);
            try {
                digest = digestThrough(s.acked(), s.digest(), ack.applied());
            } finally {
                window.verifying(false);
                window.heard();
            }
            if (!Arrays.equals(digest, theirs)) {
                return diverged(s.acked(), ack.applied(), theirs);
            }
        }
        try (Connection c = remote.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("remote/queries/record-ack.sql"))) {
            ps.setLong(1, ack.applied());
            ps.setLong(2, ack.applied());
            ps.setBytes(3, digest);
            ps.setLong(4, ack.applied());
            ps.setLong(5, ack.received());
            ps.executeUpdate();
        }
        window.delivered(Math.max(s.acked(), ack.applied()), Math.max(s.received(), ack.received()));
        sent.acknowledged(ack.applied());
        return null;
    }

    /**
     * The central database's fingerprints of a range, asked for after a digest mismatch: the
     * first that differs from this remote's is recorded as where the databases diverged.
     * @return a request for the next range when this one agrees throughout, else null
     */
    public synchronized ControlMessage onDigests(ControlMessage digests) throws SQLException {
        if (!fromThisIncarnation(digests)) {
            return null;
        }
        SenderState s = SenderState.read(remote);
        if (!s.diverged() || digests.from() < s.divergedFrom() || digests.from() > s.divergedTo()) {
            return null;
        }
        byte[] theirs = digests.digest() == null ? new byte[0] : Base64.getDecoder().decode(digests.digest());
        if (theirs.length == 0) {
            LOG.error("Source {}: the central database no longer holds the fingerprints from position {} on; the databases diverged "
                    + "between positions {} and {}", identity.source(), digests.from(), s.divergedFrom(), s.divergedTo());
            return null;
        }
        long position;
        try (Connection c = remote.getConnection(); PreparedStatement ps = fingerprints(c, digests.from() - 1, digests.to());
                ResultSet rs = ps.executeQuery()) {
            int offset = 0;
            while (rs.next()) {
                position = rs.getLong(1);
                if (offset + 32 > theirs.length) {
                    LOG.error("Source {}: the central database no longer holds the fingerprints from position {} on; the databases diverged "
                            + "between positions {} and {}", identity.source(), position, s.divergedFrom(), s.divergedTo());
                    return null;
                }
                if (!Arrays.equals(rs.getBytes(2), Arrays.copyOfRange(theirs, offset, offset + 32))) {
                    record(c, "remote/queries/record-diverged-position.sql", position);
                    LOG.error("Source {}: the central database applied something other than what this remote sent at position {}",
                            identity.source(), position);
                    return null;
                }
                offset += 32;
            }
        }
        return digests.to() < s.divergedTo()
                ? ControlMessage.digestRequest(identity.source(), identity.incarnation(), digests.to() + 1, Math.min(s.divergedTo(), digests.to() + CHUNK))
                : null;
    }

    private ControlMessage diverged(long acked, long applied, byte[] theirs) throws SQLException {
        try (Connection c = remote.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("remote/queries/record-divergence.sql"))) {
            ps.setLong(1, acked + 1);
            ps.setLong(2, applied);
            ps.setBytes(3, theirs);
            ps.execute();
        }
        metrics.count("oneway_digest_mismatches", identity.source(), 1);
        LOG.error("Source {}: TRANSFER HALTED. The central database's digest at position {} differs from this remote's: it applied "
                + "something other than what was sent after position {}. Nothing more is sent; looking for the first differing position.",
                identity.source(), applied, acked);
        return ControlMessage.digestRequest(identity.source(), identity.incarnation(), acked + 1, Math.min(applied, acked + CHUNK));
    }

    /**
     * The running digest at {@code upto}, from the digest at {@code after} and the fingerprints in
     * between: those of the changes just sent as they were sent, the others read from the log.
     */
    private byte[] digestThrough(long after, byte[] digest, long upto) throws SQLException {
        long heldFrom = Math.max(after + 1, sent.firstHeld());
        long heldTo = Math.min(upto, sent.lastHeld());
        if (heldFrom > heldTo) {
            return digestFromLog(after, digest, upto);
        }
        byte[] d = digestFromLog(after, digest, heldFrom - 1);
        d = sent.chain(d, heldFrom, heldTo);
        return digestFromLog(heldTo, d, upto);
    }

    private byte[] digestFromLog(long after, byte[] digest, long upto) throws SQLException {
        if (after >= upto) {
            return digest;
        }
        byte[] d = digest;
        long expected = after + 1;
        try (Connection c = remote.getConnection()) {
            for (long from = after; from < upto; from += CHUNK) {
                try (PreparedStatement ps = fingerprints(c, from, Math.min(upto, from + CHUNK)); ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        if (rs.getLong(1) != expected) {
                            throw new SQLException("position " + expected + " is missing from the change log", "P0002");
                        }
                        d = Fingerprint.chain(d, rs.getBytes(2));
                        expected++;
                    }
                }
            }
        }
        if (expected != upto + 1) {
            throw new SQLException("position " + expected + " is missing from the change log", "P0002");
        }
        return d;
    }

    private static PreparedStatement fingerprints(Connection c, long after, long upto) throws SQLException {
        PreparedStatement ps = c.prepareStatement(SqlScript.load("remote/queries/read-fingerprints.sql"));
        ps.setLong(1, after);
        ps.setLong(2, upto);
        return ps;
    }

    private void alarm(String kind, String detail) throws SQLException {
        try (Connection c = remote.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("remote/queries/raise-alarm.sql"))) {
            ps.setString(1, kind);
            ps.setString(2, detail);
            ps.execute();
        }
        metrics.count("oneway_integrity_alarms", identity.source(), 1, "kind", kind);
        LOG.error("Source {}: integrity ALARM ({}): {}. Refused, not acted on.", identity.source(), kind, detail);
    }

    private static void record(Connection c, String script, long value) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load(script))) {
            ps.setLong(1, value);
            ps.executeUpdate();
        }
    }

    private boolean fromThisIncarnation(ControlMessage message) {
        if (identity.incarnation().equals(message.incarnation())) {
            return true;
        }
        refusals.refuse(identity.source(), "incarnation", message.kind().wireName() + " of incarnation " + message.incarnation()
                + ": this remote database is incarnation " + identity.incarnation() + " (the central side replicates an earlier install of it)");
        return false;
    }
}
