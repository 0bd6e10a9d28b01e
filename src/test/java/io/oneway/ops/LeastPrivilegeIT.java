package io.oneway.ops;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.oneway.testing.ReplicationFixture;

/** SPEC §10: writers need no rights on Oneway's schema; the sender runs as oneway_sender and the central replicator as oneway_applier, writing only enabled tables. */
class LeastPrivilegeIT {

    private static ReplicationFixture fixture;
    private static String remoteUrl;
    private static String centralUrl;

    @BeforeAll
    static void start() throws Exception {
        fixture = new ReplicationFixture("branch1");
        exec(fixture.remote("branch1"), "do $$ begin if not exists (select from pg_roles where rolname = 'shop_app') then "
                + "create user shop_app password 'app-pw'; create user oneway_branch1 password 'sender-pw' in role oneway_sender; end if; end $$");
        exec(fixture.remote("branch1"), "grant usage on schema shop to shop_app; grant select, insert, update, delete on all tables in schema shop to shop_app");
        exec(fixture.central(), "do $$ begin if not exists (select from pg_roles where rolname = 'oneway_central') then "
                + "create user oneway_central password 'applier-pw' in role oneway_applier; end if; end $$");
        remoteUrl = jdbcUrl(fixture.remote("branch1"));
        centralUrl = jdbcUrl(fixture.central());
        Properties applier = new Properties();
        applier.setProperty("oneway.central.user", "oneway_central");
        applier.setProperty("oneway.central.password", "applier-pw");
        fixture.startCentral(applier);
        Properties sender = new Properties();
        sender.setProperty("oneway.remote.user", "oneway_branch1");
        sender.setProperty("oneway.remote.password", "sender-pw");
        fixture.startRemote("branch1", sender);
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    void a_writer_without_rights_on_oneway_is_captured_and_replicated_by_a_sender_and_an_applier_with_only_their_roles() throws Exception {
        try (Connection app = DriverManager.getConnection(remoteUrl, "shop_app", "app-pw")) {
            exec(app, "insert into shop.customers(id, name) values (1, 'written by the application')");
            exec(app, "update shop.customers set balance = 5 where id = 1");
        }
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
        assertEquals(5, number(fixture.central(), "select balance from shop.customers where id = 1"));
    }

    @Test
    void a_writer_can_neither_forge_nor_block_changes() throws Exception {
        try (Connection app = DriverManager.getConnection(remoteUrl, "shop_app", "app-pw")) {
            SQLException forge = assertThrows(SQLException.class,
                    () -> exec(app, "insert into oneway.change_log(object_type, object_id, op) values ('shop.customers', '{\"id\": 9}', 'D')"));
            assertEquals("42501", forge.getSQLState());
            SQLException block = assertThrows(SQLException.class, () -> exec(app, "select oneway.block_change(1)"));
            assertEquals("42501", block.getSQLState());
        }
    }

    @Test
    void the_apply_role_may_write_enabled_tables_only_and_only_as_a_replica() throws Exception {
        try (Connection applier = DriverManager.getConnection(centralUrl, "oneway_central", "applier-pw")) {
            applier.setAutoCommit(false);
            SQLException readOnly = assertThrows(SQLException.class, () -> exec(applier, "insert into shop.customers(id, name) values (99, 'x')"));
            assertEquals("25006", readOnly.getSQLState(), "replicated tables are read-only but to the applier's replica transactions");
            applier.rollback();
            exec(applier, "set local session_replication_role = replica");
            exec(applier, "insert into shop.customers(id, name) values (99, 'granted')");
            SQLException denied = assertThrows(SQLException.class, () -> exec(applier, "insert into shop.not_replicated values (1, 'x')"));
            assertEquals("42501", denied.getSQLState());
            applier.rollback();
            SQLException schema = assertThrows(SQLException.class, () -> exec(applier, "delete from oneway.skipped_change"));
            assertTrue("42501".equals(schema.getSQLState()), schema.getMessage());
        }
    }

    /** README "Deployment", step 2: the replicated table owned by oneway_applier, as the operator makes it there. */
    @Test
    void a_schema_change_of_a_table_the_apply_role_owns_is_applied_by_the_least_privileged_replicator_itself() {
        exec(fixture.central(), "alter table shop.tags owner to oneway_applier");
        exec(fixture.remote("branch1"), "alter table shop.tags add column colour text default 'none'");
        exec(fixture.remote("branch1"), "insert into shop.tags(id, label, colour) values (7, 'seven', 'red')");
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
        assertEquals("red", value(fixture.central(), "select colour from shop.tags where id = 7"));
        assertEquals(0, number(fixture.central(), "select count(*) from oneway.source_progress where halted"));
    }

    private static String jdbcUrl(javax.sql.DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return c.getMetaData().getURL();
        }
    }
}
