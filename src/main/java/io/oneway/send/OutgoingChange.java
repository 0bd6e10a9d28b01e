package io.oneway.send;

import io.oneway.wire.ChangeRecord;

/**
 * A change read for sending: the unsigned change and the size of its key and row text in
 * bytes, as the remote database measured it (a change over oneway.wire.max-change-bytes comes
 * without its row).
 */
public record OutgoingChange(ChangeRecord change, long bytes) {
}
