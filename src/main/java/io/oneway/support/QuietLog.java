package io.oneway.support;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When a repeated event may be logged again: the first of a key at once, repeats at most once per
 * {@code quietMillis}, the line then saying how many were passed over since the last one.
 */
public final class QuietLog {

    /** A line is due: how many repeats were passed over since the last line, and when that line was (epoch ms, 0: none). */
    public record Due(long repeats, long lastMillis) {
    }

    private static final class Told {
        long at;
        long repeats;
    }

    private final long quietMillis;
    private final Map<String, Told> told = new ConcurrentHashMap<>();

    public QuietLog(long quietMillis) {
        this.quietMillis = quietMillis;
    }

    /** @return the line due now, or null to stay quiet (the event counts as a repeat) */
    public Due due(String key, long now) {
        Told t = told.computeIfAbsent(key, k -> new Told());
        synchronized (t) {
            if (t.at != 0 && now - t.at < quietMillis) {
                t.repeats++;
                return null;
            }
            Due due = new Due(t.repeats, t.at);
            t.at = now;
            t.repeats = 0;
            return due;
        }
    }
}
