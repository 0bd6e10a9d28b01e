package io.oneway.ops;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.oneway.testing.BackgroundWriter;
import io.oneway.testing.CommandOutput;
import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ReplicatorProcess;
import io.oneway.testing.ShopWriter;

/**
 * SPEC §4, every stall visible, when nothing stops: a central database that applies slower than
 * the remote's writers write (a trigger there sleeps 20 ms on every order) leaves changes waiting longer
 * and longer while acks keep coming. With oneway.notify.behind-after at 6 s the remote replicator
 * reports the stall falling-behind in health, metric, status and a notification, with both rates
 * and how much of its backlog is sent and waits for the central side, which says that the link or
 * the central side sets the pace; the central replicator reports it too, in health, metric, status
 * and a notification, from how late it applies, and its lag and backlog gauges read the delay and
 * the changes waiting at every scrape.
 * Once the central side is fast again the backlog drains, the stall ends on both sides, and the
 * tables are equal. A large transaction that the central side stages and then applies slowly at its
 * end is the stall too, and its cause says the central side holds it staged.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FallingBehindIT {

    private static final String SLOW_APPLY = "create or replace function shop.slow_apply() returns trigger language plpgsql as $$ begin "
            + "perform pg_sleep(0.02); return new; end $$";
    /** No ALTER TABLE to make it quick: it would wait for the slow apply run in progress. */
    private static final String QUICK_APPLY = "create or replace function shop.slow_apply() returns trigger language plpgsql as $$ begin return new; end $$";
    private static ReplicationFixture fixture;
    private static ReplicatorProcess central;
    private static ReplicatorProcess remote;

    @BeforeAll
    static void start() {
        // acks come after each slow apply run; silence is not what this test is about
        // a transaction of more than 200 changes is staged, so the second test's takes seconds, not minutes; and a run of
        // the slow apply lasts about a second (at 500 changes it took 3 s, half of behind-after, so that a loaded machine
        // made a run last longer than that, and the central side took the pause for a quiet source: told, then recovered)
        fixture = new ReplicationFixture("branch1")
                .with("oneway.notify.behind-after", "6000")
                .with("oneway.apply.max-run", "200")
                .with("oneway.notify.silent-after", "120000")
                .with("oneway.notify.endpoint", "log:io.oneway.notifications");
        ShopWriter.createSharedCustomer(fixture.remote("branch1"));
        exec(fixture.central(), SLOW_APPLY);
        exec(fixture.central(), """
                create trigger slow_apply before insert or update on shop.orders for each row execute function shop.slow_apply();
                alter table shop.orders enable always trigger slow_apply""");
        central = fixture.watch(ReplicatorProcess.start("central", "256m", fixture.centralProperties(), "falling-behind-central"));
        remote = fixture.watch(ReplicatorProcess.start("remote", "256m", fixture.remoteProperties("branch1", new Properties()), "falling-behind-remote"));
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    @Order(1)
    void a_central_side_slower_than_the_writers_is_the_stall_falling_behind_with_its_rates_until_it_catches_up() throws Exception {
        Settings settings = Settings.load(Path.of(""), null).with(fixture.commandSettings("branch1"));
        try (BackgroundWriter writer = new BackgroundWriter(new ShopWriter(fixture.remote("branch1"), 1_000_000, 3), 50)) {
            await().atMost(Duration.ofSeconds(90)).until(() -> remote.metric("oneway_stalled", "state=\"falling-behind\"") == 1);
            String health = remote.health();
            assertTrue(health.contains("falling-behind") && health.contains("after their capture and the backlog went from")
                    && health.contains("were captured") && health.contains("the link or the central side's apply sets the pace"), health);
            await().atMost(Duration.ofSeconds(10)).until(() -> notified(remote, "stalled"));
            // the central side sees it by how late it applies, for its own operators
            await().atMost(Duration.ofSeconds(60)).until(() -> central.metric("oneway_stalled", "state=\"falling-behind\"") == 1);
            String centralHealth = central.health();
            assertTrue(centralHealth.contains("falling-behind (source branch1)") && centralHealth.contains("after their capture")
                    && centralHealth.contains("the remote replicator's status says where the pace is set"), centralHealth);
            await().atMost(Duration.ofSeconds(10)).until(() -> notified(central, "stalled"));
            // its lag gauge says so at every scrape, between two frames too (it read 0 there when only announced changes
            // counted), and its backlog gauge counts what waits
            await().pollInterval(Duration.ofMillis(200)).during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10))
                    .until(() -> central.metric("oneway_lag_seconds", "side=\"central\"") > 3
                            && central.metric("oneway_backlog_changes", "side=\"central\"") > 0);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                String status = CommandOutput.of(settings, "status");
                assertTrue(status.contains("falling-behind: changes are applied") && status.contains("the central database applied")
                        && status.contains("every change applied in between"), "./oneway status names it, as each side found it, in\n" + status);
            });
            writer.stop();
        }
        exec(fixture.central(), QUICK_APPLY);
        await().atMost(Duration.ofSeconds(120)).until(() -> remote.metric("oneway_stalled", "state=\"falling-behind\"") == 0 && notified(remote, "recovered")
                && central.metric("oneway_stalled", "state=\"falling-behind\"") == 0 && notified(central, "recovered"));
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(120));
        assertEquals(1, notices(remote, "stalled"), "told once, not on and off");
        assertEquals(1, notices(central, "stalled"), "told once by the central side, not on and off between its slow applies");
        for (var table : fixture.verify("branch1")) {
            assertTrue(table.equal(), table.toString());
        }
        assertEquals(0, remote.metric("oneway_stalled") + central.metric("oneway_stalled"), "no other stall on the way: " + remote.health() + central.health());
        assertTrue(number(fixture.central(), "select count(*) from shop.orders") > 0);
    }

    @Test
    @Order(2)
    void a_large_transaction_applied_slowly_at_its_end_is_falling_behind_saying_that_the_central_side_has_it_staged() throws Exception {
        exec(fixture.central(), SLOW_APPLY);
        // 1,000 orders in one transaction: staged as they arrive, applied in one central transaction at its end (20 s)
        exec(fixture.remote("branch1"), "insert into shop.orders(id, customer_id, amount, status) select 9000000 + g, 1, 1, 'new' "
                + "from generate_series(1, 1000) g");
        await().atMost(Duration.ofSeconds(60)).until(() -> remote.metric("oneway_stalled", "state=\"falling-behind\"") == 1);
        String health = remote.health();
        assertTrue(health.contains("of them received and staged there: a large transaction, applied and acknowledged at its end"), health);
        exec(fixture.central(), QUICK_APPLY);
        await().atMost(Duration.ofSeconds(60)).until(() -> remote.metric("oneway_stalled", "state=\"falling-behind\"") == 0
                && notices(remote, "recovered") == 2);
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
        assertEquals(2, notices(remote, "stalled"), "told once more");
        for (var table : fixture.verify("branch1")) {
            assertTrue(table.equal(), table.toString());
        }
    }

    private static boolean notified(ReplicatorProcess side, String event) {
        return notices(side, event) > 0;
    }

    private static long notices(ReplicatorProcess side, String event) {
        return side.notifications(event, "falling-behind");
    }
}
