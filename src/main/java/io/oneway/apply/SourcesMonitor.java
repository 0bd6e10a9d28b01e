package io.oneway.apply;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.apache.camel.CamelContext;

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
 * The central side's view of each source, checked every oneway.notify.check-interval ms:
 * applied, received and announced positions, backlog, lag and what is held in memory (published
 * as metrics from what each receiver last published), and the stalls it can see: a source silent
 * (nothing from it, not even a heartbeat, for oneway.notify.silent-after ms), the broker or the
 * central database unreachable, a source whose messages this side refuses while its changes wait
 * and none arrives (Refusals: a message limit under the source's frames, a key or an incarnation
 * that does not match), or whose missing changes are asked for again and again in vain while it is
 * heard (lost on the way), or whose heartbeats say it does not hear this side's acks while its
 * window is full (lost on the way back), a statement applying changes waiting on a lock for
 * oneway.notify.lock-wait-after ms (a replicated schema change behind a report's long query), a
 * route that no longer polls or whose every poll fails (PollWatch), applying a source's changes
 * failing for a reason that passes for as long as silent-after, and a source's changes applied
 * later and later while nothing of that stops them (LateChanges).
 */
public final class SourcesMonitor {

    private final DataSource central;
    private final GapDetector detector;
    private final LinkSilence link;
    private final StallWatch watch;
    private final LockWaits lockWaits;
    private final OnewayMetrics metrics;
    private final long silentAfterMillis;
    private final PollWatch polls;
    private final long behindAfterMillis;
    private final Map<String, LateChanges> late = new HashMap<>();
    private final Refusals refusals;
    /** Per source: the received position last seen, and when it was first seen (epoch ms). */
    private final Map<String, long[]> receivedSince = new HashMap<>();
    /**
     * Per source: when it was last found silent for half of silent-after or more, or the broker out of reach (epoch ms): the link
     * may have been down both ways, or the broker lost the acks it held.
     */
    private final Map<String, Long> silentAt = new HashMap<>();
    private volatile List<String> sources = List.of();

    public SourcesMonitor(DataSource central, GapDetector detector, BrokerProbe broker, StallWatch watch, LockWaits lockWaits,
            OnewayMetrics metrics, Refusals refusals, long silentAfterMillis, long behindAfterMillis) {
        this.central = central;
        this.refusals = refusals;
        this.detector = detector;
        this.link = new LinkSilence(broker);
        this.watch = watch;
        this.lockWaits = lockWaits;
        this.metrics = metrics;
        this.silentAfterMillis = silentAfterMillis;
        this.polls = new PollWatch(silentAfterMillis);
        this.behindAfterMillis = FallingBehind.span(behindAfterMillis);
    }

    /** Registers the meters of the sources this replicator receives from, so each is exported from the start. */
    public void registerMeters(List<String> receivedSources) {
        sources = List.copyOf(receivedSources);
        for (String s : sources) {
            metrics.gauge("oneway_applied_position", s, () -> status(s).applied());
            metrics.gauge("oneway_received_position", s, () -> status(s).received(), "side", "central");
            metrics.gauge("oneway_announced_position", s, () -> status(s).highestKnown());
            metrics.gauge("oneway_backlog_changes", s, () -> status(s).backlog(), "side", "central");
            metrics.gauge("oneway_lag_seconds", s, () -> lag(status(s)), "side", "central");
            metrics.gauge("oneway_source_clock_behind_seconds", s, () -> status(s).clockOffsetMillis() / 1000.0);
            metrics.gauge("oneway_parked_changes", s, () -> status(s).parkedChanges());
            metrics.gauge("oneway_parked_bytes", s, () -> status(s).parkedBytes());
            metrics.gauge("oneway_staged_pending", s, () -> status(s).staged());
            for (String state : List.of("source-silent", "messages-refused", "changes-missing", "acks-unheard", "broker-unreachable",
                    "database-unreachable", "route-stopped", "route-failing", "route-stuck", "lock-wait", "monitor-stopped", "apply-failing",
                    "falling-behind")) {
                metrics.gauge("oneway_stalled", s, () -> watch.inForce(state, s) ? 1 : 0, "side", "central", "state", state);
            }
            for (String name : List.of("oneway_messages_received", "oneway_bytes_received", "oneway_messages_sent", "oneway_bytes_sent",
                    "oneway_applied_changes", "oneway_duplicate_changes", "oneway_staged_changes", "oneway_resend_requests",
                    "oneway_refused_changes", "oneway_halts")) {
                metrics.counter(name, s);
            }
            OnewayMetrics.REFUSAL_REASONS.forEach(reason -> metrics.counter("oneway_refused_messages", s, "reason", reason));
        }
        detector.prepare(sources);
    }

    /** @return the notifications due: a stall begun or ended */
    public synchronized List<Map<String, Object>> check(CamelContext camel) {
        List<Stall> found = new ArrayList<>();
        String databaseProblem = null;
        long now = System.currentTimeMillis();
        String brokerProblem = link.brokerProblem(now);
        if (brokerProblem != null) {
            found.add(new Stall("broker-unreachable", null, brokerProblem));
        }
        String notPolling = polls.problem(camel, now);
        if (notPolling != null) {
            found.add(new Stall("route-stopped", null, notPolling));
        }
        String pollsFailing = polls.failing(camel, now);
        if (pollsFailing != null) {
            found.add(new Stall("route-failing", null, pollsFailing));
        }
        long backlog = 0;
        long applied = 0;
        Stall lockWait = null;
        try {
            String waits = lockWaits.problem();
            lockWait = waits == null ? null : new Stall("lock-wait", null, waits);
        } catch (SQLException | RuntimeException e) {
            // unreachable: said below
        }
        if (lockWait != null) {
            found.add(lockWait);
        }
        String pollsStuck = lockWait != null ? null : polls.stuck(camel, now);
        if (pollsStuck != null) {
            found.add(new Stall("route-stuck", null, pollsStuck));
        }
        try (Connection c = central.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("shared/queries/record-monitor-state.sql"))) {
            for (String s : sources) {
                ReceiverStatus st = status(s);
                List<String> stalls = new ArrayList<>();
                // silent since it was last heard, and at least since this replicator started or the broker came back
                long silentFor = link.silentFor(now, st.lastHeardMillis());
                if (silentFor >= silentAfterMillis / 2 || brokerProblem != null) {
                    silentAt.put(s, now);
                }
                Stall stopped = refused(s, st, silentFor, now);
                if (stopped == null) {
                    stopped = unanswered(s, st, silentFor, now);
                }
                if (stopped == null) {
                    stopped = acksUnheard(s, st, silentFor, now);
                }
                if (stopped != null) {
                    found.add(stopped);
                    stalls.add(stopped.state() + ": " + stopped.cause());
                } else if (brokerProblem == null && silentFor >= silentAfterMillis) {
                    // with the broker out of reach, a source's silence is no news
                    Stall silent = new Stall("source-silent", s, "nothing from source " + s + " for " + silentFor / 1000
                            + " s, not even a heartbeat (its replicator is down, or cut off); " + st.backlog() + " of its changes known to wait");
                    found.add(silent);
                    stalls.add(silent.state() + ": " + silent.cause());
                }
                if (brokerProblem != null) {
                    stalls.add("broker-unreachable: " + brokerProblem);
                }
                if (lockWait != null) {
                    stalls.add(lockWait.state() + ": " + lockWait.cause());
                }
                if (notPolling != null) {
                    stalls.add("route-stopped: " + notPolling);
                }
                if (pollsFailing != null) {
                    stalls.add("route-failing: " + pollsFailing);
                }
                if (pollsStuck != null) {
                    stalls.add("route-stuck: " + pollsStuck);
                }
                Stall failing = applyFailing(s, st, now);
                if (failing != null) {
                    found.add(failing);
                    stalls.add(failing.state() + ": " + failing.cause());
                }
                Stall behind = fallingBehind(s, st, stalls.isEmpty(), now);
                if (behind != null) {
                    found.add(behind);
                    stalls.add(behind.state() + ": " + behind.cause());
                }
                backlog += st.backlog();
                applied += st.applied();
                ps.setString(1, "source " + s);
                ps.setString(2, stalls.isEmpty() ? "none" : String.join("; ", stalls));
                ps.setLong(3, st.backlog());
                ps.setDouble(4, lag(st));
                ps.setObject(5, st.clockOffsetMillis() == 0 ? null : st.clockOffsetMillis() / 1000.0, Types.DOUBLE);
                ps.addBatch();
            }
            ps.executeBatch();
        } catch (SQLException | RuntimeException e) {
            databaseProblem = "the central database cannot be reached: " + firstLine(e);
        }
        if (databaseProblem != null) {
            found.add(new Stall("database-unreachable", null, databaseProblem));
        }
        return watch.observe(found, applied, backlog);
    }

    /**
     * This side refuses the source's messages, still within the last silent-after ms, and it has
     * accepted nothing of the source for as long (its heartbeats refused too), or changes it announced
     * wait and none was received for as long (its frames refused, its heartbeats taken): without this the
     * source looked down, or only slow, while it sent all along.
     */
    private Stall refused(String source, ReceiverStatus st, long silentFor, long now) {
        long[] seen = receivedSince.get(source);
        if (seen == null || seen[0] != st.received()) {
            seen = new long[] {st.received(), now};
            receivedSince.put(source, seen);
        }
        long stillFor = silentFor >= silentAfterMillis ? Math.min(silentFor, now - seen[1]) : now - seen[1];
        // announced and not received: a long apply of what was received is not this
        long missing = Math.max(st.highestKnown(), st.sourceCaptured()) - st.received();
        boolean waiting = silentFor >= silentAfterMillis || missing > 0 && !st.halted();
        RecentEvents.Recent r = waiting && stillFor >= silentAfterMillis ? refusals.since(source, now - stillFor) : null;
        if (r == null || now - r.lastMillis() >= silentAfterMillis) {
            return null;
        }
        String what = silentFor >= silentAfterMillis ? "nothing of source " + source + " accepted for " + stillFor / 1000 + " s"
                : missing + " of its changes known to wait and none received after position " + st.received() + " for " + stillFor / 1000 + " s";
        return new Stall("messages-refused", source, what + ": " + r.count() + " of its messages refused meanwhile, the last for "
                + r.last() + " (this side's log tells each reason once, oneway_refused_messages counts them)");
    }

    /**
     * The first missing position asked for again and again for silent-after ms while the source is
     * heard (its heartbeats say it sent further): the answers do not arrive, lost on the way, or the
     * source does not send them. Three requests at least: a receiver held by a long apply asks for
     * nothing meanwhile, so what it let go over max-parked-bytes is not taken for this.
     */
    private Stall unanswered(String source, ReceiverStatus st, long silentFor, long now) {
        ReceiverStatus.Unanswered u = st.unanswered();
        if (u == null || st.halted() || silentFor >= silentAfterMillis || u.requests() < 3 || now - u.sinceMillis() < silentAfterMillis) {
            return null;
        }
        return new Stall("changes-missing", source, "position " + u.position() + " missing for " + (now - u.sinceMillis()) / 1000
                + " s though asked for " + u.requests() + " times, the source heard all the while (it sent up to " + st.highestKnown()
                + "): what it sends does not arrive (lost on the way: a link or broker that drops messages, or cannot carry one of the "
                + "remote's oneway.send.frame-bytes), or it does not send it (the remote replicator's status says)");
    }

    /**
     * The source's heartbeat, made silent-after ms or more after this side first acked more than the source holds as received,
     * says its window is full with what it held before: the acks do not reach it, and it sends nothing new while this side has
     * applied all it got. Told while such a heartbeat is the last one heard within silent-after ({@link UnheardAcks}), and it
     * came in less than that. After the source was silent (a link down both ways, which holds the acks too and is told as
     * source-silent) or the broker out of reach (it lost the acks it held, told as broker-unreachable), the span counts from
     * silent-after past its end: the heartbeats the link held, arriving together when it comes back, say what the source lacked
     * during the outage, acks lost with a broker are sent again once it is back, and the way back comes back on its own, later
     * than the way here (a core bridge's back-off, a consumer reconnecting: in a CI run the acks reached the source 13 s after
     * the WAN came back, while its changes came at once).
     */
    private Stall acksUnheard(String source, ReceiverStatus st, long silentFor, long now) {
        ReceiverStatus.Unheard u = st.unheard();
        if (u == null || st.halted() || silentFor >= silentAfterMillis || now - u.heardAtMillis() >= silentAfterMillis
                || u.heardAtMillis() - u.madeAtMillis() >= silentAfterMillis) {
            return null;
        }
        long unheardFor = u.madeAtMillis() - Math.max(u.ackedAtMillis(), silentAt.getOrDefault(source, 0L) + silentAfterMillis);
        if (unheardFor < silentAfterMillis) {
            return null;
        }
        return new Stall("acks-unheard", source, "its heartbeats say it holds only up to position " + u.sourceHolds() + " as received, "
                + (u.madeAtMillis() - u.ackedAtMillis()) / 1000 + " s after this side acked more (it holds up to " + st.received()
                + "): its window is full and it sends nothing new, as this side's acks do not reach it (lost on the way back: the "
                + "source's replies queue, a link or broker that drops or holds them; or the remote replicator refuses them, as its status says)");
    }

    /**
     * Applying fails for a reason that passes (a lost connection, a full disk, memory, a statement or
     * lock timeout of the replicator's user, a deadlock) and is retried at every tick: told once it
     * has lasted oneway.notify.silent-after ms, or it would show only as one line in the log.
     */
    private Stall applyFailing(String source, ReceiverStatus st, long now) {
        long failingFor = now - st.applyFailingSinceMillis();
        if (st.applyFailingSinceMillis() == 0 || failingFor < silentAfterMillis) {
            return null;
        }
        return new Stall("apply-failing", source, "applying its changes after position " + st.applied() + " has failed for " + failingFor / 1000
                + " s and is retried: " + st.applyError() + " (the central database's log says more: disk space, memory, the replicator "
                + "user's statement_timeout or lock_timeout)");
    }

    /** Only when nothing else found tells why the source's changes are late, and no halt holds them (a halt is told as such). */
    private Stall fallingBehind(String source, ReceiverStatus st, boolean nothingElse, long now) {
        LateChanges applies = late.computeIfAbsent(source, s -> new LateChanges(behindAfterMillis, "applied"));
        if (!nothingElse || st.halted()) {
            applies.reset();
            return null;
        }
        // frames read and not applied wait: an apply run longer than half the span is not a quiet source
        String cause = applies.observe(now, st.applied(), st.appliedLoggedAtMillis(), st.highestKnown() > st.applied());
        // frames waiting in the broker are not seen from here: the remote's own falling-behind says who sets the pace
        return cause == null ? null : new Stall("falling-behind", source, cause + "; the remote replicator's status says where the pace is set "
                + "(its backlog sent and waiting for this side: the link or this side's apply, its time per change, locks, triggers and indexes of "
                + "the central tables; waiting to be sent: the remote; or its WAL reader, recording late)");
    }

    private ReceiverStatus status(String source) {
        return detector.statuses().getOrDefault(source, ReceiverStatus.NONE);
    }

    /**
     * The last apply's delay is kept for silent-after ms: the frames of a backlog follow each other more
     * closely than that, or the source is reported silent; an idle source caught up reads 0 after it.
     */
    private double lag(ReceiverStatus st) {
        return st.lagSeconds(System.currentTimeMillis(), silentAfterMillis);
    }

    private static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
