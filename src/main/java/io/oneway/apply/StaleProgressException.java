package io.oneway.apply;

/** Another applier advanced the source meanwhile (two central replicators on one database): reload and go on from there. */
public final class StaleProgressException extends RuntimeException {

    private static final long serialVersionUID = 1L;
    private final long applied;
    private final long staged;

    public StaleProgressException(String source, long applied, long staged) {
        super("source " + source + " was advanced to " + Math.max(applied, staged) + " by another applier");
        this.applied = applied;
        this.staged = staged;
    }

    public long applied() {
        return applied;
    }

    public long staged() {
        return staged;
    }
}
