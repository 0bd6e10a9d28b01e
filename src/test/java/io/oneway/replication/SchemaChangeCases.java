package io.oneway.replication;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.rows;
import static io.oneway.testing.Sql.value;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.oneway.ops.OnewayCommand;
import io.oneway.ops.Settings;
import io.oneway.ops.Verifier;
import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.BackgroundWriter;
import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ShopWriter;

/**
 * The cases of SchemaChangeIT (capture by trigger) and WalSchemaChangeIT (from the WAL). SPEC §5
 * schema changes, through a link that drops, duplicates, reorders and corrupts: DDL of captured tables travels in position order between the data changes; additive changes are
 * applied by themselves while writers go on; a change the policy leaves to an operator halts
 * the source at it with the statement, and resume goes on, without a restart, once the tables
 * match; a key renamed on the remote never breaks its writes; a generated column defined
 * differently is reported at enable.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class SchemaChangeCases {

    private static final List<String> TABLES = List.of("shop.customers", "shop.orders", "shop.order_lines", "shop.tags", "shop.gen");
    private static ReplicationFixture fixture;
    private static DataSource remote;
    private static Settings settings;

    /** Starts both replicators; with fromWal, the shop tables are captured from the WAL, shop.gen (enabled later) by its trigger. */
    static void start(boolean fromWal) {
        fixture = new ReplicationFixture("branch1").lossy(0.1, 0.1, 0.02, 10).with("oneway.apply.tables", String.join(",", TABLES));
        if (fromWal) {
            fixture.fromWal();
        }
        remote = fixture.remote("branch1");
        exec(remote, "create table shop.gen (id int primary key, v int, g int)");
        exec(fixture.central(), "create table shop.gen (id int primary key, v int, g int generated always as (v * 2) stored)");
        exec(fixture.central(), "select oneway.enable_apply('shop.gen', 'branch1')");
        ReplicationFixture.running("branch1", fixture);
        if (fromWal) {
            fixture.captureFromWal("branch1", "shop.customers", "shop.orders", "shop.order_lines", "shop.tags");
        }
        settings = Settings.load(Path.of(""), null).with(fixture.commandSettings("branch1"));
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    @Order(1)
    void additive_changes_between_data_changes_of_running_writers_are_applied_in_place() throws Exception {
        try (BackgroundWriter writer = new BackgroundWriter(new ShopWriter(remote, 1_000_000, 7), 50)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> applied() > 500);
            exec(remote, "alter table shop.customers add column loyalty int not null default 5");
            exec(remote, "update shop.customers set loyalty = 7 where id = 1");
            exec(remote, "alter table shop.order_lines alter column qty type bigint");
            exec(remote, "alter table shop.customers alter column email set default 'none@example.org'");
            exec(remote, "insert into shop.customers(id, name) values (900001, 'after the changes')");
            long afterChanges = number(remote, "select count(*) from oneway.change_log");
            await().atMost(Duration.ofSeconds(60)).until(() -> number(remote, "select last_position from oneway.position_counter") > afterChanges);
            assertTrue(writer.stop() > 500);
        }
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(3));

        assertEquals(0, number(fixture.central(), "select count(*) from oneway.source_progress where halted"));
        assertEquals("none@example.org", value(fixture.central(), "select email from shop.customers where id = 900001"));
        assertEquals(7, number(fixture.central(), "select loyalty from shop.customers where id = 1"));
        assertEquals("bigint", value(fixture.central(), "select format_type(atttypid, atttypmod) from pg_attribute "
                + "where attrelid = 'shop.order_lines'::regclass and attname = 'qty'"));
        assertEquals(4 + 3, number(fixture.central(), "select count(*) from oneway.receive_log where op = 'S'"), "capture enabled on four tables, three changes");
        assertAllEqual();
    }

    @Test
    @Order(2)
    void a_dropped_column_halts_at_its_position_and_resume_goes_on_once_the_central_table_matches() throws Exception {
        exec(remote, "insert into shop.tags values (1, 'red')");
        exec(remote, "alter table shop.tags drop column label");
        exec(remote, "insert into shop.tags values (2)");
        String reason = awaitHalted();
        assertTrue(reason.contains("alter table shop.tags drop column label") && reason.contains("column label is here but no longer on the remote")
                && reason.contains("drop column label: not applied by policy additive"), reason);
        assertEquals(1, number(fixture.central(), "select count(*) from shop.tags"), "the insert before it was applied, the one after not");

        exec(fixture.central(), "alter table shop.tags drop column label");
        assertEquals(0, OnewayCommand.run(settings, "resume", List.of("branch1")));
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
        assertAllEqual();
    }

    @Test
    @Order(3)
    void a_renamed_key_keeps_the_remotes_writes_working_and_halts_until_the_central_key_is_renamed_too() throws Exception {
        exec(remote, "alter table shop.tags rename column id to tag_id");
        exec(remote, "insert into shop.tags values (3)");
        exec(remote, "update shop.tags set tag_id = 4 where tag_id = 3");
        String reason = awaitHalted();
        assertTrue(reason.contains("rename column tag_id") && reason.contains("column tag_id integer is missing here"), reason);

        exec(fixture.central(), "alter table shop.tags rename column id to tag_id");
        assertEquals(0, OnewayCommand.run(settings, "resume", List.of("branch1")));
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
        assertEquals(List.of(1, 2, 4), rows(fixture.central(), "select tag_id from shop.tags order by 1").stream().map(r -> r.get("tag_id")).toList());
        assertAllEqual();
    }

    @Test
    @Order(4)
    void a_generated_column_defined_differently_is_reported_when_capture_is_enabled() throws Exception {
        exec(remote, "select oneway.enable_capture('shop.gen')");
        exec(remote, "insert into shop.gen values (1, 10, 99)");
        String reason = awaitHalted();
        assertTrue(reason.contains("column g is generated here, not on the remote"), reason);

        exec(fixture.central(), "alter table shop.gen drop column g");
        exec(fixture.central(), "alter table shop.gen add column g int");
        assertEquals(0, OnewayCommand.run(settings, "resume", List.of("branch1")));
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
        assertEquals(99, number(fixture.central(), "select g from shop.gen where id = 1"));
        assertAllEqual();
    }

    private static String awaitHalted() {
        await().atMost(Duration.ofSeconds(60)).until(() -> number(fixture.central(), "select count(*) from oneway.source_progress where halted") == 1);
        return (String) value(fixture.central(), "select halt_reason from oneway.source_progress where source_id = 'branch1'");
    }

    private static long applied() {
        return number(fixture.central(), "select coalesce(max(applied_position), 0) from oneway.source_progress where source_id = 'branch1'");
    }

    private static void assertAllEqual() throws Exception {
        for (TableResult r : new Verifier(remote, fixture.central(), 10).verify(TABLES)) {
            assertTrue(r.equal(), r.toString());
        }
    }
}
