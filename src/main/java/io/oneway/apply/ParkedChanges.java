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
 * <p>
 * Held as segments of consecutive positions, no two of them adjacent: a frame's changes are
 * appended to a segment and let go from its front, so a change costs no lookup of its own. As
 * a map of positions, every change of every frame was a search of a tree of up to a window's
 * entries and an insertion in it: a tenth of the central replicator's CPU in a catch-up.
 */
final class ParkedChanges {

    private record Parked(ChangeRecord change, Instant receivedAt, long bytes) {
    }

    /** A contiguous run from the expected position, cut as {@link #run} was asked. */
    record Run(List<ChangeRecord> changes, Instant receivedAt, boolean limitReached) {
        long last() {
            return changes.get(changes.size() - 1).position();
        }
    }

    /** Changes of consecutive positions from {@code start}: {@code held}'s entries from {@code head} on. */
    private static final class Segment {
        private long start;
        private final ArrayList<Parked> held = new ArrayList<>();
        private int head;
        private long bytes;

        Segment(long start) {
            this.start = start;
        }

        int size() {
            return held.size() - head;
        }

        long end() {
            return start + size() - 1;
        }

        boolean holds(long position) {
            return position >= start && position <= end();
        }

        Parked at(long position) {
            return held.get(head + (int) (position - start));
        }

        void append(Parked p) {
            held.add(p);
            bytes += p.bytes();
        }

        /** Lets go of the first {@code n}; the list is compacted once most of it is let go. */
        long dropFirst(int n) {
            long dropped = 0;
            for (int i = head; i < head + n; i++) {
                dropped += held.get(i).bytes();
                held.set(i, null);
            }
            head += n;
            start += n;
            bytes -= dropped;
            if (head > held.size() / 2) {
                held.subList(0, head).clear();
                head = 0;
            }
            return dropped;
        }

        long dropLast() {
            Parked p = held.remove(held.size() - 1);
            bytes -= p.bytes();
            return p.bytes();
        }
    }

    /** By their first position. */
    private final TreeMap<Long, Segment> segments = new TreeMap<>();
    private final long maxBytes;
    private long bytes;
    private int count;

    ParkedChanges(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    void add(ChangeRecord change, Instant receivedAt, long expected) {
        long position = change.position();
        Map.Entry<Long, Segment> before = segments.floorEntry(position);
        if (before != null && before.getValue().holds(position)) {
            return;
        }
        Segment into;
        if (before != null && before.getValue().end() == position - 1) {
            into = before.getValue();
        } else {
            into = new Segment(position);
            segments.put(position, into);
        }
        Parked p = new Parked(change, receivedAt, change.heldBytes());
        into.append(p);
        bytes += p.bytes();
        count++;
        Segment next = segments.get(position + 1);
        if (next != null) {
            // the hole between two segments is filled: one segment from here on
            segments.remove(next.start);
            for (long q = next.start; q <= next.end(); q++) {
                into.append(next.at(q));
            }
        }
        if (bytes > maxBytes) {
            letGoFarthest(contiguousEnd(expected));
        }
    }

    /** Lets go of the changes farthest ahead while over the limit, none at or below {@code keepThrough}. */
    private void letGoFarthest(long keepThrough) {
        while (bytes > maxBytes && !segments.isEmpty()) {
            Segment last = segments.lastEntry().getValue();
            if (last.end() <= keepThrough) {
                return;
            }
            bytes -= last.dropLast();
            count--;
            if (last.size() == 0) {
                segments.remove(last.start);
            }
        }
    }

    boolean contains(long position) {
        return segmentOf(position) != null;
    }

    /** The first parked position at or after {@code position}, or null. */
    Long ceiling(long position) {
        return contains(position) ? Long.valueOf(position) : segments.higherKey(position);
    }

    /** The last of the consecutive parked positions from {@code position}, or {@code position - 1} when it is not parked. */
    long contiguousEnd(long position) {
        Segment s = segmentOf(position);
        return s == null ? position - 1 : s.end();
    }

    /**
     * Consecutive parked changes from {@code expected}: up to the end of the last whole
     * transaction (when {@code wholeTransactions}) or through the first transaction end, and no
     * more than {@code maxChanges} changes or {@code maxBytes} bytes (at least one change).
     * Empty when {@code expected} is not parked.
     */
    Run run(long expected, int maxChanges, long maxRunBytes, boolean wholeTransactions) {
        List<ChangeRecord> run = new ArrayList<>();
        Segment s = segmentOf(expected);
        Instant receivedAt = s == null ? null : s.at(expected).receivedAt();
        long size = 0;
        int complete = 0;
        boolean limit = false;
        for (long position = expected; s != null && position <= s.end(); position++) {
            Parked p = s.at(position);
            ChangeRecord c = p.change();
            run.add(c);
            size += p.bytes();
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
        while (!segments.isEmpty() && segments.firstKey() <= position) {
            Segment first = segments.pollFirstEntry().getValue();
            if (first.end() <= position) {
                bytes -= first.bytes;
                count -= first.size();
                continue;
            }
            int n = (int) (position - first.start + 1);
            bytes -= first.dropFirst(n);
            count -= n;
            segments.put(first.start, first);
        }
    }

    void clear() {
        segments.clear();
        bytes = 0;
        count = 0;
    }

    int count() {
        return count;
    }

    long bytes() {
        return bytes;
    }

    private Segment segmentOf(long position) {
        Map.Entry<Long, Segment> e = segments.floorEntry(position);
        return e != null && e.getValue().holds(position) ? e.getValue() : null;
    }
}
