package io.oneway.ops;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.camel.health.HealthCheckResultBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.oneway.support.OnewayMetrics;
import io.oneway.support.RegisteredHealthCheck;

/**
 * Watches what stops replication (a blocked change on the remote, halted sources on the
 * central) and tells operators once per halt: a log line, a notification for the
 * notify-operators route, the health check (DOWN while halted) and the {@code oneway_halted} gauge.
 * Each observed row has an {@code id}, a {@code message} for people, and may have a
 * {@code version} that changes when more becomes known about it (counts that merely grow do not).
 */
public final class HaltWatch extends RegisteredHealthCheck {

    private static final Logger LOG = LoggerFactory.getLogger(HaltWatch.class);
    private final String side;
    private final OnewayMetrics metrics;
    private Map<String, Map<String, Object>> current = new LinkedHashMap<>();
    private long checks;

    /** @param side what is watched, as named in health checks and notifications: "transfer" or "apply" */
    public HaltWatch(String side, OnewayMetrics metrics) {
        super("oneway", "oneway-" + side);
        this.side = side;
        this.metrics = metrics;
    }

    /**
     * @return the notifications due: "halted" for each new halt, "updated" for each whose message
     *         changed (more became known about it), "resumed" for each that ended
     */
    public synchronized List<Map<String, Object>> observe(List<Map<String, Object>> rows) {
        checks++;
        Map<String, Map<String, Object>> now = new LinkedHashMap<>();
        for (Map<String, Object> row : rows) {
            now.put(String.valueOf(row.get("id")), row);
        }
        List<Map<String, Object>> notices = new ArrayList<>();
        for (Map.Entry<String, Map<String, Object>> e : now.entrySet()) {
            Map<String, Object> before = current.get(e.getKey());
            if (before == null) {
                LOG.error("{}", e.getValue().get("message"));
                notices.add(notice("halted", e.getValue()));
            } else if (!String.valueOf(before.get("version")).equals(String.valueOf(e.getValue().get("version")))) {
                LOG.error("{}", e.getValue().get("message"));
                notices.add(notice("updated", e.getValue()));
            }
        }
        for (Map.Entry<String, Map<String, Object>> e : current.entrySet()) {
            if (!now.containsKey(e.getKey())) {
                LOG.info("Resumed: {} no longer stops replication ({})", e.getKey(), side);
                notices.add(notice("resumed", e.getValue()));
            }
        }
        current = now;
        return notices;
    }

    /** Registers the oneway_halted gauge of this side, so it is exported from the start. */
    public void registerMeters() {
        metrics.gauge("oneway_halted", null, this::halts, "side", side);
    }

    public synchronized int halts() {
        return current.size();
    }

    /** How many times the watched state was looked at. */
    public synchronized long checks() {
        return checks;
    }

    @Override
    protected synchronized void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        builder.detail("checks", checks);
        if (current.isEmpty()) {
            builder.up();
            return;
        }
        builder.down();
        Map<String, Object> first = current.values().iterator().next();
        builder.message(String.valueOf(first.get("message")));
        builder.detail("halts", current.size());
    }

    private Map<String, Object> notice(String event, Map<String, Object> row) {
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("event", event);
        n.put("side", side);
        for (Map.Entry<String, Object> e : row.entrySet()) {
            n.put(e.getKey(), e.getValue() == null ? null : e.getValue().toString());
        }
        return n;
    }
}
