package io.oneway.support;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The messages a side refuses, per source: counted by reason, logged without flooding the log (the
 * first of a source and reason in one line, repeats at most once per {@code quietMillis} with how
 * many there were), and kept for the stall monitors. A side that refuses every frame of a source
 * while its heartbeats pass (a message limit under the other side's frames, a link that damages
 * large messages), or every message (a key or an incarnation that does not match), leaves changes
 * waiting with nothing else to say why: the source looks silent or simply slow.
 */
public final class Refusals {

    /** Refusal times kept per source: enough for any monitor's span at a message per millisecond. */
    private static final int KEPT = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(Refusals.class);

    private final OnewayMetrics metrics;
    private final QuietLog quiet;
    private final Map<String, RecentEvents> kept = new ConcurrentHashMap<>();

    public Refusals(OnewayMetrics metrics, long quietMillis) {
        this.metrics = metrics;
        this.quiet = new QuietLog(quietMillis);
    }

    /** @param reason one of {@link OnewayMetrics#REFUSAL_REASONS} */
    public void refuse(String source, String reason, String detail) {
        metrics.count("oneway_refused_messages", source, 1, "reason", reason);
        long now = System.currentTimeMillis();
        QuietLog.Due due = quiet.due(source + '\u0000' + reason, now);
        if (due != null) {
            LOG.warn("Refused a message for source {}: {}.{}", source, detail, due.repeats() == 0 ? "" : " (" + due.repeats()
                    + " more refused for this reason since " + Instant.ofEpochMilli(due.lastMillis()) + ", each counted in oneway_refused_messages)");
        }
        keep(source, reason, detail, now);
    }

    /**
     * Keeps a refusal for the monitors under another source than the one it is counted for: a message
     * of source S on the endpoint of T is counted for T, and kept for S too, whose silence it explains.
     */
    public void keep(String source, String reason, String detail) {
        keep(source, reason, detail, System.currentTimeMillis());
    }

    private void keep(String source, String reason, String detail, long now) {
        kept.computeIfAbsent(String.valueOf(source), k -> new RecentEvents(KEPT)).add(now, reason + ": " + detail);
    }

    /** @return the source's refusals at or after {@code fromMillis} (the last with its reason and detail), or null when there were none */
    public RecentEvents.Recent since(String source, long fromMillis) {
        RecentEvents k = kept.get(String.valueOf(source));
        return k == null ? null : k.since(fromMillis);
    }
}
