package io.oneway.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.oneway.wire.ChangeRecord;

class TableCatalogTest {

    @Test
    void identifiers_are_double_quoted_with_embedded_quotes_doubled() {
        assertEquals("\"plain\"", TableCatalog.quote("plain"));
        assertEquals("\"a\"\"; drop table x; --\"", TableCatalog.quote("a\"; drop table x; --"));
    }

    @Test
    void statements_bind_the_row_and_key_as_json_parameters() {
        assertEquals("insert into \"s\".\"t\" (\"a\", \"b\") select \"a\", \"b\" from jsonb_populate_record(null::\"s\".\"t\", ?::jsonb)",
                TableCatalog.generate("\"s\".\"t\"", "I", "\"a\", \"b\"", "\"a\""));
        assertEquals("update \"s\".\"t\" set (\"a\", \"b\") = (select \"a\", \"b\" from jsonb_populate_record(null::\"s\".\"t\", ?::jsonb))"
                + " where (\"a\") = (select \"a\" from jsonb_populate_record(null::\"s\".\"t\", ?::jsonb))",
                TableCatalog.generate("\"s\".\"t\"", "U", "\"a\", \"b\"", "\"a\""));
        assertEquals("delete from \"s\".\"t\" where (\"a\") = (select \"a\" from jsonb_populate_record(null::\"s\".\"t\", ?::jsonb))",
                TableCatalog.generate("\"s\".\"t\"", "D", "", "\"a\""));
    }

    @Test
    void batch_statements_bind_json_arrays_and_match_rows_by_key() {
        List<String> columns = List.of("a", "b");
        List<String> key = List.of("a");
        assertEquals("insert into \"s\".\"t\" (\"a\", \"b\") select \"a\", \"b\" from jsonb_populate_recordset(null::\"s\".\"t\", ?::jsonb)",
                TableCatalog.generateBatch("\"s\".\"t\"", "I", columns, key));
        assertEquals("update \"s\".\"t\" t set (\"a\", \"b\") = row(r.\"a\", r.\"b\")"
                + " from rows from (jsonb_array_elements(?::jsonb), jsonb_array_elements(?::jsonb)) as x(new_row, old_key)"
                + " cross join lateral jsonb_populate_record(null::\"s\".\"t\", x.new_row) r"
                + " cross join lateral jsonb_populate_record(null::\"s\".\"t\", x.old_key) k where (t.\"a\") = (k.\"a\")",
                TableCatalog.generateBatch("\"s\".\"t\"", "U", columns, key));
        assertEquals("delete from \"s\".\"t\" t using jsonb_populate_recordset(null::\"s\".\"t\", ?::jsonb) k where (t.\"a\") = (k.\"a\")",
                TableCatalog.generateBatch("\"s\".\"t\"", "D", List.of(), key));
    }

    @Test
    void batch_parameters_are_arrays_of_the_rows_and_keys_in_batch_order() {
        ChangeRecord first = new ChangeRecord(1, 1, false, "t", "U", false, "{\"a\": 1}", "{\"a\": 1, \"b\": 2}", "at", null);
        ChangeRecord second = new ChangeRecord(2, 1, true, "t", "U", false, "{\"a\": 3}", "{\"a\": 4, \"b\": 5}", "at", null);
        assertEquals(List.of("[{\"a\": 1, \"b\": 2},{\"a\": 4, \"b\": 5}]", "[{\"a\": 1},{\"a\": 3}]"),
                TableCatalog.batchParameters(List.of(first, second)));
        assertEquals(List.of("[R]"), TableCatalog.batchParameters(List.of(change("I"))));
        assertEquals(List.of("[K]"), TableCatalog.batchParameters(List.of(change("D"))));
    }

    @Test
    void parameters_are_the_row_for_inserts_row_and_key_for_updates_key_for_deletes() {
        assertEquals(List.of("R"), TableCatalog.parameters(change("I")));
        assertEquals(List.of("R", "K"), TableCatalog.parameters(change("U")));
        assertEquals(List.of("K"), TableCatalog.parameters(change("D")));
    }

    private static ChangeRecord change(String op) {
        return new ChangeRecord(1, 1, true, "t", op, false, "K", "R", "at", null);
    }
}
