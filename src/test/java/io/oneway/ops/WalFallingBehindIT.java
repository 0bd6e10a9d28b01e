package io.oneway.ops;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.rows;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Properties;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.oneway.testing.BackgroundWriter;
import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ReplicatorProcess;
import io.oneway.testing.ShopWriter;

/**
 * SPEC §4, every stall visible, for capture from the WAL slower than the writers: a trigger on
 * oneway.change_log (where the WAL reader records) sleeps 10 ms a row, so the reader records at most
 * about 100 changes a second behind a writer at full speed. What it has not read is WAL, not
 * changes, so no backlog counts it, and the central side applies what it records at once. With
 * oneway.notify.behind-after at 6 s the remote replicator reports the stall falling-behind in
 * health, metric, status and a notification, naming the WAL reader and how far its slot is behind
 * the WAL; once the recording is quick again the reader catches up, the stall ends, told once, and
 * the tables are equal.
 */
class WalFallingBehindIT {

    private static ReplicationFixture fixture;
    private static DataSource remoteDb;
    private static ReplicatorProcess remote;

    @BeforeAll
    static void start() {
        // a recording of 100 changes takes a second: the reader moves at every check, never a read that stands still
        fixture = new ReplicationFixture("branch1").fromWal().with("oneway.capture.wal-batch", "100")
                .with("oneway.notify.behind-after", "6000").with("oneway.notify.endpoint", "log:io.oneway.notifications");
        remoteDb = fixture.remote("branch1");
        ShopWriter.createSharedCustomer(remoteDb);
        fixture.startCentral();
        remote = fixture.watch(ReplicatorProcess.start("remote", "256m", fixture.remoteProperties("branch1", new Properties()), "wal-falling-behind-remote"));
        fixture.captureFromWal("branch1", "shop.customers", "shop.orders", "shop.order_lines");
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    void a_wal_reader_slower_than_the_writers_is_the_stall_falling_behind_naming_the_reader_until_it_catches_up() throws Exception {
        exec(remoteDb, """
                create function public.slow_recording() returns trigger language plpgsql as $$ begin perform pg_sleep(0.01); return new; end $$;
                create trigger slow_recording before insert on oneway.change_log for each row execute function public.slow_recording();
                alter table oneway.change_log enable always trigger slow_recording""");
        try (BackgroundWriter writer = new BackgroundWriter(new ShopWriter(remoteDb, 1_000_000, 5), 50)) {
            await().atMost(Duration.ofSeconds(90)).until(() -> remote.metric("oneway_stalled", "state=\"falling-behind\"") == 1);
            String health = remote.health();
            assertTrue(health.contains("falling-behind") && health.contains("changes are recorded from the WAL")
                    && health.contains("the WAL reader sets the pace") && health.contains("bytes behind the WAL"), health);
            assertTrue(remote.metric("oneway_wal_behind_bytes") > 0);
            await().atMost(Duration.ofSeconds(10)).until(() -> remote.notifications("stalled", "falling-behind") > 0);
            assertTrue(((String) rows(remoteDb, "select stalls from oneway.monitor_state where component like 'transfer%'").get(0).get("stalls"))
                    .contains("the WAL reader sets the pace"), "./oneway status shows it");
            writer.stop();
        }
        // no DROP TRIGGER: it would wait for the recording in progress
        exec(remoteDb, "create or replace function public.slow_recording() returns trigger language plpgsql as $$ begin return new; end $$");
        await().atMost(Duration.ofSeconds(120)).until(() -> remote.metric("oneway_stalled", "state=\"falling-behind\"") == 0
                && remote.notifications("recovered", "falling-behind") > 0);
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(120));
        assertEquals(1, remote.notifications("stalled", "falling-behind"), "told once, not on and off");
        for (var table : fixture.verify("branch1")) {
            assertTrue(table.equal(), table.toString());
        }
        assertEquals(0, remote.metric("oneway_stalled"), "no other stall on the way: " + remote.health());
    }
}
