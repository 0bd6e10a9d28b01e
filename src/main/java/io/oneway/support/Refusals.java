package io.oneway.support;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Iterator;
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

    /** Refusals since a moment: how many, the last one's time (epoch ms), and its reason and detail. */
    public record Recent(int count, long lastMillis, String last) {
    }

    private static final class Told {
        long at;
        long repeats;
    }

    private static final class Kept {
        final ArrayDeque<Long> times = new ArrayDeque<>();
        String last;
    }

    private final OnewayMetrics metrics;
    private final long quietMillis;
    private final Map<String, Told> told = new ConcurrentHashMap<>();
    private final Map<String, Kept> kept = new ConcurrentHashMap<>();

    public Refusals(OnewayMetrics metrics, long quietMillis) {
        this.metrics = metrics;
        this.quietMillis = quietMillis;
    }

    /** @param reason one of {@link OnewayMetrics#REFUSAL_REASONS} */
    public void refuse(String source, String reason, String detail) {
        metrics.count("oneway_refused_messages", source, 1, "reason", reason);
        long now = System.currentTimeMillis();
        Told t = told.computeIfAbsent(source + '\u0000' + reason, k -> new Told());
        synchronized (t) {
            if (t.at == 0 || now - t.at >= quietMillis) {
                LOG.warn("Refused a message for source {}: {}.{}", source, detail, t.repeats == 0 ? "" : " (" + t.repeats
                        + " more refused for this reason since " + Instant.ofEpochMilli(t.at) + ", each counted in oneway_refused_messages)");
                t.at = now;
                t.repeats = 0;
            } else {
                t.repeats++;
            }
        }
        Kept k = kept.computeIfAbsent(String.valueOf(source), s -> new Kept());
        synchronized (k) {
            k.times.addLast(now);
            if (k.times.size() > KEPT) {
                k.times.removeFirst();
            }
            k.last = reason + ": " + detail;
        }
    }

    /** @return the source's refusals at or after {@code fromMillis}, or null when there were none */
    public Recent since(String source, long fromMillis) {
        Kept k = kept.get(String.valueOf(source));
        if (k == null) {
            return null;
        }
        synchronized (k) {
            int count = 0;
            for (Iterator<Long> i = k.times.descendingIterator(); i.hasNext() && i.next() >= fromMillis;) {
                count++;
            }
            return count == 0 ? null : new Recent(count, k.times.peekLast(), k.last);
        }
    }
}
