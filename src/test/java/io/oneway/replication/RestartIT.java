package io.oneway.replication;

import static io.oneway.testing.Sql.number;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ShopWriter;

/** SPEC §4: stopping and restarting the receiver, then the sender, while changes are in flight loses and duplicates nothing. */
class RestartIT {

    private static ReplicationFixture fixture;

    @BeforeAll
    static void start() {
        fixture = ReplicationFixture.running("branch1", new ReplicationFixture("branch1"));
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    void restarting_receiver_and_sender_in_flight_loses_and_duplicates_nothing() throws Exception {
        ShopWriter writer = new ShopWriter(fixture.remote("branch1"), 1_000_000, 5);
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            // writes go on all the time, so every stop below happens with changes in flight
            Future<Integer> writes = pool.submit(() -> {
                int n = 0;
                while (writing.get()) {
                    n += writer.write(100);
                }
                return n;
            });
            await().atMost(Duration.ofSeconds(60)).until(() -> applied() > 1_000);
            fixture.stopCentral();
            long appliedAtStop = applied();
            await().atMost(Duration.ofSeconds(60)).until(() -> positioned() > appliedAtStop + 2_000);
            fixture.startCentral();

            await().atMost(Duration.ofSeconds(60)).until(() -> applied() > appliedAtStop + 2_000);
            fixture.stopRemote("branch1");
            long capturedAtStop = captured();
            await().atMost(Duration.ofSeconds(60)).until(() -> captured() > capturedAtStop + 2_000);
            fixture.startRemote("branch1");
            await().atMost(Duration.ofSeconds(60)).until(() -> applied() > capturedAtStop + 1_000);

            writing.set(false);
            assertTrue(writes.get(1, TimeUnit.MINUTES) > 5_000);
        } finally {
            writing.set(false);
            pool.shutdownNow();
        }

        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(3));
        for (TableResult r : fixture.verify("branch1")) {
            assertTrue(r.equal(), r.toString());
        }
        long positions = positioned();
        assertEquals(positions, number(fixture.central(), "select count(*) from oneway.receive_log where source_id = 'branch1'"));
        assertEquals(positions, number(fixture.central(), "select count(distinct position) from oneway.receive_log where source_id = 'branch1'"));
    }

    private static long applied() {
        return number(fixture.central(), "select coalesce(max(applied_position), 0) from oneway.source_progress where source_id = 'branch1'");
    }

    private static long captured() {
        return number(fixture.remote("branch1"), "select count(*) from oneway.change_log");
    }

    private static long positioned() {
        return number(fixture.remote("branch1"), "select coalesce(max(position), 0) from oneway.change_log_status");
    }

}
