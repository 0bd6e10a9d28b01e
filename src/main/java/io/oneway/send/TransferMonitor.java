package io.oneway.send;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

import org.apache.camel.CamelContext;

import io.oneway.capture.CaptureGaps;
import io.oneway.capture.WalReader;
import io.oneway.support.BrokerProbe;
import io.oneway.support.FallingBehind;
import io.oneway.support.LateChanges;
import io.oneway.support.LinkSilence;
import io.oneway.support.LockWaits;
import io.oneway.support.OnewayMetrics;
import io.oneway.support.PollWatch;
import io.oneway.support.RecentEvents;
import io.oneway.support.Refusals;
import io.oneway.support.SqlScript;
import io.oneway.support.StallWatch;
import io.oneway.support.StallWatch.Stall;

/**
 * The remote side's view of how the transfer goes, checked every oneway.notify.check-interval
 * ms: captured, sent, received and acknowledged positions, backlog and lag (published as
 * metrics), and the stalls it can see: the central side silent (changes wait and no ack at all
 * came for oneway.notify.silent-after ms), or its messages refused here meanwhile, what is sent not
 * received there while it asks for it again and again (lost on the way), the broker or the remote database unreachable, capture
 * from the WAL failing, standing still while behind, or about to lose the WAL it needs, a
 * captured table whose capture is not in force (its trigger or publication changed by hand), the
 * sender not sending what waits, a route that no longer polls or whose every poll fails, a
 * statement of the replicator waiting on a lock for oneway.notify.lock-wait-after ms, and the
 * transfer or the WAL reader falling behind while nothing of that stops it (FallingBehind,
 * LateChanges).
 */
public final class TransferMonitor {

    /** What a check read; metrics read the last one, never waiting for a check. */
    private record Progress(long captured, long acked, double lagSeconds, long sendStop) {
    }

    private final DataSource remote;
    private final SourceIdentity identity;
    private final SendWindow window;
    private final LinkSilence link;
    private final StallWatch watch;
    private final WalReader wal;
    private final CaptureGaps captureGaps;
    private final LockWaits lockWaits;
    private final OnewayMetrics metrics;
    private final long silentAfterMillis;
    private final PollWatch polls;
    private final FallingBehind behind;
    private final LateChanges lateRecording;
    private final Refusals refusals;
    private final ResendQueue resends;
    /** The received position as the last check saw it, and since when (epoch ms). */
    private long receivedSeen = -1;
    private long receivedSeenAt;
    private volatile Progress progress = new Progress(0, 0, 0, Long.MAX_VALUE);

    public TransferMonitor(DataSource remote, SourceIdentity identity, SendWindow window, BrokerProbe broker, StallWatch watch,
            WalReader wal, LockWaits lockWaits, OnewayMetrics metrics, Refusals refusals, ResendQueue resends, long silentAfterMillis,
            long behindAfterMillis) {
        this.remote = remote;
        this.refusals = refusals;
        this.resends = resends;
        this.identity = identity;
        this.window = window;
        this.link = new LinkSilence(broker);
        this.watch = watch;
        this.wal = wal;
        this.captureGaps = new CaptureGaps(remote);
        this.lockWaits = lockWaits;
        this.metrics = metrics;
        this.silentAfterMillis = silentAfterMillis;
        this.polls = new PollWatch(silentAfterMillis);
        this.behind = new FallingBehind(behindAfterMillis);
        this.lateRecording = new LateChanges(behindAfterMillis, "recorded from the WAL");
    }

    /** Registers the remote side's meters, so each is exported from the start. */
    public void registerMeters() {
        String s = identity.source();
        metrics.gauge("oneway_captured_position", s, () -> progress.captured());
        metrics.gauge("oneway_sent_position", s, window::lastSent);
        metrics.gauge("oneway_received_position", s, window::received, "side", "remote");
        metrics.gauge("oneway_acknowledged_position", s, () -> progress.acked());
        metrics.gauge("oneway_backlog_changes", s, () -> Math.max(0, progress.captured() - progress.acked()), "side", "remote");
        metrics.gauge("oneway_lag_seconds", s, () -> progress.lagSeconds(), "side", "remote");
        wal.registerMeters(s);
        for (String state : List.of("central-silent", "messages-refused", "changes-missing", "broker-unreachable", "database-unreachable",
                "capture-stopped", "capture-off", "sender-stopped", "route-stopped", "route-failing", "route-stuck", "lock-wait", "monitor-stopped",
                "falling-behind")) {
            metrics.gauge("oneway_stalled", s, () -> watch.inForce(state, null) ? 1 : 0, "side", "remote", "state", state);
        }
        for (String name : List.of("oneway_messages_sent", "oneway_bytes_sent", "oneway_messages_received", "oneway_bytes_received",
                "oneway_resend_requests", "oneway_retransmits", "oneway_digest_mismatches", "oneway_refused_changes")) {
            metrics.counter(name, s);
        }
        OnewayMetrics.REFUSAL_REASONS.forEach(reason -> metrics.counter("oneway_refused_messages", s, "reason", reason));
        for (String kind : List.of("ack-beyond-sent", "malformed-ack")) {
            metrics.counter("oneway_integrity_alarms", s, "kind", kind);
        }
    }

    /** @return the notifications due: a stall begun or ended */
    public synchronized List<Map<String, Object>> check(CamelContext camel) {
        List<Stall> found = new ArrayList<>();
        boolean reachable = true;
        try {
            progress = read();
            window.captured(progress.captured());
        } catch (SQLException | RuntimeException e) {
            reachable = false;
            found.add(new Stall("database-unreachable", identity.source(), "the remote database cannot be reached: " + firstLine(e)));
        }
        long now = System.currentTimeMillis();
        String brokerProblem = link.brokerProblem(now);
        if (brokerProblem != null) {
            found.add(new Stall("broker-unreachable", identity.source(), brokerProblem));
        }
        try {
            wal.watch();
        } catch (SQLException | RuntimeException e) {
            // unreachable: the database-unreachable stall says so
        }
        lockWait().ifPresent(found::add);
        String walProblem = wal.problem();
        if (walProblem != null) {
            found.add(new Stall("capture-stopped", identity.source(), walProblem));
        }
        if (reachable) {
            captureOff().ifPresent(found::add);
        }
        long backlog = Math.max(0, progress.captured() - progress.acked());
        // silent since the last ack, and at least since this replicator started or the broker came back
        long silentFor = link.silentFor(now, window.lastHeard());
        Optional<Stall> missing = changesMissing(now);
        missing.ifPresent(found::add);
        // with the broker out of reach, the central side's silence is no news
        if (missing.isEmpty() && brokerProblem == null && backlog > 0 && silentFor >= silentAfterMillis) {
            found.add(centralSilent(silentFor, now));
        }
        senderStopped(brokerProblem == null, now).ifPresent(found::add);
        String notPolling = polls.problem(camel, now);
        if (notPolling != null) {
            found.add(new Stall("route-stopped", identity.source(), notPolling));
        }
        String pollsFailing = polls.failing(camel, now);
        if (pollsFailing != null) {
            found.add(new Stall("route-failing", identity.source(), pollsFailing));
        }
        String pollsStuck = found.stream().anyMatch(s -> s.state().equals("lock-wait")) ? null : polls.stuck(camel, now);
        if (pollsStuck != null) {
            found.add(new Stall("route-stuck", identity.source(), pollsStuck));
        }
        fallingBehind(found, now).ifPresent(found::add);
        List<Map<String, Object>> notices = watch.observe(found, progress.acked(), backlog);
        record(found, backlog);
        return notices;
    }

    /** Its messages refused here meanwhile (a damaged link, a key that does not match) are the cause, when there were any. */
    private Stall centralSilent(long silentFor, long now) {
        RecentEvents.Recent r = refusals.since(identity.source(), now - silentFor);
        if (r != null && now - r.lastMillis() < silentAfterMillis) {
            return new Stall("messages-refused", identity.source(), "no ack accepted from the central side for " + silentFor / 1000 + " s: "
                    + r.count() + " of its messages refused meanwhile, the last for " + r.last()
                    + " (this side's log tells each reason once, oneway_refused_messages counts them)");
        }
        return new Stall("central-silent", identity.source(), "no ack from the central side for " + silentFor / 1000
                + " s (it is down, halted, or cut off, or it refuses what this side sends, or its acks are lost on the way here: its status "
                + "and log say which)");
    }

    /**
     * Sent changes the central side has not received for silent-after ms while it asks for them
     * again and again (three requests at least, the last within silent-after ms) and this side sends
     * them again: they are lost on the way. Its acks may keep coming all the while (they repeat
     * what it holds), so neither its silence nor a backlog that stopped moving tell it sooner.
     */
    private Optional<Stall> changesMissing(long now) {
        long received = window.received();
        if (received != receivedSeen) {
            receivedSeen = received;
            receivedSeenAt = now;
        }
        if (window.lastSent() <= received || now - receivedSeenAt < silentAfterMillis) {
            return Optional.empty();
        }
        RecentEvents.Recent asked = resends.requestsSince(receivedSeenAt);
        if (asked == null || asked.count() < 3 || now - asked.lastMillis() >= silentAfterMillis) {
            return Optional.empty();
        }
        return Optional.of(new Stall("changes-missing", identity.source(), "the central side has received nothing after position " + received
                + " for " + (now - receivedSeenAt) / 1000 + " s, though it asked " + asked.count() + " times meanwhile for what it misses "
                + "(the last: positions " + asked.last() + ") and this side sent it again: what this side sends does not reach it (lost on "
                + "the way: a link or broker that drops messages, or cannot carry one of oneway.send.frame-bytes)"));
    }

    /**
     * Changes wait to be sent, the send window is open and no halt holds them, yet nothing went
     * out for oneway.notify.silent-after ms: the sender does not run. Camel stops polling a route
     * for good when an Error (out of memory, say) escapes its poll, and acks of what was sent
     * before keep coming, so nothing else tells.
     */
    private Optional<Stall> senderStopped(boolean brokerReachable, long now) {
        long lastSent = window.lastSent();
        long idle = now - window.lastSentAt();
        if (!brokerReachable || progress.sendStop() <= lastSent + 1 || progress.captured() <= lastSent || window.sendLimit() <= lastSent || idle < silentAfterMillis) {
            return Optional.empty();
        }
        return Optional.of(new Stall("sender-stopped", identity.source(), "positions " + (lastSent + 1) + ".." + progress.captured()
                + " wait to be sent and the send window is open, but nothing was sent for " + idle / 1000
                + " s: route send-changes does not poll, or its sends do not complete (the log tells why; restart the replicator)"));
    }

    /**
     * Only when nothing else found tells why changes wait, and no halt holds them. Two ways: the
     * backlog of what is recorded (FallingBehind), and, with capture from the WAL, the reader
     * recording later and later after the commits (LateChanges): what it has not read is WAL, not
     * changes, so no backlog counts it, and the central side keeps up with what it records.
     */
    private Optional<Stall> fallingBehind(List<Stall> found, long now) {
        if (!found.isEmpty() || progress.sendStop() <= progress.captured()) {
            behind.reset();
            lateRecording.reset();
            return Optional.empty();
        }
        List<String> causes = new ArrayList<>(2);
        if (wal.enabled()) {
            Optional.ofNullable(lateRecording.observe(now, wal.changesRecorded(), wal.recordedCommitMillis(), false))
                    .map(cause -> cause + ": the WAL reader sets the pace, its slot " + wal.behindBytes() + " bytes behind the WAL "
                            + "(the recording's statements on the remote database, triggers on oneway.change_log, the WAL sender's decoding)")
                    .ifPresent(causes::add);
        }
        long sent = Math.max(0, Math.min(window.lastSent(), progress.captured()) - progress.acked());
        long unsent = Math.max(0, progress.captured() - Math.max(window.lastSent(), progress.acked()));
        boolean windowFull = window.sendLimit() <= window.lastSent();
        long staged = Math.max(0, Math.min(window.received(), progress.captured()) - progress.acked());
        String pace = "; of the backlog " + sent + " changes are sent and wait for the central side"
                + (staged > 0 ? " (" + staged + " of them received and staged there: a large transaction, applied and acknowledged at its end)" : "")
                + ", " + unsent + " wait to be sent" + (windowFull ? " (the send window is full)" : "") + (windowFull || sent >= unsent
                        ? ": the link or the central side's apply sets the pace (its time per change, the link's resends)"
                        : ": the remote's sender sets the pace (reading the change log, the WAL reader, the remote database)");
        Optional.ofNullable(behind.observe(now, progress.captured(), progress.acked(), progress.lagSeconds())).map(cause -> cause + pace)
                .ifPresent(causes::add);
        return causes.isEmpty() ? Optional.empty() : Optional.of(new Stall("falling-behind", identity.source(), String.join("; and ", causes)));
    }

    /** Called only when the database answered this check: a failure here is not its being out of reach, and is told. */
    private Optional<Stall> captureOff() {
        try {
            return Optional.ofNullable(captureGaps.problem()).map(p -> new Stall("capture-off", identity.source(), p));
        } catch (SQLException | RuntimeException e) {
            return Optional.of(new Stall("capture-off", identity.source(), "whether every captured table is captured cannot be checked: "
                    + firstLine(e) + " (is the remote's SQL of this version? bin/oneway install remote)"));
        }
    }

    private Optional<Stall> lockWait() {
        try {
            return Optional.ofNullable(lockWaits.problem()).map(p -> new Stall("lock-wait", identity.source(), p));
        } catch (SQLException | RuntimeException e) {
            // unreachable: the database-unreachable stall says so
            return Optional.empty();
        }
    }

    private Progress read() throws SQLException {
        try (Connection c = remote.getConnection();
                PreparedStatement ps = c.prepareStatement(SqlScript.load("remote/queries/read-transfer-progress.sql"))) {
            long before = System.currentTimeMillis();
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                window.clock().read(rs.getLong("database_millis"), before, System.currentTimeMillis());
                return new Progress(rs.getLong("captured"), rs.getLong("acked"), rs.getDouble("lag_seconds"), rs.getLong("send_stop"));
            }
        }
    }

    /** What this check found, in the remote database for ./oneway status (skipped when it cannot be reached). */
    private void record(List<Stall> found, long backlog) {
        try (Connection c = remote.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("shared/queries/record-monitor-state.sql"))) {
            ps.setString(1, "transfer " + identity.source());
            ps.setString(2, found.isEmpty() ? "none" : String.join("; ", found.stream().map(s -> s.state() + ": " + s.cause()).toList()));
            ps.setLong(3, backlog);
            ps.setDouble(4, progress.lagSeconds());
            ps.setNull(5, Types.DOUBLE);
            ps.executeUpdate();
        } catch (SQLException | RuntimeException e) {
            // the database-unreachable stall already says so
        }
    }

    static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
