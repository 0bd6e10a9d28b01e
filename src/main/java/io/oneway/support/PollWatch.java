package io.oneway.support;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.camel.CamelContext;
import org.apache.camel.Route;
import org.apache.camel.support.ScheduledPollConsumer;

/**
 * Routes whose consumer polls on a schedule (the sql: routes: assigner, sender, snapshot, purge)
 * and no longer polls. Camel stops scheduling such a consumer for good when an Error (out of
 * memory, a stack overflow) escapes its poll: ScheduledPollConsumer logs it and rethrows it, and
 * the executor cancels the task, while the route still shows as started. Its poll counter then
 * stands still; a consumer in the middle of a poll, suspended or stopped is left to the other
 * checks (a poll that waits on a lock is the stall lock-wait).
 */
public final class PollWatch {

    private record Seen(long counter, long since) {
    }

    private final long quietMillis;
    private final Map<String, Seen> seen = new HashMap<>();

    /** @param quietMillis how long a route may go without a poll (or three of its delays, if longer) before it is named */
    public PollWatch(long quietMillis) {
        this.quietMillis = quietMillis;
    }

    /** @return the started routes that no longer poll, with why, or null */
    public synchronized String problem(CamelContext camel, long now) {
        List<String> stopped = new ArrayList<>();
        for (Route route : camel.getRoutes()) {
            String id = route.getRouteId();
            if (!(route.getConsumer() instanceof ScheduledPollConsumer c) || !c.isStarted() || c.isSuspended() || c.isPolling()) {
                seen.remove(id);
                continue;
            }
            Seen s = seen.get(id);
            if (s == null || s.counter() != c.getCounter()) {
                seen.put(id, new Seen(c.getCounter(), now));
            } else if (now - s.since() >= Math.max(quietMillis, 3 * Math.max(c.getDelay(), c.getInitialDelay()))) {
                stopped.add(id + " (none for " + (now - s.since()) / 1000 + " s)");
            }
        }
        return stopped.isEmpty() ? null : "routes that poll on a schedule no longer poll: " + String.join(", ", stopped)
                + "; Camel stops polling a route for good when an Error escapes its poll (the log has it): restart the replicator";
    }
}
