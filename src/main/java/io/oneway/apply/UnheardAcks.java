package io.oneway.apply;

import java.util.ArrayDeque;

import io.oneway.wire.WindowNote;

/**
 * Whether a source hears this side's acks. When acks are lost on the way back (the replies queue, a link or broker that drops
 * them, a remote that refuses them) while its frames and heartbeats arrive, this side has applied everything it received and
 * sees nothing wrong, while the source's window is full and it sends nothing new. The source's heartbeats tell it, when its
 * window is full, what it holds as received: a heartbeat made a while after this side first acked more than that, by the
 * source's clock read on this side's, shows the acks do not reach it. A heartbeat's making time and not its arrival: heartbeats
 * queued behind a backlog, or held by a link down both ways, carry what the source held back then. The source's clock is read
 * with the least difference between a heartbeat's arrival and its making seen, of every heartbeat and of those
 * {@link ClockOffset} takes (made while the source held nothing back): each difference is the offset plus that heartbeat's
 * trip, so the least is the closest to the offset, and a time read with it is never later than the making. The least of those
 * ClockOffset takes alone was 15 s too high after a start while the link came up (heartbeats of an idle source queued for it,
 * then a catch-up's only), which read fresh heartbeats as made 15 s later. Nothing is said while ClockOffset knows nothing (a
 * source heard only while it held changes back: all its heartbeats may have queued behind its frames).
 */
final class UnheardAcks {

    /** Acks whose received moved (first sent); the oldest go, so an older one reads as sent later: nothing told too soon. */
    private static final int KEPT = 64;

    /** {received, first sent at (epoch ms)}, oldest first */
    private final ArrayDeque<long[]> acks = new ArrayDeque<>();
    private ReceiverStatus.Unheard unheard;
    /** The least difference between a heartbeat's arrival (this side's clock) and its making (the source's) seen. */
    private long leastDifference = Long.MAX_VALUE;

    /** An ack saying {@code received} went out at {@code atMillis}. */
    synchronized void sent(long received, long atMillis) {
        long[] last = acks.peekLast();
        if (last != null && last[0] >= received) {
            return;
        }
        acks.addLast(new long[] {received, atMillis});
        if (acks.size() > KEPT) {
            acks.removeFirst();
        }
    }

    /**
     * A heartbeat made at {@code madeAtMillis} by the source's clock (0: not said) arrived at {@code nowMillis} with {@code note},
     * this side holding {@code received}.
     */
    synchronized void heard(WindowNote note, long received, long madeAtMillis, ClockOffset clock, long nowMillis) {
        if (madeAtMillis > 0) {
            leastDifference = Math.min(leastDifference, nowMillis - madeAtMillis);
        }
        long offset = Math.min(leastDifference, clock.least());
        long ackedAt = note.full() && note.senderReceived() < received && madeAtMillis > 0 && clock.least() != Long.MAX_VALUE
                ? firstBeyond(note.senderReceived()) : 0;
        unheard = ackedAt == 0 ? null : new ReceiverStatus.Unheard(note.senderReceived(), ackedAt, madeAtMillis + offset, nowMillis);
    }

    /** What the last heartbeat said the source did not hear, or null. */
    synchronized ReceiverStatus.Unheard unheard() {
        return unheard;
    }

    /** The durable progress was read again (a resume, a reset, another incarnation): what was acked before says nothing now. */
    synchronized void forget() {
        acks.clear();
        unheard = null;
        leastDifference = Long.MAX_VALUE;
    }

    /** When an ack first said more than {@code position} (epoch ms), 0 when none did. */
    private long firstBeyond(long position) {
        for (long[] ack : acks) {
            if (ack[0] > position) {
                return ack[1];
            }
        }
        return 0;
    }
}
