package io.oneway.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The runs WalBatch hands to WalRecording: items in order, each marked whether it ends its
 * transaction, the newest held back until the next item or the commit says so; a new row's
 * change-log fields in COPY's text form, read back here as COPY reads them (the decoding and
 * recording end to end are in the WAL ITs).
 */
class WalBatchTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] COLUMNS = {"id", "name"};
    private static final boolean[] KEY = {true, false};

    @Test
    void items_come_in_order_and_the_newest_waits_for_what_follows_it() throws Exception {
        WalBatch batch = new WalBatch();
        batch.addRow(7, "2026-12-01T00:00:00Z", "shop.customers", 'I', COLUMNS, row(1, "a"), KEY, row(1, "a"));
        assertEquals(0, batch.ready());
        assertTrue(batch.holdsBack());
        batch.addRow(7, "2026-12-01T00:00:00Z", "shop.customers", 'U', COLUMNS, row(2, "b"), KEY, row(2, "b \"quoted\"\n"));
        batch.addLogRow(7, 42);
        batch.endTransaction();
        batch.addRow(8, "2026-12-01T00:00:01Z", "shop.customers", 'D', COLUMNS, row(1, "a"), KEY, null);
        assertEquals(3, batch.ready());

        WalBatch.Run run = batch.takeReady();
        assertEquals(3, run.items());
        assertEquals(2, run.newRows());
        assertArrayEquals(new long[] {7, 7, 7}, Arrays.copyOf(run.xids(), 3));
        assertArrayEquals(new boolean[] {false, false, true}, Arrays.copyOf(run.ends(), 3));
        assertArrayEquals(new long[] {WalBatch.NEW_ROW, WalBatch.NEW_ROW, 42}, Arrays.copyOf(run.logIds(), 3));
        List<List<String>> rows = rows(run);
        assertEquals(List.of("shop.customers", "{\"id\":\"1\"}", "I", "W", "{\"id\":\"1\",\"name\":\"a\"}", "2026-12-01T00:00:00Z"), rows.get(0));
        assertEquals("b \"quoted\"\n", JSON.readTree(rows.get(1).get(4)).get("name").asText());
        assertEquals("U", rows.get(1).get(2));
        assertEquals(List.of(), rows.get(2), "a row its transaction logged itself has no fields");

        // taken: the batch keeps only the delete held back, which the commit then closes
        assertEquals(0, batch.ready());
        assertTrue(batch.holdsBack());
        batch.endTransaction();
        WalBatch.Run rest = batch.takeReady();
        assertEquals(1, rest.items());
        assertTrue(rest.ends()[0]);
        List<String> delete = rows(rest).get(0);
        assertEquals("D", delete.get(2));
        assertNull(delete.get(4), "a delete has no row image");
        assertEquals(0, batch.length());
    }

    @Test
    void a_wide_row_alone_comes_out_whole_and_leaves_the_batch_empty() throws Exception {
        WalBatch batch = new WalBatch();
        String wide = "é".repeat(3_000_000) + "😀\\";
        batch.addRow(9, "2026-12-01T00:00:00Z", "shop.customers", 'U', COLUMNS, row(11, "x"), KEY, row(11, wide));
        batch.endTransaction();
        assertEquals(1, batch.ready());
        WalBatch.Run run = batch.takeReady();
        JsonNode image = JSON.readTree(rows(run).get(0).get(4));
        assertEquals(wide, image.get("name").asText());
        assertEquals(image.toString(), rows(run).get(0).get(4), "the same JSON as Jackson's");
        assertEquals(0, batch.length());
        assertFalse(batch.holdsBack());
    }

    @Test
    void tabs_newlines_backslashes_quotes_and_controls_stay_inside_their_field_and_come_back_as_the_same_text() throws Exception {
        WalBatch batch = new WalBatch();
        String text = "tab\there \"q\" back\\slash \\N \u0001\u001f nl\n cr\r é 😀 end";
        String table = "shop.\"odd\ttable\\\"";
        TextValue[] both = {TextValue.of(text), TextValue.of(text)};
        batch.addRow(5, "2026-12-01T00:00:00Z", table, 'I', new String[] {"id", "we\"ird\tname"}, both, KEY, both);
        batch.endTransaction();
        WalBatch.Run run = batch.takeReady();
        String raw = new String(run.fields().array(), 0, run.fieldsEnd()[0], StandardCharsets.UTF_8);
        assertEquals(5, raw.chars().filter(c -> c == '\t').count(), "only the five separators are tabs: " + raw);
        assertTrue(raw.indexOf('\n') == raw.length() - 1 && raw.indexOf('\r') < 0, "the only newline ends the row: " + raw);
        List<String> fields = rows(run).get(0);
        assertEquals(table, fields.get(0));
        assertEquals(text, JSON.readTree(fields.get(1)).get("id").asText());
        assertEquals(text, JSON.readTree(fields.get(4)).get("we\"ird\tname").asText());
    }

    /**
     * The fields of each item's row as COPY's text form reads them (null for \N), decoded from the
     * bytes the run holds; an empty list for a row its transaction logged itself.
     */
    private static List<List<String>> rows(WalBatch.Run run) {
        List<List<String>> rows = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < run.items(); i++) {
            int end = run.fieldsEnd()[i];
            rows.add(run.logIds()[i] == WalBatch.NEW_ROW ? copyFields(run.fields().array(), start, end) : List.of());
            start = end;
        }
        return rows;
    }

    private static List<String> copyFields(byte[] b, int start, int end) {
        assertEquals('\n', b[end - 1], "a row ends with a newline");
        List<String> fields = new ArrayList<>();
        ByteArrayOutputStream field = new ByteArrayOutputStream();
        boolean nullField = false;
        for (int i = start; i < end; i++) {
            if (b[i] == '\t' || b[i] == '\n') {
                fields.add(nullField ? null : field.toString(StandardCharsets.UTF_8));
                field.reset();
                nullField = false;
            } else if (b[i] == '\\') {
                byte next = b[++i];
                switch (next) {
                    case 't' -> field.write('\t');
                    case 'n' -> field.write('\n');
                    case 'r' -> field.write('\r');
                    case 'N' -> nullField = true;
                    default -> field.write(next);
                }
            } else {
                field.write(b[i]);
            }
        }
        return fields;
    }

    private static TextValue[] row(int id, String name) {
        return new TextValue[] {TextValue.of(Integer.toString(id)), TextValue.of(name)};
    }
}
