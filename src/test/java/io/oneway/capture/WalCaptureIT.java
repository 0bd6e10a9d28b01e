package io.oneway.capture;

import static io.oneway.testing.Sql.backendPid;
import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.rows;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.BackgroundWriter;
import io.oneway.testing.NotificationListener;
import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ReplicatorProcess;
import io.oneway.testing.ShopWriter;

/**
 * Issue 15, capture from the WAL: the remote replicator, in a process of its own, reads the slot
 * and numbers every change in commit order. Transactions that mix tables captured from the WAL
 * with tables captured by triggers (image and reference mode) arrive exactly, and a kill -9 of
 * the remote replicator while writers go on, or in the middle of recording a transaction of
 * 60,000 changes in pieces, loses and records twice nothing; a WAL capture that cannot go on is
 * a stall in health, metric, status and a notification, and ends when it goes on; so are a
 * reader that hangs without an error while the slot falls behind, and a replicator started
 * without it on a database whose changes are numbered from the WAL.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WalCaptureIT {

    /** oneway.capture.wal-batch: a transaction of more changes is recorded in pieces */
    private static final int BATCH = 1000;
    /** oneway.capture.wal-stuck-after: how long the slot may stand still while behind */
    private static final Duration STUCK_AFTER = Duration.ofSeconds(10);
    private static ReplicationFixture fixture;
    private static DataSource remoteDb;
    private static ReplicatorProcess remote;

    @BeforeAll
    static void start() {
        fixture = new ReplicationFixture("branch1").fromWal().with("oneway.capture.wal-batch", Integer.toString(BATCH))
                .with("oneway.capture.wal-stuck-after", Long.toString(STUCK_AFTER.toMillis()))
                .with("oneway.notify.lock-wait-after", "5000");
        remoteDb = fixture.remote("branch1");
        ShopWriter.createSharedCustomer(remoteDb);
        fixture.startCentral();
        remote = startRemote();
        fixture.captureFromWal("branch1", "shop.customers", "shop.orders", "shop.order_lines");
        exec(remoteDb, "select oneway.enable_capture('shop.documents', 'reference')");
    }

    @AfterAll
    static void stop() {
        remote.close();
        fixture.close();
    }

    @Test
    @Order(1)
    void mixed_transactions_arrive_exactly_through_a_kill_9_of_the_remote_while_writers_go_on() throws Exception {
        int mixed;
        try (BackgroundWriter writer = new BackgroundWriter(new ShopWriter(remoteDb, 1_000_000, 11), 50);
                MixedWriter mixedWriter = new MixedWriter()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> applied() > 2_000);
            remote.kill();
            long committedAtKill = number(remoteDb, "select count(*) from shop.tags");
            await().atMost(Duration.ofSeconds(60)).until(() -> number(remoteDb, "select count(*) from shop.tags") > committedAtKill + 200);
            remote = startRemote();
            await().atMost(Duration.ofSeconds(60)).until(() -> applied() > 2_000 + 2_000);
            assertTrue(writer.stop() > 2_000);
            mixed = mixedWriter.stop();
        }
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(3));

        for (TableResult r : fixture.verify("branch1")) {
            assertTrue(r.equal(), r.toString());
        }
        // each mixed transaction: one customer from the WAL, one tag by trigger, one document by reference; each logged once
        assertEquals(mixed, number(remoteDb, "select count(*) from oneway.change_log where object_type = 'shop.customers' and op = 'I' "
                + "and (object_id->>'id')::bigint >= 5000000 and capture_mode = 'W'"), () -> "logged more than once: " + rows(remoteDb,
                        "select l.object_id::text as k, array_agg(l.txid) as txids, array_agg(l.log_id) as log_ids, array_agg(p.position) as positions "
                        + "from oneway.change_log l join oneway.change_position p using (log_id) where l.object_type = 'shop.customers' "
                        + "and (l.object_id->>'id')::bigint >= 5000000 group by 1 having count(*) > 1"));
        assertEquals(mixed, number(remoteDb, "select count(*) from oneway.change_log where object_type = 'shop.tags' and op = 'I' and capture_mode = 'I'"));
        assertEquals(mixed, number(remoteDb, "select count(*) from oneway.change_log where object_type = 'shop.documents' and op = 'I' and capture_mode = 'R'"));
        // the three changes of a mixed transaction have consecutive positions, the last one ends it
        assertEquals(0, number(remoteDb, """
                select count(*) from (select l.txid, max(p.position) - min(p.position) as span, count(*) as n,
                                             count(*) filter (where p.tx_end) as ends, max(p.position) filter (where p.tx_end) as end_at
                                        from oneway.change_log l join oneway.change_position p using (log_id)
                                       where l.op = 'I' and (l.object_type in ('shop.tags', 'shop.documents')
                                          or (l.object_type = 'shop.customers' and (l.object_id->>'id')::bigint >= 5000000))
                                       group by l.txid) t
                 where not (n = 3 and span = 2 and ends = 1)"""));
        assertPositionsWhole();
    }

    @Test
    @Order(2)
    void a_transaction_of_60000_changes_recorded_in_pieces_arrives_whole_through_a_kill_9_in_its_middle() throws Exception {
        exec(remoteDb, "insert into shop.customers(id, name) select g, 'big ' || g from generate_series(10000001, 10012000) g");
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));
        long txid;
        try (Connection c = remoteDb.getConnection()) {
            c.setAutoCommit(false);
            exec(c, "do $$ begin for i in 1..5 loop update shop.customers set balance = balance + 1 where id > 10000000; end loop; end $$");
            txid = ((Number) rows(c, "select pg_current_xact_id()::text::bigint as x").get(0).get("x")).longValue();
            c.commit();
        }
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(10))
                .until(() -> number(remoteDb, "select case when wal_done then 0 else wal_items end from oneway.position_counter") >= 3 * BATCH);
        remote.kill();
        Map<String, Object> atKill = rows(remoteDb, "select wal_items, wal_done from oneway.position_counter").get(0);
        assertFalse((Boolean) atKill.get("wal_done"), "killed while the transaction was being recorded: " + atKill);
        long recordedAtKill = number(remoteDb, "select count(*) from oneway.change_log where txid = ?", txid);
        assertTrue(recordedAtKill > 0 && recordedAtKill < 60_000, recordedAtKill + " of 60,000 recorded at the kill");

        remote = startRemote();
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(5));
        assertEquals(60_000, number(remoteDb, "select count(*) from oneway.change_log where txid = ?", txid), "every change once");
        assertEquals(1, number(remoteDb, "select count(*) from oneway.change_log l join oneway.change_position p using (log_id) "
                + "where l.txid = ? and p.tx_end", txid), "one end, at the last change");
        assertEquals(60_000 - 1, number(remoteDb, "select max(p.position) - min(p.position) from oneway.change_log l "
                + "join oneway.change_position p using (log_id) where l.txid = ?", txid), "numbered together");
        assertEquals(5 * 12_000 + 12_000, number(fixture.central(), "select sum(balance) + count(*) from shop.customers where id > 10000000"));
        for (TableResult r : fixture.verify("branch1")) {
            assertTrue(r.equal(), r.toString());
        }
        assertPositionsWhole();
    }

    @Test
    @Order(3)
    void capture_from_the_wal_that_cannot_go_on_is_a_stall_in_health_metric_status_and_a_notification() throws Exception {
        try (NotificationListener notifications = new NotificationListener(fixture.brokerPort())) {
            // the change log now claims another slot: the reader, made to connect again, refuses to read this one
            exec(remoteDb, "update oneway.position_counter set wal_slot = 'another_slot'");
            exec(remoteDb, "select pg_terminate_backend(active_pid) from pg_replication_slots where database = current_database()");
            exec(remoteDb, "insert into shop.customers(id, name) values (20000001, 'waits for the reader')");
            await().atMost(Duration.ofSeconds(60)).until(() -> remote.metric("oneway_stalled", "state=\"capture-stopped\"") == 1);
            String health = remote.health();
            assertTrue(health.contains("capture-stopped") && health.contains("numbered from replication slot another_slot"), health);
            assertTrue(((String) rows(remoteDb, "select stalls from oneway.monitor_state where component like 'transfer%'").get(0).get("stalls"))
                    .contains("capture from the WAL fails"), "./oneway status shows the replicator's last check");
            await().atMost(Duration.ofSeconds(30)).until(() -> !notifications.containing("capture-stopped").isEmpty());

            exec(remoteDb, "update oneway.position_counter set wal_slot = 'oneway_' || current_database()");
            assertRecovered(notifications, 20000001);
        }
    }

    @Test
    @Order(4)
    void a_wal_reader_that_waits_without_an_error_is_a_stall_that_says_where_it_waits() throws Exception {
        try (NotificationListener notifications = new NotificationListener(fixture.brokerPort()); Connection lock = remoteDb.getConnection()) {
            // recording waits on this row lock (begin_wal_recording locks the counter); the reader's read hangs, no error comes
            lock.setAutoCommit(false);
            exec(lock, "select from oneway.position_counter for update");
            exec(remoteDb, "insert into shop.customers(id, name) values (20000003, 'waits behind a lock')");
            // well before wal_sender_timeout (60 s) ends the WAL sender's connection: the read standing still is enough
            await().atMost(STUCK_AFTER.plusSeconds(30)).until(() -> remote.metric("oneway_stalled", "state=\"capture-stopped\"") == 1);
            String health = remote.health();
            assertTrue(health.contains("capture from the WAL stands still") && health.contains("the reader is inside one read"), health);
            // and the statement it waits in, with the session holding the lock
            assertTrue(health.contains("lock-wait") && health.contains("begin_wal_recording") && health.contains("held by session " + backendPid(lock)), health);
            assertTrue(((String) rows(remoteDb, "select stalls from oneway.monitor_state where component like 'transfer%'").get(0).get("stalls"))
                    .contains("stands still"), "./oneway status shows it");
            await().atMost(Duration.ofSeconds(30)).until(() -> notifications.containing("capture-stopped").stream().anyMatch(n -> n.contains("stands still")));
            assertTrue(remote.metric("oneway_wal_behind_bytes", "") > 0);

            lock.rollback();
            assertRecovered(notifications, 20000003);
        }
        assertPositionsWhole();
    }

    @Test
    @Order(5)
    void a_replicator_started_without_the_wal_on_a_database_numbered_from_it_says_that_nothing_is_numbered() {
        remote.kill();
        Properties off = new Properties();
        off.setProperty("oneway.capture.from-wal", "false");
        remote = ReplicatorProcess.start("remote", "256m", fixture.remoteProperties("branch1", off), "wal-capture-remote");
        exec(remoteDb, "insert into shop.customers(id, name) values (20000002, 'waits for the reader')");
        await().atMost(Duration.ofSeconds(60)).until(() -> remote.metric("oneway_stalled", "state=\"capture-stopped\"") == 1);
        assertTrue(remote.health().contains("oneway.capture.from-wal is false: nothing is numbered or sent"), remote.health());

        remote.kill();
        remote = startRemote();
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
        assertEquals(1, number(fixture.central(), "select count(*) from shop.customers where id = 20000002"));
        assertEquals(0, remote.metric("oneway_stalled", "state=\"capture-stopped\""));
    }

    @Test
    @Order(6)
    void a_table_taken_out_of_the_publication_by_hand_is_a_stall_naming_it_and_an_unlogged_one_is_refused() {
        exec(remoteDb, "alter publication oneway_tables drop table shop.customers");
        await().atMost(Duration.ofSeconds(60)).until(() -> remote.metric("oneway_stalled", "state=\"capture-off\"") == 1);
        String health = remote.health();
        assertTrue(health.contains("shop.customers: it is not in publication oneway_tables")
                && health.contains("select oneway.enable_capture('shop.customers', 'wal') puts it back"), health);

        exec(remoteDb, "select oneway.enable_capture('shop.customers', 'wal')");
        await().atMost(Duration.ofSeconds(60)).until(() -> remote.metric("oneway_stalled", "state=\"capture-off\"") == 0);
        exec(remoteDb, "insert into shop.customers(id, name) values (20000004, 'captured from the WAL again')");
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
        assertEquals(1, number(fixture.central(), "select count(*) from shop.customers where id = 20000004"));

        // an unlogged table's changes never reach the WAL (and PostgreSQL refuses to make a published table unlogged)
        exec(remoteDb, "create unlogged table shop.scratch (id int primary key)");
        SQLException refused = assertThrows(SQLException.class, () -> {
            try (Connection c = remoteDb.getConnection()) {
                exec(c, "select oneway.enable_capture('shop.scratch', 'wal')");
            }
        });
        assertTrue(refused.getMessage().contains("table shop.scratch is unlogged or temporary"), refused.getMessage());
    }

    /** The stall ends, the customer written while it lasted arrives, and the recovery is notified. */
    private static void assertRecovered(NotificationListener notifications, long customerId) {
        await().atMost(Duration.ofSeconds(60)).until(() -> remote.metric("oneway_stalled", "state=\"capture-stopped\"") == 0);
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
        assertEquals(1, number(fixture.central(), "select count(*) from shop.customers where id = ?", customerId));
        await().atMost(Duration.ofSeconds(30)).until(() -> notifications.containing("recovered").stream().anyMatch(n -> n.contains("capture-stopped")));
    }

    /** Positions 1..last, each once, every one applied once on the central database. */
    private static void assertPositionsWhole() {
        long last = number(remoteDb, "select last_position from oneway.position_counter");
        assertEquals(last, number(remoteDb, "select count(*) from oneway.change_position"));
        assertEquals(last, number(remoteDb, "select count(*) from oneway.change_log"));
        assertEquals(last, number(fixture.central(), "select count(distinct position) from oneway.receive_log where source_id = 'branch1'"));
    }

    private static long applied() {
        return number(fixture.central(), "select coalesce(max(applied_position), 0) from oneway.source_progress where source_id = 'branch1'");
    }

    private static ReplicatorProcess startRemote() {
        return ReplicatorProcess.start("remote", "256m", fixture.remoteProperties("branch1", new Properties()), "wal-capture-remote");
    }

    /** Transactions of one customer (captured from the WAL), one tag (by trigger) and one document (reference mode), until stopped. */
    private static final class MixedWriter implements AutoCloseable {
        private final ExecutorService thread = Executors.newSingleThreadExecutor();
        private final AtomicBoolean stopping = new AtomicBoolean();
        private final Future<Integer> written;

        MixedWriter() {
            written = thread.submit(() -> {
                int n = 0;
                try (Connection c = remoteDb.getConnection()) {
                    c.setAutoCommit(false);
                    while (!stopping.get()) {
                        n++;
                        exec(c, "insert into shop.customers(id, name) values (?, 'mixed')", 5_000_000L + n);
                        exec(c, "insert into shop.tags(id, label) values (?, ?)", n, "tag " + n);
                        exec(c, "insert into shop.documents(id, title, body) values (?, 'doc', repeat('x', 3000))", n);
                        c.commit();
                    }
                }
                return n;
            });
        }

        int stop() throws Exception {
            stopping.set(true);
            return written.get();
        }

        @Override
        public void close() {
            stopping.set(true);
            thread.shutdown();
        }
    }
}
