package io.oneway.support;

/**
 * One side's view of the link, for its monitor: whether the broker can be reached now, and how
 * long the other side has been silent, counted at the earliest from this replicator's start or
 * the broker's return (silence while nothing could arrive is no news). Used by one monitor thread.
 */
public final class LinkSilence {

    private final BrokerProbe broker;
    private final long startedAt = System.currentTimeMillis();
    private long brokerBackAt;
    private boolean brokerDown;

    public LinkSilence(BrokerProbe broker) {
        this.broker = broker;
    }

    /** Probes the broker: @return why it cannot be reached, or null */
    public String brokerProblem(long now) {
        String problem = broker.problem().orElse(null);
        if (brokerDown && problem == null) {
            brokerBackAt = now;
        }
        brokerDown = problem != null;
        return problem;
    }

    /** @param lastHeard when the other side was last heard from (epoch ms), 0 for never */
    public long silentFor(long now, long lastHeard) {
        return now - Math.max(Math.max(startedAt, brokerBackAt), lastHeard);
    }
}
