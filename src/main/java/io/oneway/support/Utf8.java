package io.oneway.support;

/**
 * UTF-8 of text without a copy of it whole: its length, or its bytes a window at a time into a
 * digest. A row of tens of MB is then held as its text only, where String.getBytes would add a
 * buffer of three bytes per character and a copy.
 * A lone surrogate (never in PostgreSQL text) is written as '?', as Java's own encoder does.
 */
public final class Utf8 {

    /** Where bytes go a window at a time: a MessageDigest's or a Mac's update. */
    @FunctionalInterface
    public interface Sink {
        void update(byte[] bytes, int offset, int length);
    }

    private static final int WINDOW_CHARS = 8192;

    private Utf8() {
    }

    /** How many bytes these characters take in UTF-8. */
    public static int length(CharSequence s) {
        long n = 0;
        for (int i = 0, len = s.length(); i < len; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (pairAt(s, i, len)) {
                n += 4;
                i++;
            } else {
                n += Character.isSurrogate(c) ? 1 : 3;
            }
        }
        if (n > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("text of " + n + " bytes in UTF-8, over 2 GB");
        }
        return (int) n;
    }

    /** Feeds the characters' UTF-8 to the sink a window at a time. */
    public static void feed(CharSequence s, Sink sink) {
        byte[] window = new byte[WINDOW_CHARS * 3 + 4];
        int len = s.length();
        for (int i = 0; i < len;) {
            int end = Math.min(len, i + WINDOW_CHARS);
            if (end < len && Character.isHighSurrogate(s.charAt(end - 1))) {
                end++; // a pair stays whole
            }
            sink.update(window, 0, encode(s, i, end, window, 0));
            i = end;
        }
    }

    private static int encode(CharSequence s, int from, int to, byte[] out, int at) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                out[at++] = (byte) c;
            } else if (c < 0x800) {
                out[at++] = (byte) (0xC0 | c >> 6);
                out[at++] = (byte) (0x80 | c & 0x3F);
            } else if (pairAt(s, i, to)) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                out[at++] = (byte) (0xF0 | cp >> 18);
                out[at++] = (byte) (0x80 | cp >> 12 & 0x3F);
                out[at++] = (byte) (0x80 | cp >> 6 & 0x3F);
                out[at++] = (byte) (0x80 | cp & 0x3F);
            } else if (Character.isSurrogate(c)) {
                out[at++] = '?';
            } else {
                out[at++] = (byte) (0xE0 | c >> 12);
                out[at++] = (byte) (0x80 | c >> 6 & 0x3F);
                out[at++] = (byte) (0x80 | c & 0x3F);
            }
        }
        return at;
    }

    private static boolean pairAt(CharSequence s, int i, int end) {
        return Character.isHighSurrogate(s.charAt(i)) && i + 1 < end && Character.isLowSurrogate(s.charAt(i + 1));
    }
}
