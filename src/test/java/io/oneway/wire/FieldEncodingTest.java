package io.oneway.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The form fed to a digest is the definition's, byte for byte, whatever the fields' sizes: small
 * fields gathered in a buffer sized to them (at most 8 kB), fields that pass its end, that are larger than it, and
 * that are encoded a window at a time; and small fields go in one update.
 */
class FieldEncodingTest {

    /** The form as the definition states it, built whole. */
    private static byte[] definition(String... values) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String v : values) {
            if (v == null) {
                out.write(0xFF);
            } else {
                byte[] b = v.getBytes(StandardCharsets.UTF_8);
                out.write(0);
                out.writeBytes(ByteBuffer.allocate(4).putInt(b.length).array());
                out.writeBytes(b);
            }
        }
        return out.toByteArray();
    }

    private static List<byte[]> fed(String... values) {
        List<byte[]> updates = new ArrayList<>();
        FieldEncoding.feed((bytes, offset, length) -> updates.add(java.util.Arrays.copyOfRange(bytes, offset, offset + length)), values);
        return updates;
    }

    private static byte[] joined(List<byte[]> updates) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        updates.forEach(out::writeBytes);
        return out.toByteArray();
    }

    @Test
    void fields_of_every_size_feed_the_definitions_bytes() {
        String accented = "é€𝄞".repeat(1000); // 2, 3 and 4 bytes a character: 9,000 bytes
        String[][] cases = {
            {},
            {null},
            {""},
            {"", null},
            {"", null, "change", "branch1", "42", "true", "public.orders", "U", "{\"id\": 1}", "2026-12-02 21:40:00+00"},
            {"x".repeat(8187)}, // head and bytes fill the buffer exactly
            {"x".repeat(8186), "y"}, // the next head starts at the buffer's last byte
            {"a", "x".repeat(9000), "b"}, // larger than the buffer
            {"a", accented, null, accented},
            {"k", "w".repeat(70_000), "é".repeat(70_000), "𝄞".repeat(40_000), "end"}, // over the whole-encoding limit
        };
        for (String[] fields : cases) {
            assertArrayEquals(definition(fields), joined(fed(fields)), () -> "fields of " + fields.length);
        }
    }

    @Test
    void a_changes_small_fields_go_in_one_update() {
        assertEquals(1, fed("change", "branch1", "inc-1", "42", "7", "true", "public.orders", "U", "false", "{\"id\":1}",
                "{\"id\":1,\"amount\":\"10.00\"}", "2026-12-02 21:40:00+00").size());
    }

    @Test
    void one_field_given_as_bytes_reads_as_its_text() {
        String text = "é€𝄞 row";
        List<byte[]> updates = new ArrayList<>();
        FieldEncoding.feed((bytes, offset, length) -> updates.add(java.util.Arrays.copyOfRange(bytes, offset, offset + length)),
                text.getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(definition(text), joined(updates));
    }
}
