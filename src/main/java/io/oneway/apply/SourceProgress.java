package io.oneway.apply;

/** A source's durable state on the central database. */
public record SourceProgress(long appliedPosition, String incarnation, boolean halted, String haltReason) {
}
