package io.oneway.capture;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.oneway.ops.SchemaInstaller.Part;
import io.oneway.testing.PostgresFixture;
import io.oneway.testing.Sql;

/** SPEC §3 against a real PostgreSQL: positions are gapless, commit-consistent, contiguous per transaction. */
class PositionAssignmentIT {

    private DataSource db;
    private ExecutorService pool;

    @BeforeEach
    void freshDatabase() {
        db = PostgresFixture.newDatabase("positions", Part.REMOTE).dataSource();
        exec(db, "create table items(id bigint primary key, counter_id int, counter_value bigint, note text)");
        exec(db, "create table counters(id int primary key, value bigint not null)");
        exec(db, "insert into counters select g, 0 from generate_series(1, 5) g");
        exec(db, "select oneway.enable_capture('items'), oneway.enable_capture('counters')");
        exec(db, "truncate oneway.change_log");
        pool = Executors.newCachedThreadPool();
    }

    @AfterEach
    void stopThreads() {
        pool.shutdownNow();
    }

    @Test
    void a_rolled_back_transaction_leaves_no_gap() throws Exception {
        exec(db, "insert into items(id) values (1)");
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            exec(c, "insert into items(id) values (2)");
            exec(c, "insert into items(id) values (3)");
            c.rollback();
        }
        exec(db, "insert into items(id) values (4)");
        assign();

        assertEquals(List.of(1L, 2L), positions());
        assertEquals(List.of("{\"id\": \"1\"}", "{\"id\": \"4\"}"), objectIdsByPosition());
    }

    @Test
    void a_transaction_that_started_first_and_committed_last_gets_the_next_position_and_no_gap() throws Exception {
        try (Connection t1 = db.getConnection(); Connection t2 = db.getConnection()) {
            t1.setAutoCommit(false);
            t2.setAutoCommit(false);
            exec(t1, "insert into items(id) values (1)");
            exec(t2, "insert into items(id) values (2)");
            t2.commit();
            assign();
            assertEquals(List.of("{\"id\": \"2\"}"), objectIdsByPosition());
            t1.commit();
        }
        assign();

        assertEquals(List.of(1L, 2L), positions());
        assertEquals(List.of("{\"id\": \"2\"}", "{\"id\": \"1\"}"), objectIdsByPosition());
    }

    @Test
    void all_changes_of_a_transaction_come_before_those_of_a_transaction_that_overwrote_its_data() throws Exception {
        try (Connection t1 = db.getConnection(); Connection t2 = db.getConnection()) {
            t1.setAutoCommit(false);
            t2.setAutoCommit(false);
            // T2 writes first, so its first statement-order id is the lowest of all
            exec(t2, "insert into items(id) values (100)");
            exec(t1, "insert into items(id, note) values (1, 't1')");
            exec(t1, "insert into items(id, note) values (2, 't1')");
            t1.commit();
            exec(t2, "update items set note = 't2' where id = 1");
            t2.commit();
        }
        assign();

        List<Map<String, Object>> log = rows(db, "select position, txid::text as txid, object_id::text as id, op from oneway.change_log_status order by position");
        assertEquals(4, log.size());
        String t1 = (String) log.get(0).get("txid");
        assertEquals(List.of("{\"id\": \"1\"}", "{\"id\": \"2\"}"), List.of(log.get(0).get("id"), log.get(1).get("id")));
        assertEquals(t1, log.get(1).get("txid"));
        assertEquals(List.of("{\"id\": \"100\"}", "{\"id\": \"1\"}"), List.of(log.get(2).get("id"), log.get(3).get("id")));
        assertEquals("U", log.get(3).get("op"));
    }

    @Test
    void an_open_long_transaction_does_not_stop_positions_for_changes_committed_after_it_started() throws Exception {
        try (Connection longTx = db.getConnection()) {
            longTx.setAutoCommit(false);
            exec(longTx, "insert into items(id) values (1)");
            for (int i = 2; i <= 4; i++) {
                exec(db, "insert into items(id) values (?)", i);
            }
            assign();
            assertEquals(List.of(1L, 2L, 3L), positions());
            // the open transaction sees its own change, still without a position
            assertEquals(1L, Sql.rows(longTx, "select count(*) as n from oneway.change_log_status where position is null").get(0).get("n"));
            longTx.commit();
        }
        assign();
        assertEquals(List.of(1L, 2L, 3L, 4L), positions());
    }

    @Test
    void a_transaction_open_across_many_passes_is_numbered_when_it_commits_and_nothing_is_numbered_twice() throws Exception {
        try (Connection longTx = db.getConnection(); Connection middle = db.getConnection()) {
            longTx.setAutoCommit(false);
            middle.setAutoCommit(false);
            exec(longTx, "insert into items(id) values (1)");
            exec(middle, "insert into items(id) values (2)");
            for (int i = 10; i < 15; i++) {
                exec(db, "insert into items(id) values (?)", i);
                assign();
            }
            middle.commit();
            exec(db, "insert into items(id) values (20)");
            assign();
            exec(longTx, "insert into items(id) values (3)");
            longTx.commit();
        }
        exec(db, "insert into items(id) values (30)");
        assign();
        assertEquals(0, assign(), "a pass after everything was numbered numbers nothing");

        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L), positions());
        assertEquals(List.of("{\"id\": \"10\"}", "{\"id\": \"11\"}", "{\"id\": \"12\"}", "{\"id\": \"13\"}", "{\"id\": \"14\"}",
                "{\"id\": \"2\"}", "{\"id\": \"20\"}", "{\"id\": \"1\"}", "{\"id\": \"3\"}", "{\"id\": \"30\"}"), objectIdsByPosition());
    }

    @Test
    void passes_smaller_than_the_backlog_number_it_whole_transactions_at_a_time_in_order() throws Exception {
        for (int t = 0; t < 20; t++) {
            try (Connection c = db.getConnection()) {
                c.setAutoCommit(false);
                for (int i = 0; i < 3; i++) {
                    exec(c, "insert into items(id) values (?)", t * 10 + i);
                }
                c.commit();
            }
        }
        List<Long> sizes = new ArrayList<>();
        for (long n = assign(4); n > 0; n = assign(4)) {
            sizes.add(n);
        }

        assertEquals(List.of(6L, 6L, 6L, 6L, 6L, 6L, 6L, 6L, 6L, 6L), sizes, "two whole transactions of three changes per pass of at most 4");
        assertGaplessFromOne(60);
        assertTransactionsContiguous();
        assertEquals(rows(db, "select object_id::text as id from oneway.change_log order by log_id").stream().map(r -> (String) r.get("id")).toList(),
                objectIdsByPosition());
    }

    @Test
    void a_transactions_changes_are_contiguous_and_the_last_is_marked_end_of_transaction() throws Exception {
        try (Connection t1 = db.getConnection(); Connection t2 = db.getConnection()) {
            t1.setAutoCommit(false);
            t2.setAutoCommit(false);
            // interleaved statements of two transactions
            for (int i = 0; i < 5; i++) {
                exec(t1, "insert into items(id, note) values (?, 't1')", i);
                exec(t2, "insert into items(id, note) values (?, 't2')", 100 + i);
            }
            t1.commit();
            t2.commit();
        }
        assign();

        List<Map<String, Object>> log = rows(db, "select position, txid::text as txid, tx_end from oneway.change_log_status order by position");
        assertEquals(10, log.size());
        for (int i = 0; i < 10; i++) {
            assertEquals(log.get(i / 5 * 5).get("txid"), log.get(i).get("txid"), "changes of one transaction are contiguous");
            assertEquals(i % 5 == 4, log.get(i).get("tx_end"), "only the last change of a transaction ends it, position " + (i + 1));
        }
    }

    @Test
    void two_assigners_started_at_once_never_produce_a_duplicate_or_a_missing_position() throws Exception {
        AtomicBoolean writing = new AtomicBoolean(true);
        Future<Integer> writer = pool.submit(() -> {
            int n = 0;
            while (writing.get()) {
                exec(db, "insert into items(id) values (?)", n++);
            }
            return n;
        });
        CyclicBarrier start = new CyclicBarrier(2);
        List<Future<Long>> assigners = new ArrayList<>();
        for (int a = 0; a < 2; a++) {
            assigners.add(pool.submit(() -> {
                start.await();
                long numbered = 0;
                for (int i = 0; i < 200; i++) {
                    numbered += assign();
                }
                return numbered;
            }));
        }
        long numbered = 0;
        for (Future<Long> f : assigners) {
            numbered += f.get(2, TimeUnit.MINUTES);
        }
        writing.set(false);
        int written = writer.get(1, TimeUnit.MINUTES);
        numbered += assign();

        assertEquals(written, numbered);
        assertGaplessFromOne(written);
    }

    @Test
    void two_concurrent_writers_with_conflicts_and_rollbacks_end_with_positions_1_to_n_in_commit_consistent_order() throws Exception {
        AtomicBoolean writing = new AtomicBoolean(true);
        CyclicBarrier start = new CyclicBarrier(3);
        Callable<Integer> writerTask = () -> {
            start.await();
            return writeConflictingTransactions(10_500, writing);
        };
        Future<Integer> w1 = pool.submit(writerTask);
        Future<Integer> w2 = pool.submit(writerTask);
        Future<Long> assigner = pool.submit(() -> {
            start.await();
            // passes of varied size, so that many end with a backlog left for the next one
            Random sizes = new Random();
            long n = 0;
            while (writing.get()) {
                n += assign(1 + sizes.nextInt(200));
            }
            return n;
        });
        int committed = w1.get(5, TimeUnit.MINUTES) + w2.get(5, TimeUnit.MINUTES);
        writing.set(false);
        long numbered = assigner.get(1, TimeUnit.MINUTES) + assign();

        assertTrue(committed >= 20_000, "at least 20,000 changes, got " + committed);
        assertEquals(committed, numbered);
        assertGaplessFromOne(committed);
        assertCounterUpdatesInCommitOrder();
        assertTransactionsContiguous();
    }

    /** Each transaction bumps a hot counter row (so transactions conflict) and inserts items; some roll back. */
    private int writeConflictingTransactions(int changes, AtomicBoolean writing) throws SQLException {
        Random random = new Random();
        int committed = 0;
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            while (committed < changes) {
                int counter = 1 + random.nextInt(5);
                long value;
                try (PreparedStatement ps = c.prepareStatement("update counters set value = value + 1 where id = ? returning value")) {
                    ps.setInt(1, counter);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        value = rs.getLong(1);
                    }
                }
                int items = 1 + random.nextInt(3);
                for (int i = 0; i < items; i++) {
                    exec(c, "insert into items(id, counter_id, counter_value) values (nextval('oneway.change_log_log_id_seq') + 1000000000, ?, ?)", counter, value);
                }
                if (random.nextInt(10) == 0) {
                    c.rollback();
                } else {
                    c.commit();
                    committed += 1 + items;
                }
            }
        }
        return committed;
    }

    private void assertGaplessFromOne(long expected) {
        List<Map<String, Object>> r = rows(db, "select count(*) as n, count(distinct position) as d, min(position) as lo, max(position) as hi, count(*) filter (where position is null) as unassigned from oneway.change_log_status");
        Map<String, Object> s = r.get(0);
        assertEquals(expected, ((Number) s.get("n")).longValue(), "rows in the log");
        assertEquals(0L, ((Number) s.get("unassigned")).longValue(), "unnumbered rows");
        assertEquals(expected, ((Number) s.get("d")).longValue(), "distinct positions");
        assertEquals(1L, ((Number) s.get("lo")).longValue());
        assertEquals(expected, ((Number) s.get("hi")).longValue());
    }

    /** A counter's value goes up by one with every committed update, so position order must show 1, 2, 3, ... per counter. */
    private void assertCounterUpdatesInCommitOrder() {
        Map<Integer, Long> last = new HashMap<>();
        for (Map<String, Object> row : rows(db, "select (row_image->>'id')::int as id, (row_image->>'value')::bigint as value "
                + "from oneway.change_log_status where object_type = 'public.counters' order by position")) {
            int id = (Integer) row.get("id");
            long value = (Long) row.get("value");
            assertEquals(last.getOrDefault(id, 0L) + 1, value, "counter " + id + " updates out of commit order");
            last.put(id, value);
        }
        assertTrue(last.size() > 1);
    }

    private void assertTransactionsContiguous() {
        assertEquals(0, number(db, "select count(*) from (select txid, max(position) - min(position) + 1 as span, count(*) as n, "
                + "count(*) filter (where tx_end) as ends, max(position) filter (where tx_end) as end_pos, max(position) as hi "
                + "from oneway.change_log_status group by txid) t where span <> n or ends <> 1 or end_pos <> hi"));
    }

    private long assign() throws SQLException {
        return assign(100_000);
    }

    private long assign(int maxChanges) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement("select changes from oneway.assign_positions(?)")) {
            ps.setInt(1, maxChanges);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    private List<Long> positions() {
        return rows(db, "select position from oneway.change_log_status where position is not null order by position").stream()
                .map(r -> (Long) r.get("position")).toList();
    }

    private List<String> objectIdsByPosition() {
        return rows(db, "select object_id::text as id from oneway.change_log_status where position is not null order by position").stream()
                .map(r -> (String) r.get("id")).toList();
    }
}
