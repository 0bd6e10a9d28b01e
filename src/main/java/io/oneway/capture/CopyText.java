package io.oneway.capture;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Rows in the text format of COPY, as UTF-8 bytes, with JSON objects as fields: values copied from
 * the bytes they came in, strings quoted and escaped as RFC 8259 wants, and every backslash the
 * JSON has written twice (COPY's own escape). A JSON text has no other byte COPY treats specially:
 * tabs, newlines and the other controls are escaped inside its strings. Escaping works on bytes
 * because every byte it changes ('"', '\' and the controls) is ASCII, and ASCII never occurs
 * inside a multi-byte UTF-8 sequence.
 */
final class CopyText {

    private static final int INITIAL_CAPACITY = 8192;
    /** A buffer that grew past this many bytes (a wide row) is let go when emptied, not kept at its size. */
    private static final int KEPT_CAPACITY = 1 << 20;
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private byte[] buffer = new byte[INITIAL_CAPACITY];
    private int length;

    byte[] array() {
        return buffer;
    }

    int length() {
        return length;
    }

    /** Makes room for this many more bytes at once: a wide row is then copied once, into an array of its size. */
    void room(long more) {
        long needed = length + more;
        if (needed > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("a batch of " + needed + " bytes of JSON, over 2 GB");
        }
        if (needed > buffer.length) {
            buffer = Arrays.copyOf(buffer, (int) Math.max(needed, Math.min(Integer.MAX_VALUE - 16, 2L * buffer.length)));
        }
    }

    /** Empties it, letting a grown array go. */
    void clear() {
        length = 0;
        if (buffer.length > KEPT_CAPACITY) {
            buffer = new byte[INITIAL_CAPACITY];
        }
    }

    void set(int index, char c) {
        buffer[index] = (byte) c;
    }

    /** Appends text known to be ASCII (punctuation, numbers, times) as it is. */
    CopyText ascii(String s) {
        room(s.length());
        for (int i = 0; i < s.length(); i++) {
            buffer[length++] = (byte) s.charAt(i);
        }
        return this;
    }

    CopyText ascii(char c) {
        room(1);
        buffer[length++] = (byte) c;
        return this;
    }

    CopyText append(CopyText other) {
        room(other.length);
        System.arraycopy(other.buffer, 0, buffer, length, other.length);
        length += other.length;
        return this;
    }

    CopyText string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return string(b, 0, b.length);
    }

    /** Appends a JSON string of these UTF-8 bytes, copying runs that need no escape at once. */
    CopyText string(byte[] b, int offset, int count) {
        room(stringLength(b, offset, count));
        buffer[length++] = '"';
        int run = offset;
        int end = offset + count;
        for (int i = offset; i < end; i++) {
            int x = b[i] & 0xFF;
            if (x >= 0x20 && x != '"' && x != '\\') {
                continue;
            }
            System.arraycopy(b, run, buffer, length, i - run);
            length += i - run;
            run = i + 1;
            buffer[length++] = '\\';
            buffer[length++] = '\\';
            switch (x) {
                case '"' -> buffer[length++] = '"';
                case '\\' -> {
                    buffer[length++] = '\\';
                    buffer[length++] = '\\';
                }
                case '\n' -> buffer[length++] = 'n';
                case '\r' -> buffer[length++] = 'r';
                case '\t' -> buffer[length++] = 't';
                default -> {
                    buffer[length++] = 'u';
                    buffer[length++] = '0';
                    buffer[length++] = '0';
                    buffer[length++] = HEX[x >> 4];
                    buffer[length++] = HEX[x & 0xf];
                }
            }
        }
        System.arraycopy(b, run, buffer, length, end - run);
        length += end - run;
        buffer[length++] = '"';
        return this;
    }

    /** The exact bytes {@link #string(byte[], int, int)} appends. */
    static long stringLength(byte[] b, int offset, int count) {
        long n = 2L + count;
        for (int i = offset, end = offset + count; i < end; i++) {
            int x = b[i] & 0xFF;
            if (x == '\\') {
                n += 3;
            } else if (x == '"' || x == '\n' || x == '\r' || x == '\t') {
                n += 2;
            } else if (x < 0x20) {
                n += 6;
            }
        }
        return n;
    }

    private void escaped(char c) {
        buffer[length++] = '\\';
        buffer[length++] = (byte) c;
    }

    /** Appends a text field (not JSON) with COPY's escapes: backslash, tab, newline, carriage return. */
    CopyText field(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        room(2L * b.length);
        for (byte x : b) {
            switch (x) {
                case '\\' -> escaped('\\');
                case '\t' -> escaped('t');
                case '\n' -> escaped('n');
                case '\r' -> escaped('r');
                default -> buffer[length++] = x;
            }
        }
        return this;
    }

    /** Appends a JSON object of the named columns' values (SQL NULL as null); columns not wanted, or unchanged and not sent, are left out. */
    CopyText object(String[] names, TextValue[] values, boolean[] wanted) {
        ascii('{');
        boolean first = true;
        for (int i = 0; i < names.length; i++) {
            if ((wanted != null && !wanted[i]) || values[i] == PgOutputDecoder.UNCHANGED) {
                continue;
            }
            if (!first) {
                ascii(',');
            }
            first = false;
            string(names[i]).ascii(':');
            if (values[i] == null) {
                ascii("null");
            } else {
                string(values[i].bytes(), values[i].offset(), values[i].length());
            }
        }
        return ascii('}');
    }

    /** At least the bytes {@link #object} appends (exact for the values), to make room for it once. */
    static long objectLength(String[] names, TextValue[] values) {
        long n = 2;
        for (int i = 0; i < names.length; i++) {
            // a name's UTF-8, escaped, takes at most 7 bytes per character (a control as \\u00XX)
            n += 7L * names[i].length() + 4 + (values[i] == null ? 4 : stringLength(values[i].bytes(), values[i].offset(), values[i].length()));
        }
        return n;
    }
}
