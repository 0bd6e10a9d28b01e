package io.oneway.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

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

        JsonNode items = JSON.readTree(batch.takeReady());
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
        JsonNode rest = JSON.readTree(batch.takeReady());
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
        byte[] json = batch.takeReady();
        JsonNode items = JSON.readTree(json);
        assertEquals(wide, items.get(0).get("r").get("name").asText());
        assertArrayEquals(items.toString().getBytes(StandardCharsets.UTF_8), json, "the same bytes as Java's own UTF-8 encoder");
        assertEquals(0, batch.length());
        assertFalse(batch.holdsBack());
    }

    private static String[] row(int id, String name) {
        return new String[] {Integer.toString(id), name};
    }
}
