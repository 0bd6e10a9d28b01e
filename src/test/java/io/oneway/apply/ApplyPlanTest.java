package io.oneway.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.oneway.wire.ChangeRecord;

class ApplyPlanTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };
    private final Statements byTableAndOp = (c, shape) -> c.table() + " " + c.op();
    private long position;

    @Test
    void changes_with_the_same_statement_are_batched_across_rows() throws Exception {
        List<ChangeRecord> run = List.of(insert("o", 1), update("c", 1), insert("o", 2), update("c", 2), delete("o", 3));
        List<ApplyPlan.Batch> plan = ApplyPlan.of(run, byTableAndOp);
        assertEquals(List.of("o I", "c U", "o D"), plan.stream().map(ApplyPlan.Batch::sql).toList());
        assertEquals(List.of(List.of(run.get(0), run.get(2)), List.of(run.get(1), run.get(3)), List.of(run.get(4))),
                plan.stream().map(ApplyPlan.Batch::changes).toList());
    }

    @Test
    void a_row_image_a_later_change_of_the_run_replaces_is_not_written() throws Exception {
        // the benchmark's transaction: order 1 inserted and deleted, order 2 inserted then paid, its customer updated twice
        List<ChangeRecord> run = List.of(insert("o", 1), update("c", 1), insert("o", 2), update("o", 2), delete("o", 1), update("c", 1));
        List<ApplyPlan.Batch> plan = ApplyPlan.of(run, byTableAndOp);
        Map<String, List<ChangeRecord>> bySql = new HashMap<>();
        plan.forEach(b -> bySql.put(b.sql(), b.changes()));
        assertEquals(Set.of("o I", "c U"), bySql.keySet());
        assertEquals(1, bySql.get("o I").size());
        ChangeRecord paid = bySql.get("o I").get(0);
        assertEquals(List.of("I", run.get(3).row()), List.of(paid.op(), paid.row()), "order 2 inserted as it was paid");
        assertEquals(List.of(run.get(5)), bySql.get("c U"), "the customer's last image only");
        // an update then a delete is the delete
        List<ChangeRecord> gone = List.of(update("c", 7), delete("c", 7));
        assertEquals(List.of(List.of(gone.get(1))), ApplyPlan.of(gone, byTableAndOp).stream().map(ApplyPlan.Batch::changes).toList());
    }

    @Test
    void an_update_that_leaves_columns_out_keeps_the_image_before_it() throws Exception {
        // read from the WAL, an update that left a TOASTed value alone does not carry it: the insert before it must set it
        ChangeRecord insert = new ChangeRecord(++position, 1, true, "t", "I", false, "{\"id\": 1}", "{\"id\": 1, \"v\": 1, \"doc\": \"long\"}", "at", null);
        ChangeRecord update = new ChangeRecord(++position, 1, true, "t", "U", false, "{\"id\": 1}", "{\"id\": 1, \"v\": 2}", "at", null);
        assertEquals(List.of(List.of(insert), List.of(update)), batches(insert, update));
    }

    @Test
    void reference_mode_changes_and_key_changes_are_each_executed() throws Exception {
        ChangeRecord referenceInsert = new ChangeRecord(++position, 1, true, "t", "I", true, "{\"id\": 1}", "{\"id\": 1, \"v\": 1}", "at", null);
        ChangeRecord referenceDelete = new ChangeRecord(++position, 1, true, "t", "D", true, "{\"id\": 1}", null, "at", null);
        assertEquals(List.of(List.of(referenceInsert), List.of(referenceDelete)), batches(referenceInsert, referenceDelete));
        ChangeRecord insert = insert("t", 2);
        ChangeRecord moveTwoToThree = new ChangeRecord(++position, 1, true, "t", "U", false, "{\"id\": 2}", "{\"id\": 3, \"v\": 0}", "at", null);
        ChangeRecord deleteThree = delete("t", 3);
        assertEquals(List.of(List.of(insert), List.of(moveTwoToThree), List.of(deleteThree)), batches(insert, moveTwoToThree, deleteThree));
    }

    @Test
    void the_plan_leaves_every_row_as_the_changes_one_by_one_do() throws Exception {
        Random random = new Random(20261204);
        for (int trial = 0; trial < 2000; trial++) {
            Map<Integer, Map<String, Object>> start = new HashMap<>();
            for (int id = 0; id < 4; id++) {
                if (random.nextBoolean()) {
                    start.put(id, new HashMap<>(Map.of("id", id, "v", -1, "w", -1)));
                }
            }
            Map<Integer, Map<String, Object>> oneByOne = copy(start);
            List<ChangeRecord> run = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                ChangeRecord change = randomChange(random, oneByOne);
                execute(oneByOne, change);
                run.add(change);
            }
            Map<Integer, Map<String, Object>> planned = copy(start);
            for (ApplyPlan.Batch batch : ApplyPlan.of(run, byTableAndOp)) {
                for (ChangeRecord change : batch.changes()) {
                    execute(planned, change);
                }
            }
            assertEquals(oneByOne, planned, run.stream().map(ChangeRecord::describe).toList().toString());
        }
    }

    /** A change that is valid on {@code rows}: an insert of an absent key, an update (whole, partial or moving the key) or delete of a present one. */
    private ChangeRecord randomChange(Random random, Map<Integer, Map<String, Object>> rows) {
        int id = random.nextInt(5);
        ++position;
        if (!rows.containsKey(id)) {
            return new ChangeRecord(position, 1, true, "t", "I", false, "{\"id\": " + id + "}",
                    "{\"id\": " + id + ", \"v\": " + position + ", \"w\": " + position + "}", "at", null);
        }
        int free = IntStream.range(0, 5).filter(k -> !rows.containsKey(k)).findFirst().orElse(-1);
        return switch (random.nextInt(free < 0 ? 4 : 5)) {
            case 0 -> new ChangeRecord(position, 1, true, "t", "D", false, "{\"id\": " + id + "}", null, "at", null);
            case 1 -> new ChangeRecord(position, 1, true, "t", "U", false, "{\"id\": " + id + "}", "{\"id\": " + id + ", \"v\": " + position + "}", "at", null);
            case 4 -> new ChangeRecord(position, 1, true, "t", "U", false, "{\"id\": " + id + "}",
                    "{\"id\": " + free + ", \"v\": " + position + ", \"w\": " + position + "}", "at", null);
            default -> new ChangeRecord(position, 1, true, "t", "U", false, "{\"id\": " + id + "}",
                    "{\"id\": " + id + ", \"v\": " + position + ", \"w\": " + position + "}", "at", null);
        };
    }

    /** What the database does with a change, with its checks: an insert finds no row, an update or delete finds one. */
    private static void execute(Map<Integer, Map<String, Object>> rows, ChangeRecord change) throws Exception {
        int id = ((Number) JSON.readValue(change.key(), MAP).get("id")).intValue();
        Map<String, Object> image = change.row() == null ? null : JSON.readValue(change.row(), MAP);
        switch (change.op()) {
            case "I" -> assertNull(rows.put(id, new HashMap<>(image)), "insert of an existing row " + change.describe());
            case "D" -> assertNotNull(rows.remove(id), "delete of no row " + change.describe());
            default -> {
                Map<String, Object> row = rows.remove(id);
                assertNotNull(row, "update of no row " + change.describe());
                row.putAll(image);
                assertNull(rows.put(((Number) row.get("id")).intValue(), row), "update onto an existing row " + change.describe());
            }
        }
    }

    private static Map<Integer, Map<String, Object>> copy(Map<Integer, Map<String, Object>> rows) {
        Map<Integer, Map<String, Object>> out = new HashMap<>();
        rows.forEach((id, row) -> out.put(id, new HashMap<>(row)));
        return out;
    }

    @Test
    void an_update_that_changes_the_key_orders_both_keys() throws Exception {
        ChangeRecord deleteTwo = delete("t", 2);
        ChangeRecord moveOneToTwo = new ChangeRecord(++position, 1, true, "t", "U", false, "{\"id\": 1}", "{\"id\": 2, \"v\": 0}", "at", null);
        List<ChangeRecord> run = List.of(deleteTwo, moveOneToTwo, update("t", 2), insert("t", 1));
        List<ApplyPlan.Batch> plan = ApplyPlan.of(run, byTableAndOp);
        List<Long> order = new ArrayList<>();
        plan.forEach(b -> b.changes().forEach(c -> order.add(c.position())));
        assertTrue(order.indexOf(1L) < order.indexOf(2L) && order.indexOf(2L) < order.indexOf(3L) && order.indexOf(2L) < order.indexOf(4L), order.toString());
    }

    @Test
    void a_row_is_known_by_its_key_values_as_the_json_decodes_them() throws Exception {
        // the same row, its key written once with an escape: inserted again after its delete, the insert waits for the delete
        ChangeRecord delete = new ChangeRecord(++position, 1, true, "t", "D", false, "{\"a\": \"x\", \"b\": \"yz\"}", null, "at", null);
        ChangeRecord insert = new ChangeRecord(++position, 1, true, "t", "I", false, "{\"a\": \"\\u0078\", \"b\": \"yz\"}",
                "{\"a\": \"\\u0078\", \"b\": \"yz\"}", "at", null);
        assertEquals(List.of(List.of(delete), List.of(insert)), batches(delete, insert));
        ChangeRecord first = keyed("{\"a\": \"x\", \"b\": \"yz\"}");
        // keys whose values run together the same ("xy" + "z", "x" + "yz"), and a null against the text null, are other rows
        ChangeRecord runTogether = keyed("{\"a\": \"xy\", \"b\": \"z\"}");
        ChangeRecord sqlNull = keyed("{\"a\": null, \"b\": \"z\"}");
        ChangeRecord textNull = keyed("{\"a\": \"null\", \"b\": \"z\"}");
        assertEquals(List.of(List.of(first, runTogether, sqlNull, textNull)), batches(first, runTogether, sqlNull, textNull));
    }

    private List<List<ChangeRecord>> batches(ChangeRecord... run) throws Exception {
        return ApplyPlan.of(List.of(run), byTableAndOp).stream().map(ApplyPlan.Batch::changes).toList();
    }

    private ChangeRecord keyed(String key) {
        return new ChangeRecord(++position, 1, true, "t", "U", false, key, key.replace("}", ", \"v\": " + position + "}"), "at", null);
    }

    private ChangeRecord insert(String table, int id) {
        return change(table, "I", id);
    }

    private ChangeRecord update(String table, int id) {
        return change(table, "U", id);
    }

    private ChangeRecord delete(String table, int id) {
        return new ChangeRecord(++position, 1, true, table, "D", false, "{\"id\": " + id + "}", null, "at", null);
    }

    private ChangeRecord change(String table, String op, int id) {
        return new ChangeRecord(++position, 1, true, table, op, false, "{\"id\": " + id + "}", "{\"id\": " + id + ", \"v\": " + position + "}", "at", null);
    }
}
