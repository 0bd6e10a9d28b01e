package io.oneway.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The JSON WalBatch hands to oneway.record_wal_changes: items in order, each marked whether it
 * ends its transaction, the newest held back until the next item or the commit says so (the
 * decoding and recording end to end are in the WAL ITs).
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
        batch.addLogRow(7, "2026-12-01T00:00:00Z", 42);
        batch.endTransaction();
        batch.addRow(8, "2026-12-01T00:00:01Z", "shop.customers", 'D', COLUMNS, row(1, "a"), KEY, null);
        assertEquals(3, batch.ready());

        JsonNode items = read(batch.takeReady());
        assertEquals(3, items.size());
        assertEquals("{\"x\":7,\"a\":\"2026-12-01T00:00:00Z\",\"t\":\"shop.customers\",\"o\":\"I\",\"k\":{\"id\":\"1\"},\"r\":{\"id\":\"1\",\"name\":\"a\"},\"e\":false}",
                items.get(0).toString());
        assertEquals("b \"quoted\"\n", items.get(1).get("r").get("name").asText());
        assertFalse(items.get(1).get("e").asBoolean());
        assertEquals(42, items.get(2).get("l").asLong());
        assertTrue(items.get(2).get("e").asBoolean());

        // taken: the batch keeps only the delete held back, which the commit then closes
        assertEquals(0, batch.ready());
        assertTrue(batch.holdsBack());
        batch.endTransaction();
        JsonNode rest = read(batch.takeReady());
        assertEquals(1, rest.size());
        assertEquals("D", rest.get(0).get("o").asText());
        assertTrue(rest.get(0).get("r") == null && rest.get(0).get("e").asBoolean());
        assertEquals(0, batch.length());
    }

    @Test
    void a_wide_row_alone_comes_out_whole_and_leaves_the_batch_empty() throws Exception {
        WalBatch batch = new WalBatch();
        String wide = "é".repeat(3_000_000) + "😀";
        batch.addRow(9, "2026-12-01T00:00:00Z", "shop.customers", 'U', COLUMNS, row(11, "x"), KEY, row(11, wide));
        batch.endTransaction();
        assertEquals(1, batch.ready());
        JsonBytes json = batch.takeReady();
        JsonNode items = read(json);
        assertEquals(wide, items.get(0).get("r").get("name").asText());
        assertArrayEquals(items.toString().getBytes(StandardCharsets.UTF_8), Arrays.copyOf(json.array(), json.length()),
                "the same bytes as Jackson's JSON in UTF-8");
        assertEquals(0, batch.length());
        assertFalse(batch.holdsBack());
    }

    @Test
    void control_characters_quotes_and_four_byte_characters_come_out_as_json_strings_of_the_same_text() throws Exception {
        WalBatch batch = new WalBatch();
        String text = "tab\there \"q\" back\\slash \u0001\u001f nl\n cr\r é 😀 end";
        batch.addRow(5, "2026-12-01T00:00:00Z", "shop.\"odd\"", 'I', COLUMNS, row(1, text), KEY, row(1, text));
        batch.endTransaction();
        JsonNode item = read(batch.takeReady()).get(0);
        assertEquals(text, item.get("r").get("name").asText());
        assertEquals("shop.\"odd\"", item.get("t").asText());
    }

    private static JsonNode read(JsonBytes json) throws Exception {
        return JSON.readTree(json.array(), 0, json.length());
    }

    private static TextValue[] row(int id, String name) {
        return new TextValue[] {TextValue.of(Integer.toString(id)), TextValue.of(name)};
    }
}
