package io.oneway.ops;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.rows;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.oneway.apply.ChangeApplier;
import io.oneway.apply.SchemaChanges;
import io.oneway.apply.SequenceValues;
import io.oneway.apply.SnapshotLoader;
import io.oneway.apply.TableCatalog;
import io.oneway.ops.SchemaInstaller.Part;
import io.oneway.testing.PostgresFixture;
import io.oneway.testing.PostgresFixture.TestDatabase;
import io.oneway.wire.ChangeRecord;
import io.oneway.wire.Fingerprint;

/** Issue 16 and the founding document: replicated tables are read-only on the central database, but for the applier and a recorded repair session. */
class ReadOnlyIT {

    private DataSource central;
    private String url;

    @BeforeEach
    void centralWithAReplicatedTable() throws Exception {
        TestDatabase db = PostgresFixture.newDatabase("read_only", Part.CENTRAL);
        central = db.dataSource();
        url = db.jdbcUrl();
        exec(central, "create schema shop; create table shop.items(id int primary key, v text); create table shop.notes(id int primary key, v text)");
        exec(central, "insert into shop.items values (1, 'one'), (2, 'two'); insert into shop.notes values (1, 'n')");
        exec(central, "select oneway.enable_apply('shop.items', 'branch1')");
        exec(central, "do $$ begin if not exists (select from pg_roles where rolname = 'clerk') then create user clerk password 'clerk-pw'; "
                + "create user fixer password 'fixer-pw' in role oneway_repairer; end if; end $$");
        exec(central, "grant usage on schema shop to clerk, fixer; grant all on all tables in schema shop to clerk, fixer");
    }

    @Test
    void an_ordinary_users_insert_update_delete_and_truncate_are_refused_naming_the_table_and_source() throws Exception {
        try (Connection clerk = DriverManager.getConnection(url, "clerk", "clerk-pw")) {
            for (String write : List.of("insert into shop.items values (3, 'three')", "update shop.items set v = 'x' where id = 1",
                    "delete from shop.items where id = 2", "truncate shop.items")) {
                SQLException refused = assertThrows(SQLException.class, () -> exec(clerk, write), write);
                assertEquals("25006", refused.getSQLState(), write);
                assertTrue(refused.getMessage().contains("shop.items is replicated from source branch1: it is read-only on the central database"),
                        refused.getMessage());
                assertTrue(refused.getMessage().contains("oneway.begin_repair"), refused.getMessage());
            }
            assertThrows(SQLException.class, () -> exec(clerk, "select oneway.begin_repair('I just want to')"), "only repairers may repair");
        }
        assertEquals(List.of(Map.of("id", 1, "v", "one"), Map.of("id", 2, "v", "two")), rows(central, "select id, v from shop.items order by id"));
    }

    @Test
    void the_appliers_writes_pass() throws Exception {
        TableCatalog catalog = new TableCatalog("shop.items");
        ChangeApplier applier = new ChangeApplier(central, catalog, new SchemaChanges(catalog, "additive"), new SequenceValues(catalog), new SnapshotLoader(catalog), 100);
        applier.recordIncarnation("branch1", java.util.UUID.randomUUID().toString()); // its first message
        applier.apply("branch1", List.of(new ChangeRecord(1, 7, true, "shop.items", "U", false, "{\"id\": 1}", "{\"id\": 1, \"v\": \"applied\"}",
                "2026-11-30T10:00:00.000000Z", null)), Instant.now(), Set.of(), Fingerprint.START);
        assertEquals(1, number(central, "select count(*) from shop.items where v = 'applied'"));
        assertEquals(0, number(central, "select count(*) from oneway.repair_log"));
    }

    @Test
    void a_repair_session_may_write_and_every_row_it_writes_is_recorded_with_who_and_why() throws Exception {
        try (Connection fixer = DriverManager.getConnection(url, "fixer", "fixer-pw")) {
            exec(fixer, "select oneway.begin_repair('put back what the central database lost')");
            exec(fixer, "insert into shop.items values (3, 'three')");
            exec(fixer, "update shop.items set v = 'uno' where id = 1");
            exec(fixer, "delete from shop.items where id = 2");
            exec(fixer, "select oneway.end_repair()");
            SQLException again = assertThrows(SQLException.class, () -> exec(fixer, "insert into shop.items values (4, 'four')"));
            assertEquals("25006", again.getSQLState(), "closed again after end_repair");
        }
        assertEquals(List.of(Map.of("who", "fixer", "reason", "put back what the central database lost")),
                rows(central, "select who, reason from oneway.repair_session"));
        assertEquals(List.of(
                Map.of("op", "INSERT", "old", "null", "new", "{\"v\": \"three\", \"id\": 3}"),
                Map.of("op", "UPDATE", "old", "{\"v\": \"one\", \"id\": 1}", "new", "{\"v\": \"uno\", \"id\": 1}"),
                Map.of("op", "DELETE", "old", "{\"v\": \"two\", \"id\": 2}", "new", "null")),
                rows(central, "select l.op, coalesce(l.old_row::text, 'null') as old, coalesce(l.new_row::text, 'null') as new "
                        + "from oneway.repair_log l where l.table_name = 'shop.items' order by l.id"));
    }

    @Test
    void enabling_apply_beside_a_session_that_holds_the_table_and_changes_its_catalog_row_waits_for_it_instead_of_deadlocking() throws Exception {
        CompletableFuture<Void> enabling;
        try (Connection maintenance = central.getConnection()) {
            // what autovacuum's analyze of a freshly loaded table does (the bench's split phase met it): it holds the
            // table in share update exclusive mode, then updates the table's pg_class row
            maintenance.setAutoCommit(false);
            exec(maintenance, "lock table shop.notes in share update exclusive mode");
            enabling = CompletableFuture.runAsync(() -> exec(central, "select oneway.enable_apply('shop.notes', 'branch1')"));
            await().atMost(Duration.ofSeconds(30)).until(() -> number(central, "select count(*) from pg_stat_activity "
                    + "where wait_event_type = 'Lock' and query like '%enable_apply(''shop.notes''%'") == 1);
            // enable_apply's grants changed that row already when it took the table's lock only for its triggers: this
            // update then waited for enable_apply's transaction, which waited for this lock, and one of them was rolled back
            exec(maintenance, "grant select on shop.notes to clerk");
            maintenance.commit();
        }
        enabling.get(30, TimeUnit.SECONDS);
        assertEquals(1, number(central, "select count(*) from pg_trigger where tgrelid = 'shop.notes'::regclass and tgname = 'oneway_read_only'"));
        assertEquals(1, number(central, "select count(*) from oneway.replicated_table where table_name = 'shop.notes'"));
    }

    @Test
    void a_table_not_replicated_is_untouched_and_disabling_apply_removes_the_protection() throws Exception {
        try (Connection clerk = DriverManager.getConnection(url, "clerk", "clerk-pw")) {
            exec(clerk, "update shop.notes set v = 'free' where id = 1");
            exec(clerk, "truncate shop.notes");
            exec(central, "select oneway.disable_apply('shop.items')");
            exec(clerk, "insert into shop.items values (5, 'five')");
        }
        assertEquals(1, number(central, "select count(*) from shop.items where id = 5"));
        assertEquals(0, number(central, "select count(*) from oneway.repair_log"));
    }
}
