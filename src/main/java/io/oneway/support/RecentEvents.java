package io.oneway.support;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The moments of one kind of event and the last one's detail, for a monitor that asks how many
 * came since a moment (messages refused, resend requests answered): the newest {@code kept} only.
 */
public final class RecentEvents {

    /** Events since a moment: how many, the last one's time (epoch ms), and its detail. */
    public record Recent(int count, long lastMillis, String last) {
    }

    private final int kept;
    private final ArrayDeque<Long> times = new ArrayDeque<>();
    private String last;

    public RecentEvents(int kept) {
        this.kept = kept;
    }

    public synchronized void add(long millis, String detail) {
        times.addLast(millis);
        if (times.size() > kept) {
            times.removeFirst();
        }
        last = detail;
    }

    /** @return the events at or after {@code fromMillis}, or null when there were none */
    public synchronized Recent since(long fromMillis) {
        int count = 0;
        for (Iterator<Long> i = times.descendingIterator(); i.hasNext() && i.next() >= fromMillis;) {
            count++;
        }
        return count == 0 ? null : new Recent(count, times.peekLast(), last);
    }
}
