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

    private static final TableCatalog.Column A = new TableCatalog.Column("a", "bigint", false, false);
    private static final TableCatalog.Column B = new TableCatalog.Column("b", "numeric(14,2)", false, false);
    private static final TableCatalog.Column ID = new TableCatalog.Column("id", "integer", false, true);

    @Test
    void statements_bind_row_and_key_as_json_and_cast_each_text_form_by_its_column_type() {
        assertEquals("insert into \"s\".\"t\" (\"a\", \"b\") select (n.r ->> 'a')::bigint, (n.r ->> 'b')::numeric(14,2) from (select ?::jsonb as r) n",
                TableCatalog.generate("\"s\".\"t\"", "I", List.of(A, B), List.of(A)));
        assertEquals("update \"s\".\"t\" t set (\"a\", \"b\") = row((n.r ->> 'a')::bigint, (n.r ->> 'b')::numeric(14,2))"
                + " from (select ?::jsonb as r, ?::jsonb as k) n where (t.\"a\") = ((n.k ->> 'a')::bigint)",
                TableCatalog.generate("\"s\".\"t\"", "U", List.of(A, B), List.of(A)));
        assertEquals("delete from \"s\".\"t\" t using (select ?::jsonb as k) n where (t.\"a\") = ((n.k ->> 'a')::bigint)",
                TableCatalog.generate("\"s\".\"t\"", "D", List.of(), List.of(A)));
    }

    @Test
    void an_identity_column_generated_always_keeps_the_remotes_value_and_is_never_set_by_an_update() {
        assertEquals("insert into \"t\" (\"id\", \"b\") overriding system value select (n.r ->> 'id')::integer, (n.r ->> 'b')::numeric(14,2)"
                + " from (select x.r::jsonb as r from json_array_elements(?::json) as x(r) offset 0) n",
                TableCatalog.generateBatch("\"t\"", "I", List.of(ID, B), List.of(ID)));
        assertEquals("update \"t\" t set (\"b\") = row((n.r ->> 'b')::numeric(14,2))"
                + " from (select x.r::jsonb as r, x.k::jsonb as k from rows from (json_array_elements(?::json), json_array_elements(?::json))"
                + " as x(r, k) offset 0) n"
                + " where (t.\"id\") = ((n.k ->> 'id')::integer)", TableCatalog.generateBatch("\"t\"", "U", List.of(ID, B), List.of(ID)));
    }

    @Test
    void names_in_literals_have_their_quotes_doubled() {
        TableCatalog.Column odd = new TableCatalog.Column("it's", "text", false, false);
        assertEquals("delete from \"t\" t using (select x.k::jsonb as k from json_array_elements(?::json) as x(k) offset 0) n"
                + " where (t.\"it's\") = ((n.k ->> 'it''s')::text)",
                TableCatalog.generateBatch("\"t\"", "D", List.of(), List.of(odd)));
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
