package io.oneway.apply;

/** Another applier advanced the source meanwhile (two central replicators on one database): reload and go on from there. */
public final class StaleProgressException extends RuntimeException {

    private static final long serialVersionUID = 1L;
    private final long applied;

    public StaleProgressException(String source, long applied) {
        super("source " + source + " was advanced to " + applied + " by another applier");
        this.applied = applied;
    }

    public long applied() {
        return applied;
    }
}
