package io.oneway.wire;

import java.security.MessageDigest;
import java.util.Base64;

import io.oneway.support.Utf8;

/**
 * One piece of a change too large for one message (SPEC §4: chunk a change larger than a
 * message, as Oracle XStream chunks LOB columns). The row's text is cut into {@code count}
 * pieces sent as separate messages; the central side puts them back together in index order.
 * Every piece carries the change's other fields and the SHA-256 of the whole row, all covered by
 * its own integrity code, so pieces of two different reads of a row (a reference-mode resend)
 * are never mixed and a reassembled row is checked against the hash.
 *
 * @param change  the change without its row and code
 * @param index   0-based piece number
 * @param count   number of pieces
 * @param rowHash SHA-256 of the whole row text (UTF-8), Base64
 * @param piece   this piece of the row text
 * @param mac     HMAC-SHA256 of all the above with the source and incarnation, Base64
 */
public record ChangeChunk(ChangeRecord change, int index, int count, String rowHash, String piece, String mac) {

    /** The hash every piece of a row carries: SHA-256 of its UTF-8 text, Base64. */
    public static String rowHash(String row) {
        MessageDigest sha = Sha256.digest();
        Utf8.feed(row, sha::update);
        return Base64.getEncoder().encodeToString(sha.digest());
    }

    /** The same hash, of a row given as its UTF-8. */
    public static String rowHash(byte[] rowUtf8) {
        return Base64.getEncoder().encodeToString(Sha256.digest().digest(rowUtf8));
    }

    public ChangeChunk withMac(String newMac) {
        return new ChangeChunk(change, index, count, rowHash, piece, newMac);
    }
}
