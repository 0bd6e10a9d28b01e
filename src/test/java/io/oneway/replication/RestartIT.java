package io.oneway.replication;

import static io.oneway.testing.Sql.number;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.BackgroundWriter;
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
        // writes go on all the time, so every stop below happens with changes in flight
        try (BackgroundWriter writer = new BackgroundWriter(new ShopWriter(fixture.remote("branch1"), 1_000_000, 5), 100)) {
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

            assertTrue(writer.stop() > 5_000);
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
