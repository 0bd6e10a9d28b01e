package io.oneway.replication;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.apache.camel.health.HealthCheck;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.oneway.capture.CaptureGaps;
import io.oneway.ops.HaltWatch;
import io.oneway.ops.Verifier;
import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.ReplicationFixture;

/**
 * The cases of PartitionedTableIT (capture by trigger) and WalPartitionedTableIT (from the WAL): a
 * partitioned table is captured and applied as one table. Rows written through the table or
 * straight into a partition, rows moved between partitions by an update, and a partition made
 * after capture was switched on all arrive; a TRUNCATE of any partition, made before or after,
 * is refused as the table's is; a partition made unlogged or given another replica identity is
 * a capture gap from the WAL (and none by trigger); on the central database a partition, one
 * made or attached later too, refuses other writers as its table does. A table attached as a
 * partition with rows in it tells its writer that those rows are not replicated, and the
 * transfer's health check and status tell it until an operator clears the alarm; a snapshot of
 * the table brings them over; a partition detached or dropped tells its writer that its rows
 * stay on the central database.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class PartitionedTableCases {

    private static final String TABLE = "shop.events";
    private static ReplicationFixture fixture;
    private static DataSource remote;
    private static boolean fromWal;

    /** Both replicators running on a partitioned table; with fromWal it is captured from the WAL. */
    static void start(boolean wal) {
        fromWal = wal;
        List<String> tables = new ArrayList<>(ReplicationFixture.TABLES);
        tables.add(TABLE);
        fixture = new ReplicationFixture("branch1").with("oneway.apply.tables", String.join(",", tables));
        if (fromWal) {
            fixture.fromWal();
        }
        remote = fixture.remote("branch1");
        for (DataSource db : List.of(remote, fixture.central())) {
            exec(db, "create table shop.events (id bigint, region text, note text, at timestamptz default now(), primary key (id, region)) "
                    + "partition by list (region)");
            exec(db, "create table shop.events_north partition of shop.events for values in ('north')");
            exec(db, "create table shop.events_south partition of shop.events for values in ('south')");
        }
        // the central copy may be partitioned otherwise: a partition made there later needs no step on the remote
        exec(fixture.central(), "create table shop.events_west partition of shop.events for values in ('west')");
        exec(fixture.central(), "select oneway.enable_apply('shop.events', 'branch1')");
        ReplicationFixture.running("branch1", fixture);
        if (fromWal) {
            fixture.captureFromWal("branch1", TABLE);
        } else {
            exec(remote, "select oneway.enable_capture('shop.events')");
        }
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    @Order(1)
    void rows_through_the_table_or_its_partitions_moved_between_them_or_in_a_later_partition_arrive_and_truncate_is_refused() throws Exception {
        exec(remote, "insert into shop.events(id, region, note) select g, case when g % 2 = 0 then 'north' else 'south' end, 'e' || g "
                + "from generate_series(1, 200) g");
        exec(remote, "insert into shop.events_south(id, region, note) values (1001, 'south', 'straight into a partition')");
        exec(remote, "update shop.events set region = 'south', note = 'moved' where id between 1 and 20 and region = 'north'");
        exec(remote, "delete from shop.events where id between 21 and 30");
        exec(remote, "create table shop.events_west partition of shop.events for values in ('west')");
        exec(remote, "insert into shop.events(id, region, note) values (2001, 'west', 'in a later partition')");
        exec(remote, "update shop.events set region = 'west' where id between 31 and 40");
        exec(remote, "update shop.events_west set note = 'updated in the partition' where id = 2001");

        for (String partition : List.of("shop.events_north", "shop.events_west")) {
            SQLException e = assertThrows(SQLException.class, () -> {
                try (Connection c = remote.getConnection()) {
                    exec(c, "truncate " + partition);
                }
            }, partition);
            assertEquals("0A000", e.getSQLState(), partition);
        }
        assertNull(new CaptureGaps(remote).problem(), "every partition guarded: no capture gap");
        // a partition may be unlogged (its table, in the publication, may not): by trigger it is captured as any, from the WAL not at all
        exec(remote, "alter table shop.events_south set unlogged");
        String unlogged = new CaptureGaps(remote).problem();
        if (fromWal) {
            assertEquals("capture is not in force for shop.events: its partition shop.events_south's changes are not written to the WAL "
                    + "(it was made unlogged), so they cannot be captured from it (alter table shop.events_south set logged "
                    + "puts it back; the changes made meanwhile were not captured: ./oneway snapshot shop.events then makes the central "
                    + "copy equal)", unlogged);
        } else {
            assertNull(unlogged);
        }
        exec(remote, "alter table shop.events_south set logged");
        exec(remote, "alter table shop.events_north replica identity full");
        String identity = new CaptureGaps(remote).problem();
        if (fromWal) {
            assertEquals("capture is not in force for shop.events: its partition shop.events_north's replica identity is no longer its "
                    + "primary key, so the WAL does not name the rows it changes by their key (alter table shop.events_north replica "
                    + "identity default puts it back)", identity);
        } else {
            assertNull(identity);
        }
        exec(remote, "alter table shop.events_north replica identity default");

        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));
        List<TableResult> results = new Verifier(remote, fixture.central(), 10).verify(List.of(TABLE));
        assertTrue(results.get(0).equal(), results.toString());
        assertEquals(number(remote, "select count(*) from shop.events"), number(fixture.central(), "select count(*) from shop.events"));
        assertEquals(10, number(fixture.central(), "select count(*) from shop.events_west where id between 31 and 40"));
        assertEquals(0, number(fixture.central(), "select count(*) from oneway.source_progress where halted"));
    }

    @Test
    @Order(2)
    void on_the_central_database_a_partition_refuses_other_writers_as_its_table_does() {
        for (String target : List.of("shop.events", "shop.events_north", "shop.events_west")) {
            SQLException e = assertThrows(SQLException.class, () -> {
                try (Connection c = fixture.central().getConnection()) {
                    exec(c, "insert into " + target + "(id, region) values (-1, '" + (target.endsWith("west") ? "west" : "north") + "')");
                }
            }, target);
            assertTrue(e.getMessage().contains("read-only"), target + ": " + e.getMessage());
        }
    }

    @Test
    @Order(3)
    void a_table_attached_with_rows_warns_its_writer_and_a_snapshot_of_the_table_brings_them_over() throws Exception {
        // a partition made later on the central database is read-only as its table is, without enable_apply again
        // (made as a partition, or attached as one)
        exec(fixture.central(), "create table shop.events_east partition of shop.events for values in ('east')");
        exec(fixture.central(), "create table shop.events_far (like shop.events including all)");
        exec(fixture.central(), "alter table shop.events attach partition shop.events_far for values in ('far')");
        for (String partition : List.of("shop.events_east", "shop.events_far")) {
            SQLException refused = assertThrows(SQLException.class, () -> {
                try (Connection c = fixture.central().getConnection()) {
                    exec(c, "insert into " + partition + "(id, region) values (-2, '" + partition.substring("shop.events_".length()) + "')");
                }
            });
            assertTrue(refused.getMessage().contains("read-only"), partition + ": " + refused.getMessage());
        }
        try (Connection c = remote.getConnection(); Statement st = c.createStatement()) {
            st.execute("create table shop.events_east (like shop.events including all)");
            st.execute("insert into shop.events_east(id, region, note) select g, 'east', 'held before the attach' from generate_series(3001, 3050) g");
            st.execute("alter table shop.events attach partition shop.events_east for values in ('east')");
            assertWarned(st, "the rows partition shop.events_east held when attached are not replicated");
        }
        // not only its writer is told: the central copy lacks rows until a snapshot, which health and status say
        await("the transfer's health check tells the rows the central database lacks").atMost(Duration.ofSeconds(30)).until(() ->
                transferHealth().getState() == HealthCheck.State.DOWN);
        String told = transferHealth().getMessage().orElse("");
        assertTrue(told.contains("Central copy INCOMPLETE") && told.contains("shop.events_east") && told.contains("./oneway snapshot shop.events"), told);
        exec(remote, "insert into shop.events(id, region, note) values (3051, 'east', 'after the attach')");
        SQLException e = assertThrows(SQLException.class, () -> {
            try (Connection c = remote.getConnection()) {
                exec(c, "truncate shop.events_east");
            }
        });
        assertEquals("0A000", e.getSQLState());
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));
        assertEquals(1, number(fixture.central(), "select count(*) from shop.events where region = 'east'"), "only the row written after");

        exec(remote, "select oneway.start_snapshot('shop.events')");
        await().atMost(Duration.ofMinutes(2)).until(() -> number(remote, "select count(*) from oneway.snapshot where state = 'running'") == 0);
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));
        List<TableResult> results = new Verifier(remote, fixture.central(), 10).verify(List.of(TABLE));
        assertTrue(results.get(0).equal(), results.toString());
        assertEquals(51, number(fixture.central(), "select count(*) from shop.events_east"));
        assertEquals(1L, number(remote, "select oneway.clear_alarms()"));
        await().atMost(Duration.ofSeconds(30)).until(() -> transferHealth().getState() == HealthCheck.State.UP);
    }

    @Test
    @Order(4)
    void a_partition_detached_or_dropped_warns_its_writer_that_its_rows_stay_on_the_central_database() throws Exception {
        long centralRows = number(fixture.central(), "select count(*) from shop.events");
        try (Connection c = remote.getConnection(); Statement st = c.createStatement()) {
            st.execute("alter table shop.events detach partition shop.events_east");
            assertWarned(st, "partition shop.events_east left a captured table: its rows stay on the central database");
            st.execute("truncate shop.events_east");
            assertNull(st.getWarnings(), "the detached table's TRUNCATE is its own again");
            st.execute("drop table shop.events_west");
            assertWarned(st, "partition shop.events_west of a captured table was dropped: its rows stay on the central database");
        }
        exec(remote, "insert into shop.events(id, region, note) values (4001, 'north', 'after the detach and the drop')");
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));
        assertEquals(centralRows + 1, number(fixture.central(), "select count(*) from shop.events"), "nothing removed there, the new row added");
        assertNull(new CaptureGaps(remote).problem());
        assertEquals(0, number(fixture.central(), "select count(*) from oneway.source_progress where halted"));
    }

    private static HealthCheck.Result transferHealth() {
        return fixture.remoteBean("branch1", "transferWatch", HaltWatch.class).call();
    }

    private static void assertWarned(Statement st, String text) throws SQLException {
        SQLWarning warning = st.getWarnings();
        assertTrue(warning != null && warning.getMessage().contains(text), String.valueOf(warning));
        st.clearWarnings();
    }
}
