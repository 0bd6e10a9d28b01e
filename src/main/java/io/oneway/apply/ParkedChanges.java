package io.oneway.apply;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.oneway.wire.ChangeRecord;

/**
 * Changes that arrived ahead of the next expected position, in memory, bounded by bytes: beyond
 * {@code maxBytes} the changes farthest ahead are let go (they are asked for again later), but
 * never the run that starts at the expected position, which is applied or staged next.
 */
final class ParkedChanges {

    /** Bytes a parked change costs beyond its text: the objects that hold it. */
    private static final int OVERHEAD = 200;

    private record Parked(ChangeRecord change, Instant receivedAt, long bytes) {
    }

    /** A contiguous run from the expected position, cut as {@link #run} was asked. */
    record Run(List<ChangeRecord> changes, Instant receivedAt, boolean limitReached) {
        long last() {
            return changes.get(changes.size() - 1).position();
        }
    }

    private final TreeMap<Long, Parked> parked = new TreeMap<>();
    private final long maxBytes;
    private long bytes;

    ParkedChanges(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    static long size(ChangeRecord change) {
        return OVERHEAD + change.key().length() + (change.row() == null ? 0 : change.row().length());
    }

    void add(ChangeRecord change, Instant receivedAt, long expected) {
        long size = size(change);
        if (parked.containsKey(change.position())) {
            return;
        }
        parked.put(change.position(), new Parked(change, receivedAt, size));
        bytes += size;
        if (bytes > maxBytes) {
            long contiguousEnd = contiguousEnd(expected);
            while (bytes > maxBytes && parked.lastKey() > contiguousEnd) {
                bytes -= parked.pollLastEntry().getValue().bytes();
            }
        }
    }

    boolean contains(long position) {
        return parked.containsKey(position);
    }

    /** The first parked position at or after {@code position}, or null. */
    Long ceiling(long position) {
        return parked.ceilingKey(position);
    }

    /**
     * Consecutive parked changes from {@code expected}: up to the end of the last whole
     * transaction (when {@code wholeTransactions}) or through the first transaction end, and no
     * more than {@code maxChanges} changes or {@code maxBytes} bytes (at least one change).
     * Empty when {@code expected} is not parked.
     */
    Run run(long expected, int maxChanges, long maxRunBytes, boolean wholeTransactions) {
        List<ChangeRecord> run = new ArrayList<>();
        Instant receivedAt = null;
        long size = 0;
        int complete = 0;
        long next = expected;
        boolean limit = false;
        for (Map.Entry<Long, Parked> e : parked.tailMap(expected, true).entrySet()) {
            if (e.getKey() != next) {
                break;
            }
            ChangeRecord c = e.getValue().change();
            run.add(c);
            receivedAt = receivedAt == null ? e.getValue().receivedAt() : receivedAt;
            size += e.getValue().bytes();
            next++;
            if (c.txEnd()) {
                complete = run.size();
                if (!wholeTransactions) {
                    break;
                }
            }
            if (run.size() >= maxChanges || size >= maxRunBytes) {
                limit = true;
                break;
            }
        }
        if (wholeTransactions && complete > 0) {
            return new Run(run.subList(0, complete), receivedAt, limit);
        }
        return wholeTransactions ? new Run(List.of(), receivedAt, limit) : new Run(run, receivedAt, limit);
    }

    /** Let go of everything at or below a position (applied or staged). */
    void removeThrough(long position) {
        while (!parked.isEmpty() && parked.firstKey() <= position) {
            bytes -= parked.pollFirstEntry().getValue().bytes();
        }
    }

    void clear() {
        parked.clear();
        bytes = 0;
    }

    int count() {
        return parked.size();
    }

    long bytes() {
        return bytes;
    }

    private long contiguousEnd(long expected) {
        long end = expected - 1;
        while (parked.containsKey(end + 1)) {
            end++;
        }
        return end;
    }
}
