package io.oneway.apply;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * How far this replicator's clock is ahead of a source's (its database's, which its changes' times
 * are read on), estimated from its heartbeats: each says when it was made by that clock and
 * arrives some time later by this one, so the least difference seen is the offset plus the
 * quickest trip. Only heartbeats made while the source held nothing back (captured all sent) and
 * arriving when this side held all it had sent count: during a backlog, at the source or sent and
 * waiting in the broker, they queue behind frames and their trip is the queue's.
 * The least of the last ten minutes that had such heartbeats is taken (a source busy for longer
 * keeps its last estimate: clocks drift slowly); under {@link #AGREE_MILLIS} apart the clocks are
 * taken to agree, as a trip is in every figure. Without it, a branch whose clock is ten minutes
 * slow has every change applied "ten minutes late", and the central side reports it falling
 * behind for good; ten minutes fast, never.
 */
final class ClockOffset {

    /** Clocks closer than this are taken to agree. */
    static final long AGREE_MILLIS = 2_000;
    private static final long MINUTE = 60_000;
    private static final int MINUTES = 10;

    /** {the minute's start, the least difference heard in it}, oldest first */
    private final Deque<long[]> minutes = new ArrayDeque<>();

    /** A heartbeat made at {@code madeAt} by the source's clock (0: not said) arrived at {@code arrivedAt} by this one's. */
    synchronized void heard(long madeAt, long arrivedAt) {
        if (madeAt <= 0) {
            return;
        }
        long difference = arrivedAt - madeAt;
        long minute = arrivedAt - Math.floorMod(arrivedAt, MINUTE);
        long[] last = minutes.peekLast();
        if (last != null && last[0] == minute) {
            last[1] = Math.min(last[1], difference);
            return;
        }
        minutes.addLast(new long[] {minute, difference});
        if (minutes.size() > MINUTES) {
            minutes.removeFirst();
        }
    }

    private long told;

    /**
     * What to tell when the estimate moved by {@link #AGREE_MILLIS} or more since last told (the first time: away from agreeing),
     * else null.
     */
    synchronized String news(String source) {
        long now = millis();
        if (Math.abs(now - told) < AGREE_MILLIS) {
            return null;
        }
        told = now;
        if (now == 0) {
            return "Source " + source + "'s clock agrees with this replicator's again";
        }
        return String.format(Locale.ROOT, "Source %s's clock is %.1f s %s this replicator's (as its heartbeats tell): its changes' times are "
                + "counted on this replicator's clock for its lag and falling-behind; set both clocks right (NTP)", source,
                Math.abs(now) / 1000.0, now > 0 ? "behind" : "ahead of");
    }

    /**
     * The least difference itself (the offset plus the quickest trip), not taken as agreeing when small; {@link Long#MAX_VALUE}
     * when no heartbeat made while the source held nothing back was heard.
     */
    synchronized long least() {
        return minutes.stream().mapToLong(m -> m[1]).min().orElse(Long.MAX_VALUE);
    }

    /** ms this replicator's clock is ahead of the source's (negative: behind); 0 when they agree or nothing was heard. */
    synchronized long millis() {
        long least = minutes.isEmpty() ? 0 : least();
        return Math.abs(least) < AGREE_MILLIS ? 0 : least;
    }
}
