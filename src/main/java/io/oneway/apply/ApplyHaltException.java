package io.oneway.apply;

import io.oneway.wire.ChangeRecord;

/**
 * A change that cannot be applied without operator action: the databases diverged (an update
 * or delete found no row, an insert found one), the table is not configured, or the central
 * database refused the change for good. The source halts at this change; others go on.
 */
public final class ApplyHaltException extends Exception {

    private static final long serialVersionUID = 1L;
    private final transient ChangeRecord change;

    public ApplyHaltException(ChangeRecord change, String reason) {
        super(reason);
        this.change = change;
    }

    public ChangeRecord change() {
        return change;
    }
}
