package io.oneway.support;

/**
 * A slow-moving stall's cause, held steady: once found, it stays until it has not been found for
 * half its span, or at once when everything is applied. The rules it holds (FallingBehind,
 * LateChanges) compare one moment with another a span apart, and an apply run that commits many
 * changes at once moves either side of that comparison by a step; without the hold the stall
 * would be told and recovered at every step.
 */
public final class HeldCause {

    private final long clearAfterMillis;
    private String cause;
    private long foundAt;
    private long clearSince = -1;

    public HeldCause(long spanMillis) {
        this.clearAfterMillis = spanMillis / 2;
    }

    /**
     * @param found the cause this check found, or null
     * @param caughtUp whether nothing waits at all
     * @return the cause in force; one held says how old its figures are
     */
    public String update(long now, String found, boolean caughtUp) {
        if (found != null) {
            cause = found;
            foundAt = now;
            clearSince = -1;
            return cause;
        }
        if (caughtUp) {
            cause = null;
        } else if (cause != null) {
            clearSince = clearSince < 0 ? now : clearSince;
            if (now - clearSince >= clearAfterMillis) {
                cause = null;
            }
        }
        return cause == null ? null : cause + " (as found " + (now - foundAt) / 1000 + " s ago, held until not found for half the span)";
    }

    public void reset() {
        cause = null;
        clearSince = -1;
    }
}
