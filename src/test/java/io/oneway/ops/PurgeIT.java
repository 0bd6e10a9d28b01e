package io.oneway.ops;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ShopWriter;

/** SPEC §7 purge: acknowledged changes and old receive-log rows go away in the background; nothing unacknowledged does. */
class PurgeIT {

    private static ReplicationFixture fixture;

    @BeforeAll
    static void start() {
        fixture = ReplicationFixture.running("branch1", new ReplicationFixture("branch1")
                .with("oneway.purge.retention", "0 seconds")
                .with("oneway.purge.receive-log-retention", "0 seconds")
                .with("oneway.purge.batch-size", "300")
                .with("oneway.purge.interval", "200"));
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    void delivered_changes_and_old_receive_log_rows_are_purged_while_replication_goes_on() throws Exception {
        new ShopWriter(fixture.remote("branch1"), 1_000_000, 3).write(3_000);
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));

        await().atMost(Duration.ofSeconds(60)).until(() -> number(fixture.remote("branch1"), "select count(*) from oneway.change_log") == 0
                && number(fixture.remote("branch1"), "select count(*) from oneway.change_position") == 0
                && number(fixture.central(), "select count(*) from oneway.receive_log") == 0);
        for (TableResult r : fixture.verify("branch1")) {
            assertTrue(r.equal(), r.toString());
        }

        // an unacknowledged change is never purged
        fixture.stopCentral();
        exec(fixture.remote("branch1"), "insert into shop.customers(id, name) values (5, 'waiting')");
        assertEquals(0, number(fixture.remote("branch1"), "select oneway.purge_delivered('0 seconds', 1000)"));
        assertEquals(1, number(fixture.remote("branch1"), "select count(*) from oneway.change_log"));
        fixture.startCentral();
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(30));
        assertEquals(1, number(fixture.central(), "select count(*) from shop.customers where id = 5"));
    }
}
