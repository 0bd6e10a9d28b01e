package io.oneway.wire;

import java.nio.charset.StandardCharsets;

import io.oneway.support.Utf8;

/**
 * The unambiguous byte form of a list of text fields that integrity codes and fingerprints are
 * computed over: per field a 0 byte, its UTF-8 length as a 4-byte big-endian integer and its
 * UTF-8 bytes, or a single 0xFF byte for null. No two different field lists share a form.
 * {@code sql/remote/08-digest.sql} writes the same form in SQL. The form is fed to the digest
 * as it is made, never held whole: a row of 40 MB took 140 MB more as one array.
 */
final class FieldEncoding {

    /** Fields up to this many characters are encoded at once (Java's encoder is the fastest); longer ones a window at a time. */
    private static final int WHOLE_CHARS = 1 << 16;

    private FieldEncoding() {
    }

    /** Feeds the form of these fields to a MessageDigest's or a Mac's update. */
    static void feed(Utf8.Sink sink, String... values) {
        byte[] head = new byte[5];
        for (String v : values) {
            if (v == null) {
                head[0] = (byte) 0xFF;
                sink.update(head, 0, 1);
            } else if (v.length() <= WHOLE_CHARS) {
                byte[] b = v.getBytes(StandardCharsets.UTF_8);
                sink.update(head(head, b.length), 0, 5);
                sink.update(b, 0, b.length);
            } else {
                sink.update(head(head, Utf8.length(v)), 0, 5);
                Utf8.feed(v, sink);
            }
        }
    }

    /** Feeds the form of one field given as its UTF-8 bytes. */
    static void feed(Utf8.Sink sink, byte[] utf8) {
        sink.update(head(new byte[5], utf8.length), 0, 5);
        sink.update(utf8, 0, utf8.length);
    }

    private static byte[] head(byte[] head, int length) {
        head[0] = 0;
        head[1] = (byte) (length >>> 24);
        head[2] = (byte) (length >>> 16);
        head[3] = (byte) (length >>> 8);
        head[4] = (byte) length;
        return head;
    }
}
