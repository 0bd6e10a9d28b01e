package io.oneway.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.camel.health.HealthCheckResultBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stall states of one side (SPEC §4: every stall is reported like a halt): which are in
 * force, since when and why. Each change of state is told once: one log line (ERROR when a stall
 * begins, INFO when it ends, with how long it lasted and how much was caught up since), one
 * notification ({@code stalled}, then {@code recovered}), and the health check, DOWN while any is
 * in force. The monitors of each side feed it what they found at each check; a monitor whose
 * check is overdue (its route no longer runs, see PollWatch) makes the health check DOWN too,
 * since nothing would tell a stall any more.
 */
public final class StallWatch extends RegisteredHealthCheck {

    /** A stall found at a check: its state (e.g. central-silent), the source it concerns (null: all of them), and why. */
    public record Stall(String state, String source, String cause) {
        String key() {
            return state + " " + source;
        }
    }

    private record Active(Stall stall, Instant since, long progressAtStart) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(StallWatch.class);
    private final String side;
    private final long overdueMillis;
    private final Clock clock;
    private Map<String, Active> active = new LinkedHashMap<>();
    // null until the side's monitor first checked (a side this replicator does not run never does)
    private Instant checkedAt;
    // the monitor's overdue check, once told as a stall (since: the monitor's last check), until told as recovered
    private Active overdueTold;

    /**
     * @param side          what is watched, as named in health checks and notifications: "transfer" or "apply"
     * @param overdueMillis how long after its last check the monitor is reported as not running
     */
    public StallWatch(String side, long overdueMillis) {
        this(side, overdueMillis, Clock.systemUTC());
    }

    StallWatch(String side, long overdueMillis, Clock clock) {
        super("oneway", "oneway-" + side + "-link");
        this.side = side;
        this.overdueMillis = overdueMillis;
        this.clock = clock;
    }

    /**
     * @param found    the stalls in force now
     * @param progress a measure of progress (the acknowledged or applied position), to tell how much was caught up
     * @param backlog  changes waiting, for the messages
     * @return the notifications due
     */
    public synchronized List<Map<String, Object>> observe(List<Stall> found, long progress, long backlog) {
        Instant now = clock.instant();
        checkedAt = now;
        Map<String, Active> next = new LinkedHashMap<>();
        List<Map<String, Object>> notices = new ArrayList<>();
        for (Stall s : found) {
            Active was = active.get(s.key());
            if (was == null) {
                Active a = new Active(s, now, progress);
                next.put(s.key(), a);
                // the central side's backlog is every source's: a stall of one source says its own in its cause
                LOG.error("Replication STALLED ({}{}): {}; {} changes wait{}. Reported until it recovers.", s.state(),
                        s.source() == null ? "" : ", source " + s.source(), s.cause(), backlog, "apply".equals(side) ? " from all sources" : "");
                notices.add(notice("stalled", a, now, progress, backlog));
            } else {
                next.put(s.key(), new Active(s, was.since(), was.progressAtStart()));
            }
        }
        for (Map.Entry<String, Active> e : active.entrySet()) {
            if (!next.containsKey(e.getKey())) {
                Active a = e.getValue();
                LOG.info("Replication recovered from {}{} after {}; {} changes caught up since it began.", a.stall().state(),
                        a.stall().source() == null ? "" : ", source " + a.stall().source(), human(Duration.between(a.since(), now)),
                        progress - a.progressAtStart());
                notices.add(notice("recovered", a, now, progress, backlog));
            }
        }
        active = next;
        return notices;
    }

    /** Whether a state is in force (for a source, or for any when source is null); monitor-stopped: the monitor's check is overdue. */
    public synchronized boolean inForce(String state, String source) {
        if ("monitor-stopped".equals(state)) {
            return overdue() != null;
        }
        return active.values().stream().anyMatch(a -> a.stall().state().equals(state)
                && (source == null || a.stall().source() == null || source.equals(a.stall().source())));
    }

    /** The stalls in force, for ./oneway status: state, source, since, cause. */
    public synchronized List<Map<String, Object>> inForce() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Active a : active.values()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("state", a.stall().state());
            row.put("source", a.stall().source());
            row.put("since", a.since().toString());
            row.put("cause", a.stall().cause());
            out.add(row);
        }
        return out;
    }

    @Override
    protected synchronized void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        String overdue = overdue();
        if (active.isEmpty() && overdue == null) {
            builder.up();
            return;
        }
        builder.down();
        List<String> causes = new ArrayList<>(active.values().stream().map(a -> a.stall().state()
                + (a.stall().source() == null ? "" : " (source " + a.stall().source() + ")") + " since " + a.since() + ": " + a.stall().cause())
                .toList());
        if (overdue != null) {
            causes.add("monitor-stopped: " + overdue);
            builder.detail("monitor-overdue", overdue);
        }
        builder.message("STALLED: " + String.join("; ", causes));
        builder.detail("stalls", active.size());
        active.values().forEach(a -> builder.detail(a.stall().key(), a.stall().cause() + " (since " + a.since() + ")"));
    }

    /**
     * Tells the monitor's overdue check like any stall: once when it begins (an ERROR line and a
     * {@code stalled} notification with state monitor-stopped), once when the monitor checks again.
     * Called by another thread than the monitor's (route watch-monitors), since a monitor that no
     * longer runs cannot tell it.
     *
     * @return the notifications due
     */
    public synchronized List<Map<String, Object>> overdueNotices() {
        String why = overdue();
        if (why != null && overdueTold == null) {
            overdueTold = new Active(new Stall("monitor-stopped", null, why), checkedAt, 0);
            LOG.error("Replication STALLED (monitor-stopped): {}. Reported until it checks again.", why);
            return List.of(notice("stalled", overdueTold.stall(), overdueTold.since()));
        }
        if (why == null && overdueTold != null) {
            Map<String, Object> n = notice("recovered", overdueTold.stall(), overdueTold.since());
            n.put("lasted", human(Duration.between(overdueTold.since(), clock.instant())));
            LOG.info("Replication recovered from monitor-stopped: the {} monitor checks again.", side);
            overdueTold = null;
            return List.of(n);
        }
        return List.of();
    }

    /** Why the monitor's last check is too old, or null. */
    String overdue() {
        if (checkedAt == null) {
            return null;
        }
        long since = Duration.between(checkedAt, clock.instant()).toMillis();
        return since < overdueMillis ? null : "the " + side + " monitor last checked " + human(Duration.ofMillis(since))
                + " ago, so a stall would go untold: its route (" + ("transfer".equals(side) ? "watch-link" : "watch-sources-link")
                + ") no longer runs (the log tells why; restart the replicator)";
    }

    private Map<String, Object> notice(String event, Active a, Instant now, long progress, long backlog) {
        Map<String, Object> n = notice(event, a.stall(), a.since());
        n.put("backlog", Long.toString(backlog));
        if ("recovered".equals(event)) {
            n.put("lasted", human(Duration.between(a.since(), now)));
            n.put("caught_up", Long.toString(progress - a.progressAtStart()));
        }
        return n;
    }

    private Map<String, Object> notice(String event, Stall stall, Instant since) {
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("event", event);
        n.put("side", side);
        n.put("state", stall.state());
        n.put("source", stall.source());
        n.put("since", since.toString());
        n.put("cause", stall.cause());
        return n;
    }

    static String human(Duration d) {
        long s = d.toSeconds();
        return s < 60 ? s + " s" : s < 3600 ? s / 60 + " min " + s % 60 + " s" : s / 3600 + " h " + s % 3600 / 60 + " min";
    }
}
