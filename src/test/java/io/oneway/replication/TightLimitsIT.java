package io.oneway.replication;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.oneway.apply.GapDetector;
import io.oneway.apply.ReceiverStatus;
import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ShopWriter;

/**
 * Every limit a workload can run into, set far below the workload, through a link that drops, duplicates,
 * reorders and corrupts both ways, captured by trigger and from the WAL: frames of 7 changes and 2 kB, a send
 * window of 40 changes and 8 kB, 20 fingerprints held, resends of 15 changes and 4 kB, retransmissions of 5,
 * central runs of 10 changes and 4 kB, 8 kB parked, 2 frames resequenced, assigner calls of 13 changes, WAL
 * recordings of 9 changes and 4 kB. The workload has transactions of 150 changes and rows up to 12 kB
 * wide (wider than a frame, the window, a run and the parked bound), from three writers at once. Everything
 * arrives exactly once and in order, and the central side never holds more than its bound parked beside the
 * one run it is applying. Again with central runs of 100 changes and 16 kB (32 kB parked), larger than the window:
 * a transaction wider than the window is then staged because the sender says its window is full, not because a run
 * is (SendWindowIT without a lossy link; one run in five stood still for good before heartbeats said it too).
 */
class TightLimitsIT {

    private static final long WIDEST = 12_000;

    @ParameterizedTest
    @CsvSource({"image, 10", "wal, 10", "image, 100", "wal, 100"})
    void a_workload_past_every_limit_arrives_whole_through_a_bad_link(String mode, int maxRun) throws Exception {
        long maxRunBytes = maxRun == 10 ? 4096 : 16384;
        long maxParkedBytes = 2 * maxRunBytes;
        ReplicationFixture fixture = new ReplicationFixture("branch1").lossy(0.05, 0.05, 0.02, 20)
                .with("oneway.send.frame-size", "7").with("oneway.send.frame-bytes", "2048")
                .with("oneway.send.window", "40").with("oneway.send.window-bytes", "8192")
                .with("oneway.send.fingerprints-held", "20")
                .with("oneway.send.max-resend", "15").with("oneway.send.max-resend-bytes", "4096")
                .with("oneway.send.retransmit-chunk", "5")
                .with("oneway.apply.max-run", Integer.toString(maxRun)).with("oneway.apply.max-run-bytes", Long.toString(maxRunBytes))
                .with("oneway.apply.max-parked-bytes", Long.toString(maxParkedBytes))
                .with("oneway.apply.resequence-capacity", "2")
                .with("oneway.capture.batch-size", "13")
                .with("oneway.capture.wal-batch", "9").with("oneway.capture.wal-batch-bytes", "4096");
        if (mode.equals("wal")) {
            fixture.fromWal();
        }
        try (fixture) {
            DataSource remote = fixture.remote("branch1");
            exec(remote, "select oneway.enable_capture('shop.documents')");
            ReplicationFixture.running("branch1", fixture);
            if (mode.equals("wal")) {
                fixture.captureFromWal("branch1", "shop.customers", "shop.orders", "shop.order_lines", "shop.documents");
            }
            GapDetector receiver = fixture.centralBean("gapDetector", GapDetector.class);
            AtomicLong mostParked = new AtomicLong();
            AtomicLong mostStaged = new AtomicLong();
            ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
            ExecutorService pool = Executors.newFixedThreadPool(3);
            try {
                // the receiver publishes its status after every frame and apply run: what it holds, sampled every 2 ms
                sampler.scheduleAtFixedRate(() -> {
                    ReceiverStatus st = receiver.statuses().get("branch1");
                    if (st != null) {
                        mostParked.accumulateAndGet(st.parkedBytes(), Math::max);
                        mostStaged.accumulateAndGet(st.staged(), Math::max);
                    }
                }, 0, 2, TimeUnit.MILLISECONDS);
                Future<Integer> w1 = pool.submit(() -> new ShopWriter(remote, 1_000_000, 11).write(150));
                Future<Integer> w2 = pool.submit(() -> new ShopWriter(remote, 2_000_000, 22).write(150));
                Future<Integer> wide = pool.submit(() -> wideAndLong(remote));
                int committed = w1.get(5, TimeUnit.MINUTES) + w2.get(5, TimeUnit.MINUTES) + wide.get(5, TimeUnit.MINUTES);
                assertTrue(committed >= 600, "committed " + committed);

                fixture.awaitCaughtUp("branch1", Duration.ofMinutes(8));
            } finally {
                sampler.shutdownNow();
                pool.shutdownNow();
            }

            for (TableResult r : fixture.verify("branch1")) {
                assertTrue(r.equal(), r.toString());
            }
            long positions = number(remote, "select max(position) from oneway.change_log_status");
            assertEquals(positions, number(fixture.central(), "select count(*) from oneway.receive_log where source_id = 'branch1'"));
            assertEquals(positions, number(fixture.central(), "select count(distinct position) from oneway.receive_log where source_id = 'branch1'"));
            assertEquals(positions, number(fixture.central(), "select max(position) from oneway.receive_log where source_id = 'branch1'"));
            assertTrue(mostStaged.get() > 10, "transactions larger than a run or the window were staged: at most " + mostStaged.get() + " changes");
            assertTrue(mostParked.get() > 0, "the central side parked changes ahead of a gap");
            // parked: the bound, beside which one whole change ahead may wait in pieces or be held as the run applied next
            assertTrue(mostParked.get() <= maxParkedBytes + 2 * WIDEST + maxRunBytes, "parked at most " + mostParked.get());
        }
    }

    /** Rows wider than a frame, the window, a run and the parked bound, and transactions of 150 changes. */
    private static int wideAndLong(DataSource remote) throws Exception {
        Random random = new Random(33);
        int committed = 0;
        try (Connection c = remote.getConnection()) {
            c.setAutoCommit(false);
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < 10; i++) {
                    int id = round * 100 + i;
                    exec(c, "insert into shop.documents(id, title, body) values (?, ?, ?)", id, "doc " + id,
                            text(random, 100 + random.nextInt((int) WIDEST)));
                    exec(c, "update shop.documents set body = ?, version = version + 1 where id = ?", text(random, 3000 + random.nextInt(6000)), id);
                    c.commit();
                    committed += 2;
                }
                for (int i = 0; i < 150; i++) {
                    exec(c, "insert into shop.tags(id, label) values (?, ?)", round * 1000 + i, "tag " + round + "-" + i);
                }
                c.commit();
                committed += 150;
                exec(c, "delete from shop.documents where id between ? and ?", round * 100, round * 100 + 4);
                c.commit();
                committed += 5;
            }
        }
        return committed;
    }

    private static String text(Random random, int length) {
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            s.append((char) ('a' + random.nextInt(26)));
        }
        return s.toString();
    }
}
