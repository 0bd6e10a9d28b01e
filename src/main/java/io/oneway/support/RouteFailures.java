package io.oneway.support;

import org.apache.camel.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The failures of replication routes, told without flooding the log: the first failure of a
 * route with a cause is logged in one line (the stack trace only at DEBUG), repeats of it at
 * most once per {@code quietMillis} with how many there were. A failed exchange is not retried
 * here: the protocol does (the sender sends again what is not received, the receiver asks for
 * what is missing), and the stall monitors report an outage as a state, once.
 */
public final class RouteFailures {

    private static final Logger LOG = LoggerFactory.getLogger(RouteFailures.class);

    private final QuietLog quiet;

    public RouteFailures(long quietMillis) {
        this.quiet = new QuietLog(quietMillis);
    }

    public void record(Exchange exchange) {
        Throwable e = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        Throwable root = root(e);
        String route = exchange.getFromRouteId();
        String cause = root == null ? "unknown" : root.getClass().getSimpleName() + ": " + firstLine(root.getMessage());
        QuietLog.Due due = quiet.due(route + '\u0000' + (root == null ? "" : root.getClass().getName()), System.currentTimeMillis());
        if (due != null) {
            LOG.warn("Route {} failed: {}{}; the protocol tries again", route, cause, due.repeats() == 0 ? ""
                    : " (" + due.repeats() + " failures like it since " + java.time.Instant.ofEpochMilli(due.lastMillis()) + ")");
        }
        LOG.debug("Route {} failed", route, e);
    }

    /** The innermost cause: a database error names its SQLSTATE's message there. */
    static Throwable root(Throwable e) {
        Throwable root = e;
        while (root != null && root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    static String firstLine(String message) {
        String m = String.valueOf(message);
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
