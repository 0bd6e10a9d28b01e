package io.oneway.support;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.camel.CamelContext;
import org.apache.camel.Consumer;
import org.apache.camel.Route;
import org.apache.camel.component.timer.TimerConsumer;
import org.apache.camel.support.ScheduledPollConsumer;

/**
 * Routes whose consumer runs on a schedule and no longer runs: the sql: routes (assigner,
 * sender, snapshot, purge) and the timer: routes (WAL reader, acknowledgements, heartbeats,
 * resends, the monitors). Camel stops such a consumer for good when an Error (out of memory, a
 * stack overflow) escapes a run, while the route still shows as started: ScheduledPollConsumer
 * logs it and rethrows it, and the executor cancels the task; a timer route's step lets it reach
 * the java.util.Timer, whose thread then ends (TimerRouteErrorTest). Its run counter then stands
 * still; a consumer suspended or stopped is left to the other checks, and one in the middle of a
 * run that does not end is the stall route-stuck (a run that waits on a lock is the stall
 * lock-wait). The route that runs the check itself is
 * watched through StallWatch instead (a check that is overdue), which route watch-monitors tells.
 */
public final class PollWatch {

    private record Seen(long counter, long since) {
    }

    private final long quietMillis;
    private final Map<String, Seen> seen = new HashMap<>();
    /** Timer routes seen in the middle of a run: the run's counter, and since when it has been seen. */
    private final Map<String, Seen> timerRuns = new HashMap<>();

    /** @param quietMillis how long a route may go without a run (or three of its intervals, if longer) before it is named */
    public PollWatch(long quietMillis) {
        this.quietMillis = quietMillis;
    }

    /** @return the started routes that no longer run, with why, or null */
    public synchronized String problem(CamelContext camel, long now) {
        List<String> stopped = new ArrayList<>();
        for (Route route : camel.getRoutes()) {
            String id = route.getRouteId();
            Schedule schedule = schedule(route.getConsumer());
            if (schedule == null) {
                seen.remove(id);
                continue;
            }
            Seen s = seen.get(id);
            if (s == null || s.counter() != schedule.counter()) {
                seen.put(id, new Seen(schedule.counter(), now));
            } else if (now - s.since() >= Math.max(quietMillis, 3 * schedule.interval())) {
                stopped.add(id + " (none for " + (now - s.since()) / 1000 + " s)");
            }
        }
        return stopped.isEmpty() ? null : "routes that run on a schedule no longer run: " + String.join(", ", stopped)
                + "; Camel stops running a route for good when an Error escapes a run (the log has it): restart the replicator";
    }

    /**
     * The routes polling a database whose every poll has failed for quietMillis, or three of their
     * intervals if longer (PollFailures): the stall route-failing, or null. Such a route runs, so
     * problem() does not name it. The intervals keep one failed purge (every minute) from being a
     * stall until the next one.
     */
    public String failing(CamelContext camel, long now) {
        List<String> failing = new ArrayList<>();
        for (Polled p : polled(camel)) {
            PollFailures.Run run = p.failures().failing(p.routeId());
            if (run != null && now - run.sinceMillis() >= p.quietMillis(quietMillis)) {
                failing.add(p.routeId() + " (every poll for " + (now - run.sinceMillis()) / 1000 + " s, " + run.polls() + " polls: " + run.error()
                        + ")");
            }
        }
        return failing.isEmpty() ? null : "routes that poll a database fail at every poll: " + String.join(", ", failing)
                + "; they go on trying (a permission, a full disk, a timeout of the replicator's database user: the database's log says more)";
    }

    /**
     * The routes in a run that has lasted quietMillis, or three of their intervals if longer: the
     * stall route-stuck, or null. A poll of a route polling a database (PollFailures keeps its start
     * and thread), or a timer route's run (seen at successive checks with the same run counter; its
     * thread is the timer's, named after it). Such a run fails nothing and the route counts as in the
     * middle of a run, so neither failing() nor problem() names it; its thread's stack says what it
     * waits for. Left out while a lock wait is found: the stall lock-wait names the session it waits for.
     */
    public synchronized String stuck(CamelContext camel, long now) {
        List<String> stuck = new ArrayList<>();
        for (Polled p : polled(camel)) {
            PollFailures.Poll poll = p.failures().polling(p.routeId());
            // an Error escaping a poll skips commit and rollback alike: its entry stays, the consumer no longer polls (route-stopped)
            if (poll != null && p.polling() && now - poll.sinceMillis() >= p.quietMillis(quietMillis)) {
                stuck.add(p.routeId() + " (in one poll for " + (now - poll.sinceMillis()) / 1000 + " s, " + waitingFor(poll.thread()) + ")");
            }
        }
        for (Route route : camel.getRoutes()) {
            String id = route.getRouteId();
            if (!(route.getConsumer() instanceof TimerConsumer c && c.isStarted() && c.isPolling())) {
                timerRuns.remove(id);
                continue;
            }
            Seen run = timerRuns.get(id);
            if (run == null || run.counter() != c.getCounter()) {
                timerRuns.put(id, new Seen(c.getCounter(), now));
            } else if (now - run.since() >= Math.max(quietMillis, 3 * Math.max(c.getPeriod(), c.getDelay()))) {
                String timer = "timer://" + c.getEndpoint().getTimerName();
                String waiting = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().endsWith(timer)).findFirst()
                        .map(PollWatch::waitingFor).orElse("its timer's thread not found");
                stuck.add(id + " (in one run for at least " + (now - run.since()) / 1000 + " s, " + waiting + ")");
            }
        }
        return stuck.isEmpty() ? null : "routes stuck in a run that does not return: " + String.join(", ", stuck)
                + "; each goes on when its call returns (on a connection whose database went away without closing it, a statement fails "
                + "after the keepalive probes of oneway.database.keepalive-idle and is retried)";
    }

    /** What a thread waits for, from the first frame of a database driver or broker client on its stack. */
    static String waitingFor(Thread thread) {
        StackTraceElement[] stack = thread.getStackTrace();
        for (StackTraceElement frame : stack) {
            String c = frame.getClassName();
            if (c.startsWith("org.postgresql.")) {
                return "waiting for the database: a statement that has not returned (a long one, or a connection whose database went away)";
            }
            if (c.startsWith("org.apache.activemq.") || c.startsWith("org.messaginghub.") || c.startsWith("jakarta.jms.")) {
                return "waiting for the broker (it blocks senders while its disk or an address is full)";
            }
        }
        return stack.length == 0 ? "its thread has ended" : "at " + stack[0].getClassName() + "." + stack[0].getMethodName();
    }

    /** A route polling a database with PollFailures as its poll strategy, how often it polls, and whether a poll is in progress. */
    private record Polled(String routeId, PollFailures failures, long interval, boolean polling) {
        /** How long a run of failed polls or one poll may last before it is told: the quiet time, or three intervals if longer. */
        long quietMillis(long quiet) {
            return Math.max(quiet, 3 * interval);
        }
    }

    private static List<Polled> polled(CamelContext camel) {
        List<Polled> polled = new ArrayList<>();
        for (Route route : camel.getRoutes()) {
            if (route.getConsumer() instanceof ScheduledPollConsumer c && c.getPollStrategy() instanceof PollFailures failures) {
                polled.add(new Polled(route.getRouteId(), failures, Math.max(c.getDelay(), c.getInitialDelay()), c.isPolling()));
            }
        }
        return polled;
    }

    /** How often a consumer runs and how many runs it made, when it is started, not suspended and between runs; else null. */
    private record Schedule(long counter, long interval) {
    }

    private static Schedule schedule(Consumer consumer) {
        if (consumer instanceof ScheduledPollConsumer c && c.isStarted() && !c.isSuspended() && !c.isPolling()) {
            return new Schedule(c.getCounter(), Math.max(c.getDelay(), c.getInitialDelay()));
        }
        if (consumer instanceof TimerConsumer c && c.isStarted() && !c.isSuspended() && !c.isPolling()) {
            return new Schedule(c.getCounter(), Math.max(c.getPeriod(), c.getDelay()));
        }
        return null;
    }
}
