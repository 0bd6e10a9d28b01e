package io.oneway.send;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import io.oneway.wire.Fingerprint;

/**
 * The fingerprints of the changes sent for the first time and not yet acknowledged, computed
 * from the very rows that were sent, so checking an ack's digest costs a hash per change instead
 * of reading the range back from the change log (that read was the remote's largest database
 * wait in the benchmark: a quarter of a second per ack). Held for consecutive positions only and
 * up to a bound; what is not held (after a restart, or beyond the bound while a large transaction
 * is staged) is read from the log as before, so the check is the same either way.
 */
public final class SentFingerprints {

    private final int capacity;
    private final ArrayDeque<byte[]> held = new ArrayDeque<>();
    /** the position of the first fingerprint held */
    private long first;

    /** @param capacity most fingerprints held (each 32 bytes) */
    public SentFingerprints(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        this.capacity = capacity;
    }

    /** Changes about to be sent for the first time, in position order; returns them {@link OutgoingChange#fingerprinted() fingerprinted}. */
    public synchronized List<OutgoingChange> remember(List<OutgoingChange> changes) {
        List<OutgoingChange> out = new ArrayList<>(changes.size());
        for (OutgoingChange read : changes) {
            OutgoingChange c = read.fingerprinted();
            out.add(c);
            long position = c.change().position();
            if (held.isEmpty() || position != first + held.size()) {
                held.clear();
                first = position;
            }
            held.addLast(c.fingerprint());
            if (held.size() > capacity) {
                held.removeFirst();
                first++;
            }
        }
        return out;
    }

    /** The first position whose fingerprint is held, or {@code Long.MAX_VALUE} when none is. */
    public synchronized long firstHeld() {
        return held.isEmpty() ? Long.MAX_VALUE : first;
    }

    /** The last position whose fingerprint is held, or {@code Long.MIN_VALUE} when none is. */
    public synchronized long lastHeld() {
        return held.isEmpty() ? Long.MIN_VALUE : first + held.size() - 1;
    }

    /**
     * The running digest from {@code digest} (at {@code from - 1}) through {@code upto}, with the
     * fingerprints held; the caller makes sure both ends are held.
     */
    public synchronized byte[] chain(byte[] digest, long from, long upto) {
        if (from < first || upto > first + held.size() - 1) {
            throw new IllegalArgumentException("fingerprints of " + from + ".." + upto + " are not all held");
        }
        byte[] d = digest;
        long p = first;
        for (byte[] f : held) {
            if (p > upto) {
                break;
            }
            if (p >= from) {
                d = Fingerprint.chain(d, f);
            }
            p++;
        }
        return d;
    }

    /** Positions at or below it were acknowledged: their fingerprints are no longer needed. */
    public synchronized void acknowledged(long position) {
        while (!held.isEmpty() && first <= position) {
            held.removeFirst();
            first++;
        }
    }
}
