package io.oneway.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The unambiguous byte form of a list of text fields that integrity codes and fingerprints are
 * computed over: per field a 0 byte, its UTF-8 length as a 4-byte big-endian integer and its
 * UTF-8 bytes, or a single 0xFF byte for null. No two different field lists share a form.
 * {@code sql/remote/08-digest.sql} writes the same form in SQL.
 */
final class FieldEncoding {

    private FieldEncoding() {
    }

    static byte[] of(String... values) {
        byte[][] encoded = new byte[values.length][];
        int size = 0;
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                encoded[i] = values[i].getBytes(StandardCharsets.UTF_8);
                size += 5 + encoded[i].length;
            } else {
                size += 1;
            }
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        for (byte[] b : encoded) {
            if (b == null) {
                out.put((byte) 0xFF);
            } else {
                out.put((byte) 0).putInt(b.length).put(b);
            }
        }
        return out.array();
    }
}
