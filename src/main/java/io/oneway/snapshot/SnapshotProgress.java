package io.oneway.snapshot;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.oneway.send.SourceIdentity;
import io.oneway.support.OnewayMetrics;

/**
 * What the snapshot route did with each chunk (sql/remote/11-snapshot.sql), for operators: rows
 * and chunks done of the total, rate and time left in the log at a steady interval and in
 * metrics (per table); a table whose long-running writers keep the snapshot from its lock is
 * named, once per interval.
 */
public final class SnapshotProgress {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotProgress.class);
    private final SourceIdentity identity;
    private final OnewayMetrics metrics;
    private final long intervalMillis;
    private final long triesStoppedMillis;
    private final Map<String, Table> tables = new ConcurrentHashMap<>();

    /** Progress of one table's snapshot as last reported. */
    private final class Table {
        volatile long rowsDone;
        volatile long rowsTotal;
        volatile long chunks;
        long loggedAt = System.currentTimeMillis();
        long lockLoggedAt;
        /** when the tries for the table's lock began failing, 0 while the last one had it */
        volatile long lockWaitSince;
        /** the last failed try: a cancelled snapshot reports nothing more, so its wait ends by itself */
        volatile long lockFailedAt;

        Table(String name) {
            String source = identity.source();
            metrics.gauge("oneway_snapshot_rows", source, () -> rowsDone, "table", name, "count", "done");
            metrics.gauge("oneway_snapshot_rows", source, () -> rowsTotal, "table", name, "count", "total");
            metrics.gauge("oneway_snapshot_chunks", source, () -> chunks, "table", name);
            metrics.gauge("oneway_snapshot_lock_wait_seconds", source, () -> lockWaitSeconds(name), "table", name);
        }
    }

    /**
     * @param intervalMillis at most one progress line per table per interval
     * @param chunkDelayMillis the pause between tries (oneway.snapshot.chunk-delay)
     */
    public SnapshotProgress(SourceIdentity identity, OnewayMetrics metrics, long intervalMillis, long chunkDelayMillis) {
        this.identity = identity;
        this.metrics = metrics;
        this.intervalMillis = intervalMillis;
        // a waiting snapshot is tried again every chunk-delay plus the 200 ms lock_timeout; several
        // tries missing mean it is no longer running (cancelled)
        this.triesStoppedMillis = Math.max(5_000, 5 * (chunkDelayMillis + 200));
    }

    /**
     * The outcome of one call of oneway.snapshot_chunk(): a row (table_name, outcome, rows_done,
     * rows_total, chunks_done, seconds since the snapshot started), or none.
     */
    public void chunked(List<Map<String, Object>> outcome) {
        if (outcome == null || outcome.isEmpty()) {
            return;
        }
        Map<String, Object> row = outcome.get(0);
        String name = (String) row.get("table_name");
        Table t = tables.computeIfAbsent(name, Table::new);
        t.rowsDone = ((Number) row.get("rows_done")).longValue();
        t.rowsTotal = ((Number) row.get("rows_total")).longValue();
        t.chunks = ((Number) row.get("chunks_done")).longValue();
        long now = System.currentTimeMillis();
        long elapsedMillis = Math.round(((Number) row.get("seconds")).doubleValue() * 1000);
        String result = (String) row.get("outcome");
        if ("lock".equals(result)) {
            t.lockWaitSince = t.lockWaitSince == 0 ? now : t.lockWaitSince;
            t.lockFailedAt = now;
        } else if (!"ahead".equals(result)) {
            t.lockWaitSince = 0;
        }
        switch (result) {
            case "done" -> {
                LOG.info("Snapshot of {} complete: {} rows in {} chunks in {} s", name, t.rowsDone, t.chunks, elapsedMillis / 1000);
                tables.remove(name);
            }
            case "lock" -> {
                if (now - t.lockLoggedAt >= intervalMillis) {
                    t.lockLoggedAt = now;
                    LOG.warn("Snapshot of {} waits for {} s: transactions writing the table keep it from the table's SHARE lock for longer "
                            + "than 200 ms at every try (./oneway status names them); tried again", name, (now - t.lockWaitSince) / 1000);
                }
            }
            case "chunk" -> {
                if (now - t.loggedAt >= intervalMillis) {
                    t.loggedAt = now;
                    LOG.info("Snapshot of {}: {}", name, describe(t.rowsDone, t.rowsTotal, t.chunks, elapsedMillis));
                }
            }
            default -> {
                // "ahead": the central side has not received the recent chunks yet; the next poll tries again
            }
        }
    }

    /** How long writers of the table have kept its running snapshot from its lock, in seconds (0: not kept). */
    public long lockWaitSeconds(String table) {
        Table t = tables.get(table);
        long now = System.currentTimeMillis();
        if (t == null || t.lockWaitSince == 0 || now - t.lockFailedAt > triesStoppedMillis) {
            return 0;
        }
        return (now - t.lockWaitSince) / 1000;
    }

    /** "120000 of 1000000 rows (12 %), 120 chunks, 8000 rows/s, about 110 s left". */
    static String describe(long done, long total, long chunks, long elapsedMillis) {
        long rate = elapsedMillis <= 0 ? 0 : done * 1000 / elapsedMillis;
        String left = rate <= 0 ? "time left unknown" : "about " + Math.max(0, total - done) / rate + " s left";
        long percent = total <= 0 ? 100 : Math.min(100, done * 100 / total);
        return done + " of " + total + " rows (" + percent + " %), " + chunks + " chunks, " + rate + " rows/s, " + left;
    }
}
