package io.oneway.wire;

import java.nio.charset.StandardCharsets;

import io.oneway.support.Utf8;

/**
 * The unambiguous byte form of a list of text fields that integrity codes and fingerprints are
 * computed over: per field a 0 byte, its UTF-8 length as a 4-byte big-endian integer and its
 * UTF-8 bytes, or a single 0xFF byte for null. No two different field lists share a form.
 * {@code sql/remote/08-digest.sql} writes the same form in SQL. The form is fed to the digest
 * as it is made, never held whole: a row of 40 MB took 140 MB more as one array. Small fields
 * are gathered in a buffer and fed in one update: a digest's update costs about as much per
 * call as per block, and a change has a dozen fields of a few bytes. The buffer is sized to the
 * fields and made per call: a buffer of the thread's cost a thread-local lookup per call, which
 * in the remote replicator's sending thread (a map crowded by the libraries' thread-locals) was
 * a tenth of its CPU.
 */
final class FieldEncoding {

    /** Fields up to this many characters are encoded at once (Java's encoder is the fastest); longer ones a window at a time. */
    private static final int WHOLE_CHARS = 1 << 16;
    private static final int BUFFER_BYTES = 8192;

    private FieldEncoding() {
    }

    /** Feeds the form of these fields to a MessageDigest's or a Mac's update. */
    static void feed(Utf8.Sink sink, String... values) {
        byte[] buffer = new byte[bufferBytes(values)];
        int at = 0;
        for (String v : values) {
            if (at + 5 > buffer.length) {
                sink.update(buffer, 0, at);
                at = 0;
            }
            if (v == null) {
                buffer[at++] = (byte) 0xFF;
            } else if (v.length() <= WHOLE_CHARS) {
                byte[] b = v.getBytes(StandardCharsets.UTF_8);
                at = head(buffer, at, b.length);
                if (at + b.length <= buffer.length) {
                    System.arraycopy(b, 0, buffer, at, b.length);
                    at += b.length;
                } else {
                    sink.update(buffer, 0, at);
                    sink.update(b, 0, b.length);
                    at = 0;
                }
            } else {
                at = head(buffer, at, Utf8.length(v));
                sink.update(buffer, 0, at);
                at = 0;
                Utf8.feed(v, sink);
            }
        }
        if (at > 0) {
            sink.update(buffer, 0, at);
        }
    }

    /** Room for the fields' heads and for the UTF-8 of the short ones (at most 3 bytes a character), at most BUFFER_BYTES. */
    private static int bufferBytes(String... values) {
        long n = 0;
        for (String v : values) {
            n += v == null ? 1 : 5 + (v.length() <= WHOLE_CHARS ? 3L * v.length() : 0);
        }
        return (int) Math.min(n, BUFFER_BYTES);
    }

    /** Feeds the form of one field given as its UTF-8 bytes. */
    static void feed(Utf8.Sink sink, byte[] utf8) {
        byte[] head = new byte[5];
        sink.update(head, 0, head(head, 0, utf8.length));
        sink.update(utf8, 0, utf8.length);
    }

    /** Writes a field's head at {@code at}; returns where its bytes go. */
    private static int head(byte[] out, int at, int length) {
        out[at] = 0;
        out[at + 1] = (byte) (length >>> 24);
        out[at + 2] = (byte) (length >>> 16);
        out[at + 3] = (byte) (length >>> 8);
        out[at + 4] = (byte) length;
        return at + 5;
    }
}
