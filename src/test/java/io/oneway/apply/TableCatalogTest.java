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
    void parameters_are_the_row_for_inserts_row_and_key_for_updates_key_for_deletes() {
        assertEquals(List.of("R"), TableCatalog.parameters(change("I")));
        assertEquals(List.of("R", "K"), TableCatalog.parameters(change("U")));
        assertEquals(List.of("K"), TableCatalog.parameters(change("D")));
    }

    private static ChangeRecord change(String op) {
        return new ChangeRecord(1, 1, true, "t", op, false, "K", "R", "at", null);
    }
}
