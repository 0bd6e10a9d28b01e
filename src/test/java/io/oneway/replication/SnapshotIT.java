package io.oneway.replication;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.repair;
import static io.oneway.testing.Sql.rows;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.oneway.ops.OnewayCommand;
import io.oneway.ops.Settings;
import io.oneway.ops.Verifier;
import io.oneway.ops.Verifier.TableResult;
import io.oneway.snapshot.SnapshotProgress;
import io.oneway.support.SqlScript;
import io.oneway.testing.BackgroundWriter;
import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ShopWriter;

/**
 * Issue "Onboarding and repair": tables whose rows exist only on the remote (or differ on the
 * central database) are brought to equality through the ordered log while two writers change
 * them, over a lossy link, with each side restarted in the middle; every live change is applied
 * exactly once. A repair reloads only the buckets verify found different; a snapshot that cannot
 * take its lock waits visibly and can be cancelled.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SnapshotIT {

    private static final int CUSTOMERS = 20_000;
    private static final int ORDERS = 2_000;
    private static final int LINES_PER_ORDER = 5;
    private static final long BULK = 5_000_000;
    private static ReplicationFixture fixture;
    private static DataSource remote;
    private static Settings settings;

    @BeforeAll
    static void start() {
        fixture = ReplicationFixture.running("branch1", new ReplicationFixture("branch1").lossy(0.05, 0.05, 0.01, 8)
                .with("oneway.snapshot.chunk-rows", "500"));
        remote = fixture.remote("branch1");
        settings = Settings.load(Path.of(""), null).with(fixture.commandSettings("branch1"))
                .with(Map.of("oneway.snapshot.chunk-rows", "500"));
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    @Order(1)
    void tables_onboarded_while_two_writers_change_them_over_a_lossy_link_with_both_sides_restarted_end_equal() throws Exception {
        // customers and order lines exist on the remote only: captured from now on, not before
        exec(remote, "select oneway.disable_capture('shop.customers'), oneway.disable_capture('shop.order_lines')");
        exec(remote, "insert into shop.customers(id, name, email, balance, tags, prefs) select ? + g, 'bulk ' || g, g || '@example.org', g, "
                + "array['a', g::text], jsonb_build_object('g', g, 'n', null) from generate_series(1, ?) g", BULK, CUSTOMERS);
        exec(remote, "insert into shop.orders(id, customer_id, amount, status) select ? + g, ? + g, g, 'bulk' from generate_series(1, ?) g",
                BULK, BULK, ORDERS);
        exec(remote, "insert into shop.order_lines(order_id, line_no, product, qty) select ? + o, l, 'p' || l, l "
                + "from generate_series(1, ?) o, generate_series(1, ?) l", BULK, ORDERS, LINES_PER_ORDER);
        // and the central database holds stale rows: one the remote never had, one with other values (a line of an order it has)
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));
        repair(fixture.central(), "test: stale central rows before onboarding",
                "insert into shop.customers(id, name) values (" + (BULK + CUSTOMERS + 100) + ", 'only on central'), (" + (BULK + 7) + ", 'stale')",
                "insert into shop.order_lines(order_id, line_no, product, qty) values (" + (BULK + 1) + ", 99, 'only on central', 1)");

        try (BackgroundWriter first = new BackgroundWriter(new ShopWriter(remote, 1_000_000, 11), 50);
                BackgroundWriter second = new BackgroundWriter(new ShopWriter(remote, 2_000_000, 12), 50)) {
            assertEquals(0, OnewayCommand.run(settings, "onboard", List.of("shop.customers")));
            assertEquals(0, OnewayCommand.run(settings, "onboard", List.of("shop.order_lines")));

            await().atMost(Duration.ofMinutes(3)).until(() -> rowsDone("shop.customers") > CUSTOMERS / 3);
            fixture.stopCentral();
            fixture.startCentral();
            await().atMost(Duration.ofMinutes(3)).until(() -> rowsDone("shop.order_lines") > 0);
            fixture.stopRemote("branch1");
            fixture.startRemote("branch1");
            await().atMost(Duration.ofMinutes(5)).until(() -> "done".equals(state("shop.customers")) && "done".equals(state("shop.order_lines")));
            assertTrue(first.stop() > 0 && second.stop() > 0, "both writers wrote throughout");
        }

        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(3));
        for (TableResult r : fixture.verify("branch1")) {
            assertTrue(r.equal(), r.toString());
        }
        assertEquals(0, number(fixture.central(), "select count(*) from oneway.snapshot_state"), "the snapshots ended on the central side");
        long positions = number(remote, "select last_position from oneway.position_counter");
        assertEquals(positions, number(fixture.central(), "select count(*) from oneway.receive_log where source_id = 'branch1'"));
        assertEquals(positions, number(fixture.central(), "select count(distinct position) from oneway.receive_log where source_id = 'branch1'"),
                "every change, live or snapshot, applied exactly once");
        List<Map<String, Object>> status = rows(remote, SqlScript.load("remote/queries/read-snapshots.sql"));
        assertEquals(2, status.size(), status.toString());
        assertTrue(status.stream().allMatch(r -> "done".equals(r.get("state")) && String.valueOf(r.get("progress")).contains("(100 %)")),
                "status shows both done: " + status);
    }

    @Test
    @Order(2)
    void verify_repair_reloads_only_the_buckets_that_differ_and_verifies_equal() throws Exception {
        // the text of this key hashes to the least integer, whose abs() was "integer out of range" wherever a bucket was made
        exec(remote, "insert into shop.customers(id, name) values (3112781969, 'its key hashes to -2147483648')");
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));
        long total = number(remote, "select count(*) from shop.customers");
        repair(fixture.central(), "test: differences made by hand",
                "delete from shop.customers where id in (" + (BULK + 5_010) + ", " + (BULK + 5_011) + ")",
                "update shop.customers set name = 'changed by hand' where id in (3112781969, " + (BULK + 5_012) + ")",
                "insert into shop.customers(id, name) values (" + (BULK + CUSTOMERS + 200) + ", 'added by hand')");
        TableResult before = new Verifier(remote, fixture.central(), 10).verify("shop.customers");
        assertTrue(before.differingKeys().contains("{\"id\": \"3112781969\"} (differs in name)"), before.toString());

        // chunks of 100 rows: a bucket of this table (about 400) takes several, each bounded by keys as well as by its bucket
        assertEquals(0, OnewayCommand.run(settings.with(Map.of("oneway.snapshot.chunk-rows", "100")), "verify", List.of("--repair", "shop.customers")));

        assertTrue(new Verifier(remote, fixture.central(), 10).verify("shop.customers").equal());
        Map<String, Object> snapshot = rows(remote, "select buckets, cardinality(wanted) as wanted, rows_total, chunks_done, state from oneway.snapshot "
                + "where table_name = 'shop.customers'").get(0);
        assertTrue(((Number) snapshot.get("chunks_done")).longValue() > 2 * ((Number) snapshot.get("wanted")).longValue(),
                "several chunks to a bucket: " + snapshot);
        assertEquals(Verifier.BUCKETS, ((Number) snapshot.get("buckets")).intValue());
        assertTrue(((Number) snapshot.get("wanted")).intValue() <= 5, "at most the 5 buckets of the 5 keys: " + snapshot);
        assertTrue(((Number) snapshot.get("rows_total")).longValue() < total / 4, "a part of the table reloaded: " + snapshot + " of " + total);
    }

    @Test
    @Order(3)
    void a_snapshot_with_a_condition_reloads_the_matching_rows_and_removes_rows_the_remote_lacks_leaving_the_others() throws Exception {
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));
        repair(fixture.central(), "test: differences inside and outside the condition",
                "update shop.customers set name = 'stale, matching' where id = " + (BULK + 5_050),
                "update shop.customers set name = 'stale, not matching' where id = " + (BULK + 500),
                "delete from shop.customers where id = " + (BULK + 5_060),
                "insert into shop.customers(id, name, balance) values (" + (BULK + CUSTOMERS + 300) + ", 'only on central', 5050)");
        SQLException wrong = assertThrows(SQLException.class,
                () -> OnewayCommand.run(settings, "snapshot", List.of("shop.customers", "where", "no_such_column > 1")));
        assertTrue(wrong.getMessage().contains("does not work on shop.customers"), wrong.getMessage());

        assertEquals(0, OnewayCommand.run(settings, "snapshot", List.of("shop.customers", "where", "balance between 5000 and 5099")));
        await().atMost(Duration.ofMinutes(2)).until(() -> "done".equals(state("shop.customers")));
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));

        TableResult r = new Verifier(remote, fixture.central(), 10).verify("shop.customers");
        assertEquals(List.of("{\"id\": \"" + (BULK + 500) + "\"} (differs in name)"), r.differingKeys(),
                "only the row outside the condition is left as it was: " + r);
        assertEquals(0, OnewayCommand.run(settings, "verify", List.of("--repair", "shop.customers")));
    }

    @Test
    @Order(4)
    void a_snapshot_kept_from_its_lock_by_a_long_writer_waits_visibly_and_can_be_cancelled() throws Exception {
        SnapshotProgress progress = fixture.remoteBean("branch1", "snapshotProgress", SnapshotProgress.class);
        try (Connection writer = remote.getConnection()) {
            writer.setAutoCommit(false);
            exec(writer, "update shop.tags set label = label where false");
            exec(writer, "lock table shop.tags in row exclusive mode");
            assertEquals(0, OnewayCommand.run(settings, "snapshot", List.of("shop.tags")));
            await().atMost(Duration.ofSeconds(30)).until(() -> number(fixture.central(),
                    "select count(*) from oneway.snapshot_state where table_name = 'shop.tags'") == 1);
            assertEquals(0L, number(remote, "select chunks_done from oneway.snapshot where table_name = 'shop.tags'"),
                    "no chunk while a writer holds the table");
            Object writerPid = rows(writer, "select pg_backend_pid() as pid").get(0).get("pid");
            await().atMost(Duration.ofSeconds(30)).until(() -> String.valueOf(snapshotStatus("shop.tags").get("waiting"))
                    .matches("for the table's SHARE lock for \\d+ s: writers hold it \\(pid " + writerPid + "\\)"));
            await().atMost(Duration.ofSeconds(30)).until(() -> progress.lockWaitSeconds("shop.tags") >= 1);
            assertEquals(0, OnewayCommand.run(settings, "cancel-snapshot", List.of("shop.tags")));
            writer.rollback();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> number(fixture.central(),
                "select count(*) from oneway.snapshot_state where table_name = 'shop.tags'") == 0);
        assertEquals("cancelled", state("shop.tags"));
        await("the cancelled snapshot's wait ends").atMost(Duration.ofSeconds(30)).until(() -> progress.lockWaitSeconds("shop.tags") == 0);
        SQLException refused = assertThrows(SQLException.class, () -> OnewayCommand.run(settings, "cancel-snapshot", List.of("shop.tags")));
        assertTrue(refused.getMessage().contains("no snapshot of shop.tags is running"), refused.getMessage());
    }

    @Test
    @Order(5)
    void rows_wider_than_a_chunk_go_one_to_a_chunk_and_arrive_exactly() throws Exception {
        long first = BULK + 6_000;
        exec(remote, "update shop.customers set name = repeat('w', 400000) || id where id between ? and ?", first, first + 4);
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));
        repair(fixture.central(), "test: wide rows stale or missing on the central database",
                "update shop.customers set name = 'stale' where id between " + first + " and " + (first + 3),
                "delete from shop.customers where id = " + (first + 4));
        long before = number(remote, "select coalesce(max(log_id), 0) from oneway.change_log");

        assertEquals(0, OnewayCommand.run(settings, "snapshot", List.of("shop.customers")));
        await().atMost(Duration.ofMinutes(3)).until(() -> "done".equals(state("shop.customers")));
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));

        assertTrue(new Verifier(remote, fixture.central(), 10).verify("shop.customers").equal());
        List<Map<String, Object>> wide = rows(remote, "select jsonb_array_length(row_image->'rows') as rows from oneway.change_log l "
                + "where log_id > ? and op = 'C' and exists (select from jsonb_array_elements(l.row_image->'rows') r "
                + "where octet_length(r->>'name') > 262144)", before);
        assertEquals(5, wide.size(), "a chunk for each row over oneway.snapshot.chunk-bytes: " + wide);
        assertTrue(wide.stream().allMatch(r -> ((Number) r.get("rows")).intValue() == 1), "each alone: " + wide);
    }

    @Test
    @Order(6)
    void a_repair_waits_for_the_position_of_its_last_chunk_before_it_verifies_again() throws Exception {
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));
        repair(fixture.central(), "test: a difference for a repair whose chunks are positioned late",
                "update shop.customers set name = 'stale' where id = " + (BULK + 5_100));
        // the remote replicator is stopped: its chunks are logged here by hand, and nothing gives them positions
        fixture.stopRemote("branch1");
        ExecutorService command = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> repaired = command.submit(() -> OnewayCommand.run(settings, "verify", List.of("--repair", "shop.customers")));
            await().atMost(Duration.ofSeconds(30)).until(() -> "running".equals(state("shop.customers")));
            await().atMost(Duration.ofSeconds(30)).until(() -> "done".equals(
                    rows(remote, "select outcome from oneway.snapshot_chunk(1000)").stream().map(r -> r.get("outcome")).findFirst().orElse(null)));
            assertEquals(0L, number(remote, "select count(*) from oneway.change_position p join oneway.snapshot s "
                    + "on p.log_id = s.recent_chunks[cardinality(s.recent_chunks)] where s.table_name = 'shop.customers'"),
                    "the last chunk has no position yet");
            await("the repair goes on waiting while its last chunk has no position").during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(5)).until(() -> !repaired.isDone());

            fixture.startRemote("branch1");
            assertEquals(0, repaired.get(2, TimeUnit.MINUTES), "equal once the central database applied the last chunk");
        } finally {
            command.shutdownNow();
        }
        assertTrue(new Verifier(remote, fixture.central(), 10).verify("shop.customers").equal());
    }

    private static Map<String, Object> snapshotStatus(String table) {
        return rows(remote, SqlScript.load("remote/queries/read-snapshots.sql")).stream()
                .filter(r -> table.equals(r.get("snapshot"))).findFirst().orElseThrow();
    }

    private static long rowsDone(String table) {
        return number(remote, "select coalesce(max(rows_done), 0) from oneway.snapshot where table_name = ?", table);
    }

    private static String state(String table) {
        List<Map<String, Object>> r = rows(remote, "select state from oneway.snapshot where table_name = ?", table);
        return r.isEmpty() ? null : (String) r.get(0).get("state");
    }
}
