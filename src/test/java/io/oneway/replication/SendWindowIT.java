package io.oneway.replication;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.oneway.testing.ReplicationFixture;

/**
 * SPEC §4 flow control: a send window (here 50 changes and 1 MB) that fills long before the central side's
 * oneway.apply.ack-every (2000 changes) goes on as soon as the central side has applied what filled it, and a source
 * transaction larger than the window, in changes or in bytes of wide rows, is staged by the central side instead of
 * held whole until its end arrives (which the full window would never send). The ack tick, the heartbeats and the
 * retransmissions, which would also bring an ack, are a minute apart here: a window waiting for any of them would not
 * move again within the test's time (each case failed so before the sender told its window's state).
 */
class SendWindowIT {

    private static final String ROWS = "select id, md5(to_jsonb(c)::text) as hash from shop.customers c order by id";
    private static ReplicationFixture fixture;
    private static DataSource remote;

    @BeforeAll
    static void start() {
        fixture = new ReplicationFixture("branch1")
                .with("oneway.apply.tick", "60000")
                .with("oneway.send.heartbeat-interval", "60000")
                .with("oneway.send.retransmit-after", "60000")
                .with("oneway.send.max-retransmit-after", "60000")
                .with("oneway.send.window", "50")
                .with("oneway.send.window-bytes", "1000000");
        remote = fixture.remote("branch1");
        fixture.startCentral();
        fixture.startRemote("branch1");
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    void a_window_of_fewer_changes_than_ack_every_goes_on_without_the_ack_tick() {
        // 600 changes: twelve windows of 50, fewer than one ack-every
        for (int t = 0; t < 12; t++) {
            exec(remote, "insert into shop.customers (id, name, email) select g, 'customer ' || g, 'c' || g || '@example.com' "
                    + "from generate_series(?, ?) g", 1000 + t * 50, 1000 + t * 50 + 49);
        }
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(45));
        assertSameRows();
    }

    @Test
    void a_transaction_of_more_changes_than_the_window_is_staged_instead_of_waiting_for_ever() {
        // 300 changes in one transaction: six windows, fewer than a central run (oneway.apply.max-run, 5000), which alone
        // would have staged it; the central side held the first 50, waiting for the transaction's end, and the sender
        // waited for an ack of them
        exec(remote, "insert into shop.customers (id, name, email) select g, 'customer ' || g, 'c' || g || '@example.com' "
                + "from generate_series(3001, 3300) g");
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(45));
        assertSameRows();
        assertEquals(0, number(fixture.central(), "select count(*) from oneway.staged_change"));
    }

    @Test
    void a_transaction_of_wide_rows_over_the_window_of_bytes_goes_on_without_the_ack_tick() {
        // in one transaction, 40 rows of 100 kB and 4 of 400 kB (each in three pieces): 5.6 MB, over the window of 1 MB
        // and under a central run's 8 MB (oneway.apply.max-run-bytes); then rows of 100 kB in transactions of their own
        exec(remote, "insert into shop.customers (id, name, email) select g, repeat(md5(g::text), case when g > 5040 then 12800 else 3200 end), "
                + "'w' || g || '@example.com' from generate_series(5001, 5044) g");
        for (int id = 5045; id < 5075; id++) {
            exec(remote, "insert into shop.customers (id, name) values (?, repeat(md5(?::text), 3200))", id, id);
        }
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(45));
        assertSameRows();
    }

    private static void assertSameRows() {
        List<Map<String, Object>> expected = rows(remote, ROWS);
        assertEquals(expected, rows(fixture.central(), ROWS));
    }
}
