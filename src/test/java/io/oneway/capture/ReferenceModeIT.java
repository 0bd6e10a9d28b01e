package io.oneway.capture;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Random;
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

import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.ReplicationFixture;

/** SPEC §2 reference mode: the log holds the reference, the row is read when sent, and undelivered objects are protected. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReferenceModeIT {

    private static ReplicationFixture fixture;
    private static DataSource remote;

    @BeforeAll
    static void start() {
        fixture = new ReplicationFixture("branch1");
        remote = fixture.remote("branch1");
        exec(remote, "select oneway.enable_capture('shop.documents', 'reference')");
        fixture.startCentral();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    @Order(1)
    void a_later_change_of_an_object_with_an_undelivered_change_is_refused_naming_it() {
        exec(remote, "insert into shop.documents(id, title, body, scan) values (1, 'one', repeat('x', 100000), '\\x00ff')");
        exec(remote, "insert into shop.documents(id, title) values (2, 'two')");
        long pending = number(remote, "select log_id from oneway.change_log where object_id = '{\"id\": \"1\"}'");

        SQLException e = assertThrows(SQLException.class, () -> write("update shop.documents set title = 'one again' where id = 1"));
        assertEquals("OW001", e.getSQLState());
        assertTrue(e.getMessage().contains("log id " + pending) && e.getMessage().contains("shop.documents"), e.getMessage());
        assertEquals(1, number(remote, "select count(*) from shop.documents where title = 'one'"), "the refused change changed nothing");
        assertEquals(null, io.oneway.testing.Sql.value(remote, "select row_image from oneway.change_log where log_id = ?", pending),
                "the log holds only the reference");
    }

    @Test
    @Order(2)
    void consecutive_changes_of_one_object_are_allowed() throws Exception {
        write("update shop.documents set version = 2 where id = 2");
        try (Connection c = remote.getConnection()) {
            c.setAutoCommit(false);
            exec(c, "insert into shop.documents(id, title) values (3, 'three')");
            exec(c, "update shop.documents set version = 2 where id = 3");
            exec(c, "update shop.documents set version = 3 where id = 3");
            c.commit();
        }
        assertEquals(6, number(remote, "select count(*) from oneway.change_log where capture_mode = 'R'"));
    }

    @Test
    @Order(3)
    void once_the_change_is_acknowledged_the_object_may_change_again_and_the_current_rows_arrive() throws Exception {
        fixture.startRemote("branch1");
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(30));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> number(remote, "select acked_position from oneway.sender_state") == number(remote, "select max(position) from oneway.change_log_status"));

        write("update shop.documents set title = 'one again', version = 2 where id = 1");
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(30));
        assertAllEqual();
        assertEquals(3, number(fixture.central(), "select version from shop.documents where id = 3"));
    }

    @Test
    @Order(4)
    void a_row_deleted_after_its_change_was_logged_replicates_as_gone() throws Exception {
        fixture.stopRemote("branch1");
        write("insert into shop.documents(id, title) values (4, 'short-lived')");
        write("delete from shop.documents where id = 4");
        write("insert into shop.documents(id, title) values (5, 'five')");
        write("update shop.documents set title = 'five, edited' where id = 5");
        fixture.startRemote("branch1");

        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(30));
        assertEquals(0, number(fixture.central(), "select count(*) from shop.documents where id = 4"));
        assertEquals(0, number(fixture.central(), "select count(*) from oneway.source_progress where halted"));
        assertAllEqual();
    }

    @Test
    @Order(5)
    void replication_stays_exact_through_the_lossy_link_in_reference_mode() throws Exception {
        fixture.stopRemote("branch1");
        fixture.stopCentral();
        fixture.lossy(0.2, 0.2, 0.05, 50);
        fixture.startCentral();
        fixture.startRemote("branch1");

        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Integer> a = pool.submit(() -> writeDocuments(100, 1));
            Future<Integer> b = pool.submit(() -> writeDocuments(200_000, 2));
            assertTrue(a.get(3, TimeUnit.MINUTES) + b.get(3, TimeUnit.MINUTES) >= 2_000);
        } finally {
            pool.shutdownNow();
        }
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(3));
        assertAllEqual();
        long positions = number(remote, "select max(position) from oneway.change_log_status");
        assertEquals(positions, number(fixture.central(), "select count(distinct position) from oneway.receive_log"));
        assertEquals(positions, number(fixture.central(), "select count(*) from oneway.receive_log"));
    }

    /** New documents, and edits and deletes of earlier ones; edits refused by the reference-mode rule are rolled back. */
    private static int writeDocuments(long idBase, long seed) throws SQLException {
        Random random = new Random(seed);
        int committed = 0;
        long next = idBase;
        try (Connection c = remote.getConnection()) {
            c.setAutoCommit(false);
            while (committed < 1_000) {
                try {
                    long id = ++next;
                    exec(c, "insert into shop.documents(id, title, body, scan) values (?, ?, ?, ?)", id, "doc " + id + " ü",
                            "body ".repeat(1 + random.nextInt(200)), new byte[] {(byte) random.nextInt(256), 0, 1});
                    long other = idBase + 1 + random.nextInt((int) (next - idBase));
                    if (random.nextBoolean()) {
                        exec(c, "update shop.documents set version = version + 1, body = ? where id = ?", "edited " + random.nextInt(), other);
                    } else if (random.nextInt(4) == 0) {
                        exec(c, "delete from shop.documents where id = ?", other);
                    }
                    c.commit();
                    committed += 2;
                } catch (SQLException e) {
                    if (!"OW001".equals(e.getSQLState())) {
                        throw e;
                    }
                    c.rollback();
                }
            }
        }
        return committed;
    }

    private static void write(String sql) throws SQLException {
        try (Connection c = remote.getConnection()) {
            exec(c, sql);
        }
    }

    private static void assertAllEqual() throws Exception {
        List<TableResult> results = fixture.verify("branch1");
        for (TableResult r : results) {
            assertTrue(r.equal(), r.toString());
        }
    }
}
