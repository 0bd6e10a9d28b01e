package io.oneway.replication;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.repair;
import static io.oneway.testing.Sql.rows;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.oneway.ops.Verifier;
import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.ReplicationFixture;

/**
 * The cases of ExactValuesIT (capture by trigger) and WalExactValuesIT (from the WAL). SPEC §5:
 * every value round-trips exactly, whatever the session settings of either side: a table with a column of every built-in type family and their edge values
 * (a composite type and arrays of it, arrays of two dimensions or with another lower bound included), written with
 * DateStyle, IntervalStyle, TimeZone, extra_float_digits and bytea_output unlike the central
 * database's, compares equal column by column in text form; verify sees a difference in any
 * column, JSON null against SQL NULL included; a snapshot of the table (issue "Onboarding and
 * repair") makes a stale central copy equal value for value; the central identity sequence follows
 * the remote's.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class ExactValuesCases {

    private static final String TABLE = "shop.everything";
    // the writer's settings, each unlike the pinned ones and the central database's
    private static final String WRITER_SETTINGS = "set local datestyle = 'SQL, DMY'; set local intervalstyle = 'sql_standard'; "
            + "set local timezone = 'America/St_Johns'; set local extra_float_digits = -15; set local bytea_output = 'escape'; "
            + "set local lc_monetary = 'C.utf8'; ";
    private static ReplicationFixture fixture;
    static DataSource remote;

    /** Starts both replicators with shop.everything captured in this mode. */
    static void start(ReplicationFixture f, String captureMode) throws Exception {
        fixture = f.with("oneway.apply.tables", String.join(",", ReplicationFixture.TABLES) + "," + TABLE);
        remote = fixture.remote("branch1");
        exec(remote, schema());
        exec(fixture.central(), schema());
        exec(fixture.central(), "select oneway.enable_apply('shop.everything', 'branch1')");
        try (Connection c = fixture.central().getConnection()) {
            String db = c.getCatalog();
            exec(c, "alter database " + db + " set intervalstyle = 'iso_8601'");
            exec(c, "alter database " + db + " set bytea_output = 'escape'");
            exec(c, "alter database " + db + " set xmloption = 'document'");
            exec(c, "alter database " + db + " set extra_float_digits = -15");
        }
        fixture.startCentral();
        fixture.startRemote("branch1");
        if (captureMode.equals("wal")) {
            fixture.captureFromWal("branch1", TABLE);
        } else {
            exec(remote, "select oneway.enable_capture('shop.everything', ?)", captureMode);
        }
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    @Order(1)
    void every_type_and_edge_value_round_trips_exactly_and_verify_sees_a_difference_in_any_column() throws Exception {
        write("""
                insert into shop.everything (id, b, i2, i4, i8, n, n_fixed, f4, f8, m, c, vc, t, bin, d, ti, ttz, ts, tstz, iv, j, jb, x, tv, tq, u,
                  bits, vbits, inet_, cidr_, mac, mac8, pt, ln, ls, bx, pa, pg, ci, r4, rn, rts, rd, mr, e, dom, lsn,
                  a_i, a_t, a_ts, a_jb, a_iv, a_pt, a_n, addr, a_addr, a2, a_lb, ch, nm, trs) values
                (1, true, 32767, -2147483648, 9223372036854775807, 12345678901234567890.123456789012345678901234567890, 12345678.1234,
                 3.4028235e38, 0.1, 1234567.89, 'ab', 'ünï', E'tab\\there "quoted" \\\\ back\\nnew line 😀', '\\x000102ff00'::bytea,
                 '2024-02-29', '23:59:59.999999', '12:00:00+05:45', '2024-02-29 23:59:59.123456', '2024-02-29 23:59:59.123456+05:30',
                 '1 year 2 mons -3 days 04:05:06.789', '{"b": 1,  "a": 2, "a": 3}', '{"k": [1, 2.50, null, "x"], "n": null}',
                 '<a x="1">text &amp; <b/></a><c/>', 'a fat cat:3A sat', 'fat & (rat | cat)', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
                 B'1010', B'101', '192.168.0.1/24', '10.0.0.0/8', '08:00:2b:01:02:03', '08:00:2b:01:02:03:04:05', '(1.5,-2.25)',
                 '{1,-1,0.5}', '[(0,0),(1,1)]', '((1,1),(0,0))', '[(0,0),(1,1),(2,0)]', '((0,0),(1,1),(2,0))', '<(0,0),1.5>',
                 '[1,10)', '(0.5,1.5]', '[2024-01-01 00:00+00,2024-02-01 00:00+00)', '[2024-01-01,2024-12-31]', '{[1,3),[5,7)}',
                 'happy', 12.34, '16/B374D848', '{1,NULL,3}', '{"x,y","with \\"quote\\"",NULL,""}',
                 '{"2024-02-29 23:59:59+05:30",NULL}', '{"{\\"a\\": null}",null}', '{"1 day","-00:00:01"}', '{"(1,2)"}', '{NaN,1.50}',
                 '("Main St, 1 ""A""\",12345,"{x,\\"y z\\"}")', array[row('a', 1, '{}')::shop.address, null], '{{1,2},{3,NULL}}',
                 '[0:2]={7,8,9}', 'x', 'some name', '[2024-02-29 23:59:59.5,infinity)'),
                (2, false, -32768, 0, -9223372036854775808, 'NaN', -0.0001, 'Infinity', '-Infinity', -0.01, '', '', '', ''::bytea,
                 '-infinity', '00:00', '00:00:00-12', 'infinity', '-infinity', '-178000000 years', '[]', 'null', 'fragment only',
                 '', 'a', '00000000-0000-0000-0000-000000000000', B'0000', B'', '::1', '::/0', '00:00:00:00:00:00',
                 '00:00:00:00:00:00:00:00', '(0,0)', '{0,1,0}', '[(0,0),(0,0)]', '((0,0),(0,0))', '((0,0))', '((0,0))', '<(0,0),0>',
                 'empty', '(,)', '(,)', 'empty', '{}', 'sad', 0.01, '0/0', '{}', '{}', '{}', '{}', '{}', '{}', '{Infinity,-Infinity}',
                 '(,,)', '{"(,,)"}', '{}', '[-5:-5]={0}', '', '', 'empty'),
                (3, null, null, null, null, null, null, 1.4e-45, 4.9e-324, null, null, null, null, null, null, null, null, null, null, null,
                 null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                 null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                 null, null, null, null, null, null, null)""");
        write("update shop.everything set jb = 'null', j = 'null', t = 'NULL', n = '-Infinity' where id = 1");
        write("update shop.everything set jb = null, tstz = 'infinity' where id = 2");
        write("insert into shop.everything (id, jb, j, f8) values (4, '\"null\"', '{\"b\": 1,  \"a\": 2, \"a\": 3}', '-0'), (5, '{}', null, null)");
        write("delete from shop.everything where id = 5");
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));

        assertEquals(textForms(remote), textForms(fixture.central()), "every column's text form, row by row");
        assertEquals("null", rows(fixture.central(), "select jb::text as jb from shop.everything where id = 1").get(0).get("jb"),
                "JSON null stays JSON null");
        assertEquals(null, rows(fixture.central(), "select jb from shop.everything where id = 2").get(0).get("jb"), "SQL NULL stays NULL");
        assertEquals("{\"b\": 1,  \"a\": 2, \"a\": 3}", rows(fixture.central(), "select j::text as j from shop.everything where id = 4").get(0).get("j"),
                "json text byte for byte, duplicate keys and spacing included");
        Verifier verifier = new Verifier(remote, fixture.central(), 1000);
        assertTrue(verifier.verify(TABLE).equal(), verifier.verify(TABLE).toString());

        // a copy of row 1 per column; on the central database, each copy gets one column changed: verify names each
        List<String> columns = rows(remote, "select name from oneway.stored_columns('shop.everything') where name not in ('id', 'serial_id')")
                .stream().map(r -> (String) r.get("name")).toList();
        String list = String.join(", ", columns.stream().map(c -> "\"" + c + "\"").toList());
        write("insert into shop.everything (id, " + list + ") select 100 + k, " + list + " from shop.everything, generate_series(0, "
                + (columns.size() - 1) + ") k where id = 1");
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
        assertTrue(verifier.verify(TABLE).equal(), verifier.verify(TABLE).toString());
        for (int k = 0; k < columns.size(); k++) {
            String quoted = "\"" + columns.get(k) + "\"";
            // takes row 3's value (mostly NULL, JSON null's counterpart in jb) or, where that is the same, row 2's
            repair(fixture.central(), "test: plant a difference in " + columns.get(k), "update shop.everything set " + quoted
                    + " = (select case when (select " + quoted + "::text from shop.everything where id = 3) is distinct from " + quoted
                    + "::text then (select " + quoted + " from shop.everything where id = 3) else (select " + quoted
                    + " from shop.everything where id = 2) end) where id = " + (100 + k));
        }
        TableResult planted = verifier.verify(TABLE);
        for (int k = 0; k < columns.size(); k++) {
            String expected = "{\"id\": \"" + (100 + k) + "\"} (differs in " + columns.get(k) + ")";
            assertTrue(planted.toString().contains(expected), expected + " in " + planted);
        }
    }

    @Test
    @Order(2)
    void a_snapshot_of_every_type_makes_a_stale_central_table_equal_value_for_value() throws Exception {
        // the first test left a difference planted in every column; the central database also lacks a row and has one of its own
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
        repair(fixture.central(), "test: stale rows before a snapshot", "delete from shop.everything where id = 2",
                "insert into shop.everything (id, t) values (5000, 'only on central')");
        assertTrue(!new Verifier(remote, fixture.central(), 10).verify(TABLE).equal());

        exec(remote, "select oneway.start_snapshot('shop.everything', null, null, 3, 524288)");
        await().atMost(Duration.ofSeconds(60)).until(() -> "done".equals(rows(remote, "select state from oneway.snapshot").get(0).get("state")));
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));

        assertEquals(textForms(remote), textForms(fixture.central()), "every column's text form, row by row");
        assertTrue(new Verifier(remote, fixture.central(), 10).verify(TABLE).equal());
        assertTrue(number(remote, "select chunks_done from oneway.snapshot") > 10, "in many chunks of 3 rows");
    }

    @Test
    @Order(3)
    void the_central_identity_sequence_follows_the_remotes_and_never_goes_back() {
        String last = "coalesce(pg_sequence_last_value(pg_get_serial_sequence('shop.everything', 'serial_id')::regclass), 0)";
        write("insert into shop.everything (id) values (1000), (1001)");
        long remoteLast = number(remote, "select " + last);
        await().atMost(Duration.ofSeconds(60)).until(() -> number(fixture.central(), "select " + last) == remoteLast);

        exec(fixture.central(), "select setval(pg_get_serial_sequence('shop.everything', 'serial_id'), 100000)");
        long logged = number(fixture.central(), "select count(*) from oneway.receive_log where op = 'Q'");
        write("insert into shop.everything (id) values (1002)");
        await().atMost(Duration.ofSeconds(60)).until(() -> number(fixture.central(), "select count(*) from oneway.receive_log where op = 'Q'") > logged);
        assertEquals(100000, number(fixture.central(), "select " + last), "never backwards");
    }

    /** Runs a statement on the remote with the writer's own settings. */
    private static void write(String statement) {
        exec(remote, "do $do$ begin " + WRITER_SETTINGS + statement + "; end $do$");
    }

    /** Every row as its text form, under one fixed set of settings. */
    private static List<Map<String, Object>> textForms(DataSource db) throws Exception {
        try (Connection c = db.getConnection()) {
            exec(c, "set intervalstyle = 'postgres'; set bytea_output = 'hex'; set extra_float_digits = 3; set xmloption = 'content'");
            return io.oneway.testing.Sql.rows(c, "select id, t::text as row from shop.everything t order by id");
        }
    }

    private static String schema() {
        try {
            return new String(ExactValuesCases.class.getResourceAsStream("/everything-schema.sql").readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
