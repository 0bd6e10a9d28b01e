package io.oneway.send;

import java.nio.charset.StandardCharsets;

import io.oneway.wire.ChangeRecord;
import io.oneway.wire.Fingerprint;

/**
 * A change read for sending: the unsigned change and the size of its key and row text in
 * bytes, as the remote database measured it (a change over oneway.wire.max-change-bytes comes
 * without its row). A wide row ({@link ChangeRows#WIDE_BYTES}) comes as the UTF-8 bytes the
 * database sent, in wideRow, and not in the change: it goes in pieces cut from those bytes, and
 * is never held as characters (a row of 40 MB took 160 MB as the driver's String).
 */
public record OutgoingChange(ChangeRecord change, long bytes, byte[] wideRow) {

    public OutgoingChange(ChangeRecord change, long bytes) {
        this(change, bytes, null);
    }

    /** Whether it carries a row (a delete does not, nor a reference-mode change whose row is gone). */
    public boolean hasRow() {
        return wideRow != null || change.row() != null;
    }

    /** Its row's UTF-8. */
    public byte[] rowUtf8() {
        return wideRow != null ? wideRow : change.row().getBytes(StandardCharsets.UTF_8);
    }

    /** The change with its row in it: a wide row decoded (when it fits in a frame all the same: a large oneway.send.frame-bytes). */
    public ChangeRecord whole() {
        if (wideRow == null) {
            return change;
        }
        ChangeRecord c = change;
        return new ChangeRecord(c.position(), c.txid(), c.txEnd(), c.table(), c.op(), c.reference(), c.key(),
                new String(wideRow, StandardCharsets.UTF_8), c.loggedAt(), c.mac());
    }

    /** Its fingerprint for the end-to-end digest, from its row wherever it is held. */
    public byte[] fingerprint() {
        return wideRow != null ? Fingerprint.of(change, wideRow) : Fingerprint.of(change);
    }

    /** The same, its change carrying its fingerprint, which its integrity code is then made over without hashing it again. */
    public OutgoingChange fingerprinted() {
        return wideRow != null ? this : new OutgoingChange(change.fingerprinted(), bytes, null);
    }
}
