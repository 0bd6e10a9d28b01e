package io.oneway.wire;

import java.security.MessageDigest;
import java.util.Base64;

/**
 * What the end-to-end digest is made of (SPEC §4): a change's fingerprint is the SHA-256 of its
 * fields (position, transaction, end mark, table, operation, mode, key, row, logged time) in
 * {@link FieldEncoding}; a reference-mode change leaves its row out, since a resend reads the row
 * anew. The running digest at position p is SHA-256(digest at p-1 ‖ fingerprint of p), starting
 * from 32 zero bytes. Both sides compute it: the central database over what it applied, the
 * remote over what it logged; the remote database computes the same fingerprints in SQL
 * ({@code oneway.change_fingerprints}). Keyless: a change substituted by someone who holds the
 * HMAC key still changes the digest. A change's integrity code is made over its fingerprint
 * ({@link MessageSigner}), so each side hashes a change's fields once for both.
 */
public final class Fingerprint {

    /** The running digest before position 1. */
    public static final byte[] START = new byte[32];

    private Fingerprint() {
    }

    /** The change's fingerprint: the one it carries ({@link ChangeRecord#fingerprinted()}), else computed now. */
    public static byte[] of(ChangeRecord c) {
        return c.fingerprint() != null ? c.fingerprint() : compute(c);
    }

    static byte[] compute(ChangeRecord c) {
        return of(c, null);
    }

    /** The fingerprint of a change whose row, when rowUtf8 is not null, is these UTF-8 bytes and not in c (a wide row). */
    public static byte[] of(ChangeRecord c, byte[] rowUtf8) {
        MessageDigest sha = Sha256.digest();
        String position = Long.toString(c.position());
        String txid = Long.toString(c.txid());
        String txEnd = Boolean.toString(c.txEnd());
        String reference = Boolean.toString(c.reference());
        if (rowUtf8 != null && !c.reference()) {
            FieldEncoding.feed(sha::update, position, txid, txEnd, c.table(), c.op(), reference, c.key());
            FieldEncoding.feed(sha::update, rowUtf8);
            FieldEncoding.feed(sha::update, c.loggedAt());
        } else {
            FieldEncoding.feed(sha::update, position, txid, txEnd, c.table(), c.op(), reference, c.key(),
                    c.reference() ? null : c.row(), c.loggedAt());
        }
        return sha.digest();
    }

    /** The running digest after a change with this fingerprint. */
    public static byte[] chain(byte[] digest, byte[] fingerprint) {
        MessageDigest sha = Sha256.digest();
        sha.update(digest);
        return sha.digest(fingerprint);
    }

    public static String text(byte[] digest) {
        return Base64.getEncoder().encodeToString(digest);
    }

    /** @throws IllegalArgumentException when the text is not Base64 */
    public static byte[] bytes(String text) {
        return Base64.getDecoder().decode(text);
    }
}
