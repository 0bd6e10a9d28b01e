package io.oneway.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.oneway.wire.ChangeRecord;

class ApplyPlanTest {

    private final Statements byTableAndOp = (c, shape) -> c.table() + " " + c.op();
    private long position;

    @Test
    void changes_with_the_same_statement_are_batched_across_rows() throws Exception {
        List<ChangeRecord> run = List.of(insert("o", 1), update("c", 1), insert("o", 2), update("o", 2), delete("o", 1));
        List<ApplyPlan.Batch> plan = ApplyPlan.of(run, byTableAndOp);
        assertEquals(List.of("o I", "c U", "o U", "o D"), plan.stream().map(ApplyPlan.Batch::sql).toList());
        assertEquals(2, plan.get(0).changes().size());
    }

    @Test
    void every_row_keeps_its_changes_in_position_order() throws Exception {
        List<ChangeRecord> run = List.of(insert("t", 1), delete("t", 1), insert("t", 1), update("t", 2), update("t", 1));
        assertRowOrderKept(run, ApplyPlan.of(run, byTableAndOp));
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
        // the same row, its key written once with an escape: its second update waits for the first
        ChangeRecord first = keyed("{\"a\": \"x\", \"b\": \"yz\"}");
        ChangeRecord second = keyed("{\"a\": \"\\u0078\", \"b\": \"yz\"}");
        assertEquals(List.of(List.of(first), List.of(second)), batches(first, second));
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

    private static void assertRowOrderKept(List<ChangeRecord> run, List<ApplyPlan.Batch> plan) {
        List<ChangeRecord> executed = new ArrayList<>();
        plan.forEach(b -> executed.addAll(b.changes()));
        assertEquals(run.size(), executed.size());
        for (ChangeRecord a : run) {
            for (ChangeRecord b : run) {
                if (a.key().equals(b.key()) && a.position() < b.position()) {
                    assertTrue(executed.indexOf(a) < executed.indexOf(b), a.describe() + " before " + b.describe());
                }
            }
        }
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
