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

import javax.sql.DataSource;

import io.oneway.ops.SchemaInstaller.Part;
import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.PostgresFixture;
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

    @Test
    void the_receive_log_is_purged_in_whole_runs_of_about_the_batch_size_oldest_first_and_only_past_the_retention() {
        DataSource central = PostgresFixture.newDatabase("purge_runs", Part.CENTRAL).dataSource();
        for (int first : new int[] {1, 3, 5}) {
            exec(central, "insert into oneway.receive_run(source_id, first_position, last_position, received_at, applied_at, txids, object_types, "
                    + "object_ids, ops, states, logged_at, fingerprints) values ('b', ?, ? + 1, now(), now() - interval '8 days', '{1,1}', "
                    + "'{t,t}', '{\"{}\",\"{}\"}', '{I,I}', '{R,R}', array[now(), now()], array['\\x00'::bytea, '\\x00'::bytea])", first, first);
        }
        exec(central, "insert into oneway.receive_run(source_id, first_position, last_position, received_at, txids, object_types, object_ids, "
                + "ops, states, logged_at, fingerprints) values ('b', 7, 7, now(), '{2}', '{t}', '{\"{}\"}', '{I}', '{R}', array[now()], array['\\x00'::bytea])");

        // three changes asked for: the runs starting within them, 1-2 and 3-4
        assertEquals(4, number(central, "select oneway.purge_receive_log('7 days', 3)"));
        assertEquals(5, number(central, "select min(position) from oneway.receive_log"));
        assertEquals(2, number(central, "select oneway.purge_receive_log('7 days', 3)"));
        assertEquals(0, number(central, "select oneway.purge_receive_log('7 days', 3)"));
        assertEquals(7, number(central, "select min(position) from oneway.receive_log"));
    }
}
