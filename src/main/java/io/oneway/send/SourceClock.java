package io.oneway.send;

/**
 * The remote database's clock, as this JVM can read it at any moment: changes' times are that
 * database's, so heartbeats say when they were made by the same clock, and the central side,
 * comparing with its own, learns how far apart the two are (a branch's clock minutes off would
 * otherwise make every change look minutes late there, or early). Kept as the difference from
 * this JVM's clock, read by the transfer monitor at each check.
 */
public final class SourceClock {

    private long offsetMillis;
    private boolean known;

    /**
     * The database said {@code databaseMillis} between {@code before} and {@code after} by this JVM's clock.
     */
    public synchronized void read(long databaseMillis, long before, long after) {
        offsetMillis = databaseMillis - (before + (after - before) / 2);
        known = true;
    }

    /** Now by the database's clock (epoch ms), or 0 before it was first read. */
    public synchronized long now() {
        return known ? System.currentTimeMillis() + offsetMillis : 0;
    }
}
