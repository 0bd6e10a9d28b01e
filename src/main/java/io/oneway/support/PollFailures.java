package io.oneway.support;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.camel.Consumer;
import org.apache.camel.Endpoint;
import org.apache.camel.spi.PollingConsumerPollStrategy;
import org.apache.camel.spi.RouteIdAware;

/**
 * The poll strategy of the routes that poll a database (sql: consumers): a run of polls that all
 * failed, per route, from its first failure until a poll succeeds. A poll that fails does so
 * before any exchange exists (the numbering function refused, a permission revoked, a full disk),
 * so the route's error handler sees it only through bridgeErrorHandler, which tells it quietly
 * (RouteFailures); without this, such a route fails ten times a second while health stays UP and
 * nothing moves (the assigner's changes are never numbered, so no backlog counts them). PollWatch
 * reports a run that lasted oneway.notify.silent-after ms as the stall route-failing. It also
 * keeps the poll in progress, per route (its thread and since when): a poll that does not return
 * (a statement waiting on a connection whose database went away without closing it, a send the
 * broker blocks) fails nothing, so PollWatch tells it as the stall route-stuck.
 */
public final class PollFailures implements PollingConsumerPollStrategy {

    /** A run of failed polls: since when, how many, and the last one's error. */
    public record Run(long sinceMillis, long polls, String error) {
    }

    /** A poll in progress: its thread, and since when. */
    public record Poll(Thread thread, long sinceMillis) {
    }

    private final Map<String, Run> runs = new ConcurrentHashMap<>();
    private final Map<String, Poll> polls = new ConcurrentHashMap<>();

    @Override
    public boolean begin(Consumer consumer, Endpoint endpoint) {
        polls.put(routeId(consumer), new Poll(Thread.currentThread(), System.currentTimeMillis()));
        return true;
    }

    @Override
    public void commit(Consumer consumer, Endpoint endpoint, int polledMessages) {
        String route = routeId(consumer);
        polls.remove(route);
        if (!runs.isEmpty()) {
            runs.remove(route);
        }
    }

    /** Records the failure; never retries at once (the next poll comes at the route's delay), so the bridged error handler tells it. */
    @Override
    public boolean rollback(Consumer consumer, Endpoint endpoint, int retryCounter, Exception cause) {
        String error = RouteFailures.firstLine(RouteFailures.root(cause).getMessage());
        long now = System.currentTimeMillis();
        polls.remove(routeId(consumer));
        runs.merge(routeId(consumer), new Run(now, 1, error), (run, next) -> new Run(run.sinceMillis(), run.polls() + 1, error));
        return false;
    }

    /** The run of failed polls of this route in progress, or null. */
    public Run failing(String routeId) {
        return runs.get(routeId);
    }

    /** The poll of this route in progress, or null. */
    public Poll polling(String routeId) {
        return polls.get(routeId);
    }

    private static String routeId(Consumer consumer) {
        return consumer instanceof RouteIdAware r && r.getRouteId() != null ? r.getRouteId() : String.valueOf(consumer.getEndpoint());
    }
}
