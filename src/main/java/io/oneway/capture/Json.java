package io.oneway.capture;

/** JSON text made by hand where it is the hot path: strings quoted and escaped as RFC 8259 wants. */
final class Json {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Json() {
    }

    static void string(StringBuilder out, CharSequence s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** Appends a JSON object of the named columns' values (text, or null for SQL NULL); columns left out are skipped. */
    static void object(StringBuilder out, String[] names, CharSequence[] values, boolean[] wanted) {
        out.append('{');
        boolean first = true;
        for (int i = 0; i < names.length; i++) {
            if ((wanted != null && !wanted[i]) || values[i] == PgOutputDecoder.UNCHANGED) {
                continue;
            }
            if (!first) {
                out.append(',');
            }
            first = false;
            string(out, names[i]);
            out.append(':');
            if (values[i] == null) {
                out.append("null");
            } else {
                string(out, values[i]);
            }
        }
        out.append('}');
    }

    /** About the characters {@link #object} appends (exact unless values need escaping), to size a buffer once. */
    static long objectLength(String[] names, CharSequence[] values) {
        long n = 2;
        for (int i = 0; i < names.length; i++) {
            n += names[i].length() + 6 + (values[i] == null ? 4 : values[i].length());
        }
        return n;
    }
}
