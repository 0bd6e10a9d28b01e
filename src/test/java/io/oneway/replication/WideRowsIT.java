package io.oneway.replication;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.rows;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import javax.sql.DataSource;

import org.apache.camel.health.HealthCheck;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.oneway.ops.HaltWatch;
import io.oneway.testing.NotificationListener;
import io.oneway.testing.ReplicationFixture;

/**
 * SPEC §4 sizes, through a link that drops, duplicates, reorders and corrupts: rows of 5 MB (a
 * transaction of them far over a frame and a central transaction) and a row of 40 MB arrive
 * exactly, in pieces; a row over oneway.wire.max-change-bytes stops the transfer loudly at it.
 * Source branch1 owns customers 1..20, branch2 customers 101..120.
 */
class WideRowsIT {

    private static final String ROWS = "select id, md5(to_jsonb(c)::text) as hash from shop.customers c where id between ? and ? order by id";
    private static ReplicationFixture fixture;
    private static NotificationListener notifications;

    @BeforeAll
    static void start() throws Exception {
        fixture = new ReplicationFixture("branch1", "branch2").lossy(0.05, 0.05, 0.02, 5);
        customers(fixture.remote("branch1"), 1);
        customers(fixture.remote("branch2"), 101);
        fixture.startCentral();
        fixture.startRemote("branch1");
        Properties small = new Properties();
        small.setProperty("oneway.wire.max-change-bytes", "2000000");
        fixture.startRemote("branch2", small);
        notifications = new NotificationListener(fixture.brokerPort());
    }

    @AfterAll
    static void stop() throws Exception {
        notifications.close();
        fixture.close();
    }

    @Test
    void rows_of_5_mb_in_one_transaction_and_a_row_of_40_mb_arrive_exactly() {
        wideRowsArriveExactly(fixture, "branch1");
    }

    /** Ten rows of 5 MB in one transaction, then a row of 40 MB, then a small change: all exact on the central database. */
    static void wideRowsArriveExactly(ReplicationFixture fixture, String source) {
        DataSource remote = fixture.remote(source);
        exec(remote, "update shop.customers set name = repeat('y', 5000000) || id, prefs = jsonb_build_object('n', id) where id <= 10");
        exec(remote, "update shop.customers set name = repeat('é', 20000000) || '😀' || id where id = 11");
        exec(remote, "update shop.customers set email = 'after the big ones' where id = 12");

        fixture.awaitCaughtUp(source, Duration.ofMinutes(5));
        List<Map<String, Object>> expected = rows(remote, ROWS, 1, 20);
        assertEquals(20, expected.size());
        assertEquals(expected, rows(fixture.central(), ROWS, 1, 20));
        assertEquals(40_000_006L, number(fixture.central(), "select octet_length(name) from shop.customers where id = 11"));
        assertEquals(0, number(fixture.central(), "select count(*) from oneway.staged_change"));
    }

    @Test
    void a_row_over_the_largest_change_stops_the_transfer_loudly_before_it() {
        DataSource remote = fixture.remote("branch2");
        exec(remote, "update shop.customers set email = 'before' where id = 101");
        exec(remote, "update shop.customers set name = repeat('z', 3000000) where id = 102");
        exec(remote, "update shop.customers set email = 'after' where id = 103");

        await().atMost(Duration.ofSeconds(60)).until(() -> notifications.containing("max-change-bytes").size() == 1);
        HealthCheck.Result health = fixture.remoteBean("branch2", "transferWatch", HaltWatch.class).call();
        assertEquals(HealthCheck.State.DOWN, health.getState());
        assertTrue(health.getMessage().orElse("").contains("over oneway.wire.max-change-bytes (2000000)"), health.getMessage().orElse(""));
        await().atMost(Duration.ofSeconds(30)).until(() -> number(fixture.central(), "select count(*) from shop.customers where id = 101 and email = 'before'") == 1);
        assertEquals(1, number(fixture.central(), "select count(*) from shop.customers where id = 103 and email is null"), "nothing after it is sent");
        assertEquals(1, number(remote, "select count(*) from oneway.change_log where state = 'B'"));
    }

    /** 20 customers from this id on, on the remote (captured) and so on the central database. */
    static void customers(DataSource remote, int from) {
        exec(remote, "insert into shop.customers(id, name) select g, 'c' || g from generate_series(?, ?) g", from, from + 19);
    }
}
