package io.oneway.capture;

import java.nio.charset.StandardCharsets;

/**
 * A column value's text form as pgoutput sent it: UTF-8 bytes inside the message they came in,
 * never decoded into characters. The reader copies them into its batch as they are (escaped for
 * JSON), so a wide row is held as its message and its batch only: decoding a value of 40 MB into
 * characters took 100 MB more and ran a 256 MB remote out of memory.
 */
record TextValue(byte[] bytes, int offset, int length) {

    static TextValue of(String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return new TextValue(b, 0, b.length);
    }

    @Override
    public String toString() {
        return new String(bytes, offset, length, StandardCharsets.UTF_8);
    }
}
