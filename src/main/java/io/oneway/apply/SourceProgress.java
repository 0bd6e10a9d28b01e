package io.oneway.apply;

/**
 * A source's durable state on the central database.
 *
 * @param appliedPosition everything at or below it is applied
 * @param digest          the running digest at {@code appliedPosition}
 * @param stagedPosition  the last position staged (a large transaction in progress when above {@code appliedPosition})
 */
public record SourceProgress(long appliedPosition, String incarnation, boolean halted, String haltReason, byte[] digest,
        long stagedPosition) {

    /** Everything at or below this position is held durably: applied or staged. */
    public long received() {
        return Math.max(appliedPosition, stagedPosition);
    }
}
