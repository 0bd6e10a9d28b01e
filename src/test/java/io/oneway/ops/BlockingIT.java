package io.oneway.ops;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.rows;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

import org.apache.camel.health.HealthCheck;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.oneway.apply.GapDetector;
import io.oneway.support.StallWatch;
import io.oneway.testing.CommandOutput;
import io.oneway.testing.NotificationListener;
import io.oneway.testing.ReplicationFixture;

/**
 * SPEC §6 on the remote side: a blocked record stops the transfer, operators are told once,
 * unblocking resumes it in order. And SPEC §4, every stall visible: a sender that no longer sends
 * while changes wait (route send-changes not polling, as Camel leaves a scheduled route for good
 * once an Error such as running out of memory escapes its poll) is a stall, though the central
 * side's acks of what came before keep coming.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BlockingIT {

    private static ReplicationFixture fixture;
    private static NotificationListener notifications;
    private static Settings settings;
    /** Positions taken before the test's changes: capture enabled on each table is a schema change of its own. */
    private static long base;

    @BeforeAll
    static void start() throws Exception {
        fixture = new ReplicationFixture("branch1").with("oneway.notify.silent-after", "3000");
        fixture.startCentral();
        notifications = new NotificationListener(fixture.brokerPort());
        settings = Settings.load(Path.of(""), null).with(fixture.commandSettings("branch1"));
        base = number(fixture.remote("branch1"), "select count(*) from oneway.change_log where op = 'S'");
    }

    @AfterAll
    static void stop() throws Exception {
        notifications.close();
        fixture.close();
    }

    @Test
    @Order(1)
    void a_blocked_change_stops_the_transfer_before_it_and_operators_are_told_once() throws Exception {
        for (int i = 1; i <= 5; i++) {
            exec(fixture.remote("branch1"), "insert into shop.customers(id, name) values (?, ?)", i, "c" + i);
        }
        long third = number(fixture.remote("branch1"), "select log_id from oneway.change_log where object_id = '{\"id\": \"3\"}'");
        assertEquals(0, OnewayCommand.run(settings, "block-change", List.of(Long.toString(third), "customer 3 is under audit")));
        fixture.startRemote("branch1");

        await().atMost(Duration.ofSeconds(30)).until(() -> notifications.containing("\"halted\"").size() == 1);
        String notice = notifications.containing("\"halted\"").get(0);
        for (String expected : List.of("\"log_id\":\"" + third + "\"", "\"position\":\"" + (base + 3) + "\"", "shop.customers", "{\\\"id\\\": \\\"3\\\"}", "\"op\":\"I\"",
                "\"waiting\":\"2\"", "customer 3 is under audit", "since")) {
            assertTrue(notice.contains(expected), expected + " in " + notice);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> applied() == base + 2);
        assertEquals(HealthCheck.State.DOWN, transferHealth().getState());
        assertTrue(transferHealth().getMessage().orElse("").contains("log id " + third));

        // more checks pass while it stays blocked: still one notice, and nothing after the block is sent
        exec(fixture.remote("branch1"), "insert into shop.customers(id, name) values (6, 'c6')");
        HaltWatch watch = fixture.remoteBean("branch1", "transferWatch", HaltWatch.class);
        long checks = watch.checks();
        await().atMost(Duration.ofSeconds(30)).until(() -> watch.checks() >= checks + 3);
        assertEquals(1, notifications.containing("\"halted\"").size());
        assertEquals(base + 2, applied());
        assertEquals(0, number(fixture.central(), "select count(*) from shop.customers where id >= 3"));

        await().atMost(Duration.ofSeconds(30)).until(() -> number(fixture.remote("branch1"), "select last_position from oneway.position_counter") == base + 6);
        String status = CommandOutput.of(settings, "status");
        for (String[] line : new String[][] {{"captured", Long.toString(base + 6)}, {"acknowledged", Long.toString(base + 2)},
                {"not_yet_positioned", "0"}, {"backlog", "4"}, {"log_id", Long.toString(third)}, {"waiting", "3"},
                {"reason", "customer 3 is under audit"}, {"applied_position", Long.toString(base + 2)}}) {
            String expected = String.format("  %-20s %s%n", line[0], line[1]);
            assertTrue(status.contains(expected), expected + " in\n" + status);
        }
        assertFalse(status.contains("not reachable"), status);
        // the central side counts them too, from the remote's heartbeats: it has applied every change sent (its
        // backlog read 0 when only what was sent counted)
        GapDetector detector = fixture.centralBean("gapDetector", GapDetector.class);
        await().atMost(Duration.ofSeconds(30)).until(() -> detector.statuses().get("branch1").backlog() == 4);
    }

    @Test
    @Order(2)
    void unblocking_resumes_the_transfer_by_itself_and_everything_arrives_in_order() throws Exception {
        long third = number(fixture.remote("branch1"), "select log_id from oneway.change_log where object_id = '{\"id\": \"3\"}'");
        assertEquals(0, OnewayCommand.run(settings, "unblock-change", List.of(Long.toString(third))));

        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(30)).until(() -> notifications.containing("\"resumed\"").size() == 1);
        assertEquals(HealthCheck.State.UP, transferHealth().getState());
        assertEquals(java.util.stream.LongStream.rangeClosed(1, base + 6).boxed().toList(),
                rows(fixture.central(), "select position from oneway.receive_log order by applied_at, position")
                .stream().map(r -> (Long) r.get("position")).toList());
        assertEquals(0, OnewayCommand.run(settings, "verify", List.of()));
    }

    @Test
    @Order(3)
    void blocking_an_object_blocks_all_its_unsent_changes_and_an_applied_change_cannot_be_blocked() throws Exception {
        fixture.stopRemote("branch1");
        exec(fixture.remote("branch1"), "update shop.customers set name = 'x' where id = 4");
        exec(fixture.remote("branch1"), "insert into shop.customers(id, name) values (7, 'c7')");
        exec(fixture.remote("branch1"), "update shop.customers set name = 'y' where id = 4");
        assertEquals(0, OnewayCommand.run(settings, "block", List.of("shop.customers", "{\"id\": 4}", "checking")));
        assertEquals(2, number(fixture.remote("branch1"), "select count(*) from oneway.change_log where state = 'B'"));

        SQLException applied = assertThrows(SQLException.class, () -> {
            try (Connection c = fixture.remote("branch1").getConnection()) {
                exec(c, "select oneway.block_change((select log_id from oneway.change_log_status where position = 1))");
            }
        });
        assertEquals("55000", applied.getSQLState());

        fixture.startRemote("branch1");
        await().atMost(Duration.ofSeconds(30)).until(() -> notifications.containing("\"halted\"").size() == 2);
        assertEquals(base + 6, applied());
        assertEquals(0, OnewayCommand.run(settings, "unblock", List.of("shop.customers", "{\"id\": 4}")));
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(30));
        assertEquals("y", rows(fixture.central(), "select name from shop.customers where id = 4").get(0).get("name"));
        SQLException nothingLeft = assertThrows(SQLException.class, () -> OnewayCommand.run(settings, "unblock", List.of("shop.customers", "{\"id\": 4}")));
        assertTrue(nothingLeft.getMessage().contains("has no blocked change"), nothingLeft.getMessage());
    }

    @Test
    @Order(4)
    void a_sender_that_stops_sending_is_a_stall_with_its_cause_until_it_sends_again() throws Exception {
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
        assertTrue(notifications.containing("\"sender-stopped\"").isEmpty(), "a halt is no sender stall: " + notifications.received());
        StallWatch stalls = fixture.remoteBean("branch1", "transferStalls", StallWatch.class);
        fixture.remoteRoutes("branch1").stopRoute("send-changes");
        exec(fixture.remote("branch1"), "insert into shop.customers(id, name) values (9001, 'waits for the sender')");

        await().atMost(Duration.ofSeconds(30)).until(() -> stalls.inForce("sender-stopped", "branch1"));
        HealthCheck.Result health = stalls.call();
        assertEquals(HealthCheck.State.DOWN, health.getState());
        String message = health.getMessage().orElse("");
        assertTrue(message.contains("sender-stopped") && message.contains("wait to be sent") && message.contains("route send-changes"), message);
        assertFalse(stalls.inForce("central-silent", "branch1"), "the central side's acks keep coming: it is not silent");
        await().atMost(Duration.ofSeconds(10)).until(() -> notifications.containing("\"stalled\"").stream().anyMatch(n -> n.contains("sender-stopped")));
        String status = CommandOutput.of(settings, "status");
        assertTrue(status.contains("sender-stopped: positions"), "./oneway status names it in\n" + status);

        fixture.remoteRoutes("branch1").startRoute("send-changes");
        await().atMost(Duration.ofSeconds(30)).until(() -> !stalls.inForce("sender-stopped", "branch1"));
        await().atMost(Duration.ofSeconds(10)).until(() -> notifications.containing("\"recovered\"").stream().anyMatch(n -> n.contains("sender-stopped")));
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
        assertEquals(1, number(fixture.central(), "select count(*) from shop.customers where id = 9001"));
    }

    private static HealthCheck.Result transferHealth() {
        return fixture.remoteBean("branch1", "transferWatch", HaltWatch.class).call();
    }

    private static long applied() {
        return number(fixture.central(), "select coalesce(max(applied_position), 0) from oneway.source_progress where source_id = 'branch1'");
    }
}
