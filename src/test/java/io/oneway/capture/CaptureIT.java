package io.oneway.capture;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.rows;
import static io.oneway.testing.Sql.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;

import io.oneway.ops.SchemaInstaller.Part;
import io.oneway.testing.PostgresFixture;

/** SPEC §2 against a real PostgreSQL: what the capture trigger writes to the change log. */
class CaptureIT {

    private static DataSource db;

    @BeforeAll
    static void database() {
        db = PostgresFixture.newDatabase("capture", Part.REMOTE).dataSource();
        exec(db, """
                create table "Odd Schema"."all types" (
                  id bigint, "Key part" text,
                  n numeric(30, 10), f double precision, i int, b boolean, t text, bin bytea, j jsonb,
                  arr int[], tarr text[], ts timestamptz, d date, u uuid, iv interval,
                  primary key (id, "Key part"))""".replace("create table", "create schema \"Odd Schema\"; create table"));
        exec(db, "create table plain(id int primary key, v text)");
        exec(db, "create table no_key(v text)");
    }

    @BeforeEach
    void captureOnAndEmptyLog() {
        exec(db, "select oneway.enable_capture('\"Odd Schema\".\"all types\"'), oneway.enable_capture('plain')");
        exec(db, "delete from \"Odd Schema\".\"all types\"; delete from plain; truncate oneway.change_log");
    }

    @Test
    void the_row_image_holds_every_columns_text_form_whatever_the_writers_settings() {
        String insert = """
                insert into "Odd Schema"."all types" values
                 (1, 'ключ ✓', 12345678901234567890.0123456789, 0.1, -7, true, E'tab\\there \\"quoted\\" Ünïcødé 😀',
                  '\\x00ff10'::bytea, '{"a": [1, 2.50, null], "b": {"c": "d"}}', '{1,NULL,3}', '{"x,y","with \\"quote\\""}',
                  '2024-02-29 23:59:59.123456+05:30', '2024-02-29', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 day 02:03:04'),
                 (2, '', null, 'NaN', null, null, null, null, 'null', null, null, null, null, null, null)""";
        // set local inside the statement: the JDBC driver refuses to see DateStyle other than ISO reported back
        exec(db, "do $do$ begin set local datestyle = 'SQL, DMY'; set local intervalstyle = 'sql_standard'; set local timezone = 'Asia/Kolkata'; "
                + "set local extra_float_digits = -15; set local bytea_output = 'escape'; set local lc_monetary = 'C'; " + insert + "; end $do$");
        Map<String, Object> first = rows(db, "select row_image::text as img from oneway.change_log where object_id->>'id' = '1'").get(0);
        assertEquals("{\"b\": \"true\", \"d\": \"2024-02-29\", \"f\": \"0.1\", \"i\": \"-7\", "
                + "\"j\": \"{\\\"a\\\": [1, 2.50, null], \\\"b\\\": {\\\"c\\\": \\\"d\\\"}}\", \"n\": \"12345678901234567890.0123456789\", "
                + "\"t\": \"tab\\there \\\"quoted\\\" Ünïcødé 😀\", \"u\": \"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\", \"id\": \"1\", "
                + "\"iv\": \"1 day 02:03:04\", \"ts\": \"2024-02-29 18:29:59.123456+00\", \"arr\": \"{1,NULL,3}\", \"bin\": \"\\\\x00ff10\", "
                + "\"tarr\": \"{\\\"x,y\\\",\\\"with \\\\\\\"quote\\\\\\\"\\\"}\", \"Key part\": \"ключ ✓\"}", first.get("img"));
        Map<String, Object> second = rows(db, "select row_image->>'j' as j, row_image->'n' as n, row_image->>'f' as f "
                + "from oneway.change_log where object_id->>'id' = '2'").get(0);
        assertEquals("null", second.get("j"), "a jsonb column holding JSON null is the text null");
        assertEquals("null", String.valueOf(second.get("n")), "an SQL NULL is JSON null");
        assertEquals("NaN", second.get("f"));
        assertEquals("\"Odd Schema\".\"all types\"", value(db, "select distinct object_type from oneway.change_log"));
    }

    @Test
    void a_writers_session_makes_the_text_forms_only_where_it_already_pins_what_the_columns_depend_on() throws SQLException {
        exec(db, "create type pins_pair as (n int, at timestamptz); create domain pins_float as float8");
        // a type, and a value whose text form the unlike settings below would change if they were not pinned
        Map<String, String> values = new java.util.LinkedHashMap<>();
        values.put("date", "'2024-02-29'");
        values.put("time", "'23:59:59.5'");
        values.put("timetz", "'12:00:00+05:45'");
        values.put("timestamp", "'2024-02-29 23:59:59.123456'");
        values.put("timestamptz", "'2024-02-29 23:59:59.123456+05:30'");
        values.put("interval", "'1 year 2 mons -3 days 04:05:06.789'");
        values.put("float4", "1.23456789");
        values.put("float8", "0.12345678901234568");
        values.put("point", "'(0.12345678901234568,0.2)'");
        values.put("circle", "'<(0.12345678901234568,0.2),0.3>'");
        values.put("bytea", "'\\x00ff'::bytea");
        values.put("money", "12.34");
        values.put("numeric", "1.50");
        values.put("int8", "7");
        values.put("jsonb", "'{\"a\": 0.1}'");
        values.put("timestamptz[]", "'{\"2024-02-29 23:59:59+05:30\"}'");
        values.put("tstzrange", "'[2024-01-01 00:00+00,2024-02-01 00:00+05:30)'");
        values.put("datemultirange", "'{[2024-01-01,2024-02-01)}'");
        values.put("pins_float", "0.12345678901234568");
        values.put("pins_pair", "row(1, '2024-02-29 23:59:59+05:30')");
        int k = 0;
        for (Map.Entry<String, String> type : values.entrySet()) {
            String table = "pins_" + k++;
            exec(db, "create table " + table + "(id int primary key, v " + type.getKey() + ")");
            exec(db, "select oneway.enable_capture('" + table + "')");
            boolean pins = settingsOf(table) != null;
            // unlike settings: through the function that pins them (a DO block: the JDBC driver refuses a DateStyle other than ISO)
            exec(db, "do $do$ begin set local track_functions = 'pl'; set local datestyle = 'SQL, DMY'; "
                    + "set local intervalstyle = 'sql_standard'; set local timezone = 'Asia/Kolkata'; set local extra_float_digits = -15; "
                    + "set local bytea_output = 'escape'; insert into " + table + " values (1, " + type.getValue() + "); "
                    + "if " + pins + " <> exists (select from pg_stat_xact_user_functions where funcname like '%\\_pinned') then "
                    + "raise exception 'the pinned function called: %', not " + pins + "; end if; end $do$");
            // settings that make the pinned text forms already: in the writer's session, the function not called
            try (Connection c = db.getConnection()) {
                c.setAutoCommit(false);
                exec(c, "set local track_functions = 'pl'; " + LIKE);
                exec(c, "insert into " + table + " values (2, " + type.getValue() + ")");
                assertEquals(0L, rows(c, "select count(*) as n from pg_stat_xact_user_functions where funcname like '%\\_pinned'").get(0).get("n"),
                        type.getKey());
                c.commit();
            }
            // like settings but one: through the function that pins them too
            for (int one = 0; one < UNLIKE.size(); one++) {
                exec(db, "do $do$ begin " + LIKE + UNLIKE.get(one) + "insert into " + table + " values (" + (3 + one) + ", " + type.getValue()
                        + "); end $do$");
            }
            try (Connection c = db.getConnection()) {
                c.setAutoCommit(false);
                exec(c, "set local datestyle = 'ISO, YMD'; set local intervalstyle = 'postgres'; set local timezone = 'UTC'; "
                        + "set local extra_float_digits = 3; set local bytea_output = 'hex'; set local lc_monetary = 'C'");
                assertEquals(rows(c, "select id::text as id, v::text as v from " + table + " order by id"),
                        rows(c, "select object_id->>'id' as id, row_image->>'v' as v from oneway.change_log where object_type = ? and op = 'I' "
                                + "order by log_id", "public." + table),
                        type.getKey() + ": the captured text forms are the pinned ones");
                c.rollback();
            }
        }
        assertNull(settingsOf("pins_13"), "int8 depends on no setting");
        assertEquals("{\"DateStyle=ISO, YMD\",TimeZone=UTC}", settingsOf("pins_4"), "timestamptz");
        assertEquals("{\"DateStyle=ISO, YMD\",TimeZone=UTC}", settingsOf("pins_15"), "an array of timestamptz");
        assertEquals("{extra_float_digits=3}", settingsOf("pins_18"), "a domain over float8");
        assertEquals("{\"DateStyle=ISO, YMD\",IntervalStyle=postgres,TimeZone=UTC,extra_float_digits=3,bytea_output=hex,lc_monetary=C}",
                settingsOf("pins_19"), "a composite type may gain any attribute: all six");
    }

    /** A writer's settings under which the text forms are the pinned ones, and one unlike setting after another. */
    private static final String LIKE = "set local datestyle = 'ISO, MDY'; set local intervalstyle = 'postgres'; set local timezone = 'Etc/UTC'; "
            + "set local extra_float_digits = 1; set local bytea_output = 'hex'; set local lc_monetary = 'C'; ";
    private static final List<String> UNLIKE = List.of("set local datestyle = 'SQL, DMY'; ", "set local intervalstyle = 'sql_standard'; ",
            "set local timezone = 'Asia/Kolkata'; ", "set local extra_float_digits = -15; ", "set local extra_float_digits = 0; ",
            "set local bytea_output = 'escape'; ");

    /** The settings the table's pinned capture function sets, or null where its text forms depend on none. */
    private static String settingsOf(String table) {
        Object config = value(db, "select (select proconfig::text from pg_proc where oid = to_regproc(oneway.capture_function(?::regclass) || '_pinned'))",
                table);
        return config == null ? null : config.toString();
    }

    @Test
    void a_composite_key_is_logged_with_all_its_columns() {
        exec(db, "insert into \"Odd Schema\".\"all types\"(id, \"Key part\") values (7, 'k')");
        assertEquals("{\"id\": \"7\", \"Key part\": \"k\"}", value(db, "select object_id::text from oneway.change_log"));
    }

    @Test
    void update_logs_the_key_before_the_change_and_the_new_image() {
        exec(db, "insert into plain values (1, 'a')");
        exec(db, "update plain set id = 2, v = 'b' where id = 1");
        List<Map<String, Object>> log = rows(db, "select op, object_id::text as k, row_image::text as img from oneway.change_log order by log_id");
        assertEquals(List.of("I", "U"), log.stream().map(r -> r.get("op")).toList());
        assertEquals("{\"id\": \"1\"}", log.get(1).get("k"));
        assertEquals("{\"v\": \"b\", \"id\": \"2\"}", log.get(1).get("img"));
    }

    @Test
    void delete_logs_the_key_and_no_image() {
        exec(db, "insert into plain values (1, 'a')");
        exec(db, "delete from plain where id = 1");
        Map<String, Object> del = rows(db, "select object_id::text as k, row_image from oneway.change_log where op = 'D'").get(0);
        assertEquals("{\"id\": \"1\"}", del.get("k"));
        assertNull(del.get("row_image"));
    }

    @Test
    void every_row_of_a_multi_row_statement_is_logged_in_order_with_the_writer_transaction_id() throws SQLException {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            exec(c, "insert into plain select g, 'v' || g from generate_series(1, 100) g");
            String txid = (String) io.oneway.testing.Sql.rows(c, "select pg_current_xact_id()::text as x").get(0).get("x");
            c.commit();
            assertEquals(100L, number(db, "select count(*) from oneway.change_log where txid::text = ?", txid));
        }
        assertEquals(1L, number(db, "select count(distinct state) from oneway.change_log where state = 'L'"));
        assertEquals(0L, number(db, "select count(*) from oneway.change_log_status where position is not null"));
    }

    @Test
    void a_table_without_a_primary_key_is_refused_with_a_clear_error() {
        SQLException e = assertThrows(SQLException.class, () -> callEnable("no_key"));
        assertEquals("42P10", e.getSQLState());
        assertTrue(e.getMessage().contains("no primary key"), e.getMessage());
    }

    @Test
    void a_deferrable_primary_key_is_refused_and_so_is_making_a_captured_tables_key_deferrable() throws SQLException {
        exec(db, "create table deferred_key(id int primary key deferrable initially deferred, v text)");
        SQLException refused = assertThrows(SQLException.class, () -> callEnable("deferred_key"));
        assertEquals("55000", refused.getSQLState());
        assertTrue(refused.getMessage().contains("public.deferred_key's primary key deferred_key_pkey is DEFERRABLE"), refused.getMessage());
        assertEquals(0L, number(db, "select count(*) from oneway.captured_table where table_name = 'public.deferred_key'"));
        String hint = ((PSQLException) refused).getServerErrorMessage().getHint();
        assertEquals("make it immediate: alter table public.deferred_key drop constraint deferred_key_pkey, "
                + "add constraint deferred_key_pkey PRIMARY KEY (id); then call oneway.enable_capture again", hint);

        exec(db, hint.substring("make it immediate: ".length(), hint.indexOf(';')));
        callEnable("deferred_key");
        try (Connection c = db.getConnection()) {
            SQLException madeDeferrable = assertThrows(SQLException.class, () -> exec(c,
                    "alter table deferred_key drop constraint deferred_key_pkey, add constraint deferred_key_pkey primary key (id) deferrable"));
            assertEquals("55000", madeDeferrable.getSQLState());
            assertTrue(madeDeferrable.getMessage().contains("is DEFERRABLE"), madeDeferrable.getMessage());
        }
        assertEquals(false, value(db, "select condeferrable from pg_constraint where conname = 'deferred_key_pkey'"));
    }

    @Test
    void disabling_capture_stops_logging_for_that_table_only() {
        exec(db, "select oneway.disable_capture('plain')");
        exec(db, "insert into plain values (1, 'a')");
        exec(db, "insert into \"Odd Schema\".\"all types\"(id, \"Key part\") values (1, 'x')");
        assertEquals(1L, number(db, "select count(*) from oneway.change_log"));
        assertEquals(0L, number(db, "select count(*) from oneway.captured_table where table_name = 'public.plain'"));
    }

    @Test
    void truncate_of_a_captured_table_is_refused_because_it_would_not_be_replicated() {
        exec(db, "insert into plain values (1, 'a')");
        SQLException e = assertThrows(SQLException.class, () -> {
            try (Connection c = db.getConnection()) {
                exec(c, "truncate plain");
            }
        });
        assertEquals("0A000", e.getSQLState());
        assertEquals(1L, number(db, "select count(*) from plain"));
    }

    @Test
    void a_writer_running_as_a_replica_is_captured_and_refused_truncate_too() throws SQLException {
        try (Connection c = db.getConnection()) {
            // as bulk loaders and native logical replication's apply run: only triggers enabled ALWAYS fire
            exec(c, "set session_replication_role = replica");
            exec(c, "insert into plain values (1, 'loaded as a replica')");
            SQLException e = assertThrows(SQLException.class, () -> exec(c, "truncate plain"));
            assertEquals("0A000", e.getSQLState());
        }
        assertEquals(1L, number(db, "select count(*) from oneway.change_log where object_type = 'public.plain' and op = 'I'"));
    }

    @Test
    void capture_switched_off_by_hand_is_named_with_the_way_back_and_enable_capture_puts_it_back() throws SQLException {
        CaptureGaps gaps = new CaptureGaps(db);
        assertNull(gaps.problem());
        exec(db, "alter table plain disable trigger oneway_capture");
        assertEquals("capture is not in force for public.plain: its capture trigger oneway_capture is disabled "
                + "(select oneway.enable_capture('public.plain', 'image') puts it back; the changes made meanwhile were not captured: "
                + "./oneway snapshot public.plain then makes the central copy equal)", gaps.problem());
        // enabled by hand the usual way, it would again skip writers that run as replicas
        exec(db, "alter table plain enable trigger oneway_capture");
        assertTrue(gaps.problem().contains("public.plain: its capture trigger oneway_capture does not fire in replica sessions"), gaps.problem());
        exec(db, "drop trigger oneway_capture on plain");
        exec(db, "alter table \"Odd Schema\".\"all types\" disable trigger oneway_refuse_truncate");
        assertEquals("capture is not in force for \"Odd Schema\".\"all types\": its TRUNCATE guard (trigger oneway_refuse_truncate) "
                + "is disabled or skips replica sessions: a TRUNCATE would not be replicated (select oneway.enable_capture("
                + "'\"Odd Schema\".\"all types\"', 'image') puts it back); public.plain: its capture trigger oneway_capture is gone "
                + "(select oneway.enable_capture('public.plain', 'image') puts it back; the changes made meanwhile were not captured: "
                + "./oneway snapshot public.plain then makes the central copy equal)", gaps.problem());

        exec(db, "select oneway.enable_capture('\"Odd Schema\".\"all types\"'), oneway.enable_capture('plain')");
        assertNull(gaps.problem());
        exec(db, "insert into plain values (1, 'a')");
        assertEquals(1L, number(db, "select count(*) from oneway.change_log where object_type = 'public.plain'"));
    }

    @Test
    void capture_off_for_many_tables_names_five_with_their_cause_and_the_rest_by_name() throws SQLException {
        for (int i = 1; i <= 7; i++) {
            exec(db, "create table gap_" + i + "(id int primary key)");
            exec(db, "select oneway.enable_capture('gap_" + i + "')");
            exec(db, "alter table gap_" + i + " disable trigger oneway_capture");
        }
        String problem = new CaptureGaps(db).problem();
        for (int i = 1; i <= 5; i++) {
            assertTrue(problem.contains("public.gap_" + i + ": its capture trigger oneway_capture is disabled (select oneway.enable_capture('public.gap_"
                    + i + "', 'image') puts it back"), problem);
        }
        assertTrue(problem.endsWith("; and 2 more tables the same way: public.gap_6, public.gap_7"), problem);
        for (int i = 1; i <= 7; i++) {
            exec(db, "drop table gap_" + i);
        }
        assertNull(new CaptureGaps(db).problem(), "a dropped table's capture goes with it");
    }

    @Test
    void a_table_with_child_tables_is_refused_and_no_table_may_inherit_from_a_captured_one() {
        exec(db, "create table parent_t(id int primary key, v text)");
        exec(db, "create table child_t(extra text) inherits (parent_t)");
        SQLException e = assertThrows(SQLException.class, () -> callEnable("parent_t"));
        assertEquals("0A000", e.getSQLState());
        assertTrue(e.getMessage().contains("table public.parent_t has child tables (INHERITS)"), e.getMessage());

        SQLException inherit = assertThrows(SQLException.class, () -> {
            try (Connection c = db.getConnection()) {
                exec(c, "create table child_of_plain(extra text) inherits (plain)");
            }
        });
        assertEquals("0A000", inherit.getSQLState());
        assertTrue(inherit.getMessage().contains("table public.child_of_plain may not inherit from a captured table"), inherit.getMessage());
        exec(db, "create table later_child(id int not null, v text)");
        SQLException later = assertThrows(SQLException.class, () -> {
            try (Connection c = db.getConnection()) {
                exec(c, "alter table later_child inherit plain");
            }
        });
        assertEquals("0A000", later.getSQLState());
        exec(db, "drop table child_t, parent_t, later_child");
    }

    @Test
    void enabling_capture_twice_is_harmless() {
        exec(db, "select oneway.enable_capture('plain')");
        exec(db, "insert into plain values (1, 'a')");
        assertEquals(1L, number(db, "select count(*) from oneway.change_log"));
    }

    @Test
    void names_that_look_like_sql_or_quoting_are_only_names_in_the_capture_function() {
        exec(db, "create table \"we'ird $body$ \"\"t\"(\"k'$body$;--\" int, \"2nd\" text, v text, primary key (\"k'$body$;--\", \"2nd\"))");
        exec(db, "select oneway.enable_capture('\"we''ird $body$ \"\"t\"')");
        exec(db, "insert into \"we'ird $body$ \"\"t\" values (1, 'a', 'x')");
        exec(db, "update \"we'ird $body$ \"\"t\" set \"2nd\" = 'b'");
        exec(db, "delete from \"we'ird $body$ \"\"t\"");

        List<Map<String, Object>> log = rows(db, "select object_type, op, object_id::text as k from oneway.change_log where op <> 'S' order by log_id");
        assertEquals(List.of("I", "U", "D"), log.stream().map(r -> r.get("op")).toList());
        assertEquals("public.\"we'ird $body$ \"\"t\"", log.get(0).get("object_type"));
        assertEquals("{\"2nd\": \"a\", \"k'$body$;--\": \"1\"}", log.get(0).get("k"));
        assertEquals("{\"2nd\": \"a\", \"k'$body$;--\": \"1\"}", log.get(1).get("k"), "the key before the update");
        assertEquals("{\"2nd\": \"b\", \"k'$body$;--\": \"1\"}", log.get(2).get("k"));
        exec(db, "select oneway.disable_capture('\"we''ird $body$ \"\"t\"')");
    }

    private static void callEnable(String table) throws SQLException {
        try (Connection c = db.getConnection()) {
            exec(c, "select oneway.enable_capture(?::regclass)", table);
        }
    }
}
