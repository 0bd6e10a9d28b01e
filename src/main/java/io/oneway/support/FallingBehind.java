package io.oneway.support;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * Whether the transfer falls behind though nothing stops it: changes are applied more than
 * oneway.notify.behind-after after their capture, over that long the backlog has not shrunk and
 * never emptied, and it is more than that long's work at the rate the central side applies. Changes then reach the central database later and later, which no stall that
 * waits for silence tells. A backlog that shrinks is a catch-up, not this; the span is measured
 * only while no other stall is in force (a central side back after an outage drains a backlog that
 * grew while it was away).
 * The remote (TransferMonitor) judges it from its captured and acknowledged positions; the central
 * side, which knows only the frames it has read, from how late it applies (LateChanges).
 */
public final class FallingBehind {

    private record Sample(long at, long ahead, long done) {
        long backlog() {
            return Math.max(0, ahead - done);
        }
    }

    private final long afterMillis;
    private final Deque<Sample> samples = new ArrayDeque<>();
    private final HeldCause held;

    public FallingBehind(long afterMillis) {
        this.afterMillis = span(afterMillis);
        this.held = new HeldCause(afterMillis);
    }

    /** The span as set, refused unless above 0. */
    public static long span(long afterMillis) {
        if (afterMillis <= 0) {
            throw new IllegalArgumentException("oneway.notify.behind-after must be above 0 ms (it is " + afterMillis + ")");
        }
        return afterMillis;
    }

    /** Forgets the span: another stall is in force, which says why changes wait. */
    public void reset() {
        samples.clear();
        held.reset();
    }

    /**
     * @param ahead the highest position captured
     * @param done the highest position applied on the central database (acknowledged)
     * @param lagSeconds how long after their capture changes are applied now
     * @return why the transfer falls behind (its rates; the caller says where the pace is set), or null;
     *         held until it has not been found for half the span (HeldCause)
     */
    public String observe(long now, long ahead, long done, double lagSeconds) {
        Sample current = new Sample(now, ahead, done);
        samples.addLast(current);
        // the newest sample at least the span old is the one compared with; older ones go
        while (samples.size() > 1 && now - secondOldest().at() >= afterMillis) {
            samples.removeFirst();
        }
        return held.update(now, judge(current, lagSeconds), current.backlog() == 0);
    }

    private String judge(Sample current, double lagSeconds) {
        Sample then = samples.peekFirst();
        long span = current.at() - then.at();
        if (span < afterMillis || lagSeconds * 1000 < afterMillis || current.backlog() < then.backlog() || caughtUpWithin()) {
            return null;
        }
        double seconds = span / 1000.0;
        double appliedPerSecond = (current.done() - then.done()) / seconds;
        // at the rate the central side applies, the backlog is less than a span's work: the changes' age comes from before
        // the change log (a WAL reader behind the WAL, which LateChanges tells), not from the transfer
        if (appliedPerSecond > 0 && current.backlog() / appliedPerSecond * 1000 < afterMillis) {
            return null;
        }
        return String.format(Locale.ROOT, "changes are applied %.0f s after their capture and the backlog went from %d to %d changes in the last %.0f s: "
                + "the central database applied %.0f changes/s while %.0f/s were captured", lagSeconds, then.backlog(), current.backlog(), seconds,
                appliedPerSecond, (current.ahead() - then.ahead()) / seconds);
    }

    /** Nothing waited at some check of the span: the replication kept up then. */
    private boolean caughtUpWithin() {
        return samples.stream().anyMatch(sample -> sample.backlog() == 0);
    }

    private Sample secondOldest() {
        return samples.stream().skip(1).findFirst().orElseThrow();
    }
}
