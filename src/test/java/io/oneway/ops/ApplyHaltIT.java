package io.oneway.ops;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.repair;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.value;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.apache.camel.health.HealthCheck;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.oneway.testing.NotificationListener;
import io.oneway.testing.ReplicationFixture;

/** SPEC §5–§6 on the central side: divergence halts the source and is notified; an operator resumes it or skips the change. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ApplyHaltIT {

    private static ReplicationFixture fixture;
    private static NotificationListener notifications;
    private static Settings settings;

    @BeforeAll
    static void start() throws Exception {
        fixture = new ReplicationFixture("branch1");
        fixture.startCentral();
        fixture.startRemote("branch1");
        notifications = new NotificationListener(fixture.brokerPort());
        settings = Settings.load(Path.of(""), null).with(fixture.commandSettings("branch1"));
        for (int i = 1; i <= 3; i++) {
            exec(fixture.remote("branch1"), "insert into shop.customers(id, name) values (?, ?)", i, "c" + i);
        }
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(30));
    }

    @AfterAll
    static void stop() throws Exception {
        notifications.close();
        fixture.close();
    }

    @Test
    @Order(1)
    void an_update_that_finds_no_row_halts_the_source_and_is_notified() {
        long before = number(fixture.central(), "select applied_position from oneway.source_progress");
        repair(fixture.central(), "test: the central database loses a row", "delete from shop.customers where id = 2");
        // one statement, two rows: the two updates are applied as one batch, which must still name the change that diverged
        exec(fixture.remote("branch1"), "update shop.customers set name = 'changed' where id in (1, 2)");
        exec(fixture.remote("branch1"), "insert into shop.customers(id, name) values (4, 'c4')");

        await().atMost(Duration.ofSeconds(30)).until(() -> notifications.containing("\"halted\"").size() == 1);
        String notice = notifications.containing("\"halted\"").get(0);
        long diverged = number(fixture.remote("branch1"), "select position from oneway.change_log_status where op = 'U' and object_id = '{\"id\": \"2\"}'");
        assertTrue(notice.contains("\"side\":\"apply\"") && notice.contains("\"halted_position\":\"" + diverged + "\"") && notice.contains("found no row"), notice);
        assertTrue(notice.contains("./oneway resume branch1"), notice);
        assertEquals(HealthCheck.State.DOWN, fixture.centralBean("applyWatch", HaltWatch.class).call().getState());
        assertEquals(before, number(fixture.central(), "select applied_position from oneway.source_progress"));
        assertEquals(0, number(fixture.central(), "select count(*) from shop.customers where id = 4"));
    }

    @Test
    @Order(2)
    void after_the_cause_is_fixed_resume_applies_everything_in_order() throws Exception {
        repair(fixture.central(), "put back the row the central database lost", "insert into shop.customers(id, name) values (2, 'c2')");
        assertEquals(0, OnewayCommand.run(settings, "resume", List.of("branch1")));

        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(30));
        assertEquals("changed", value(fixture.central(), "select name from shop.customers where id = 2"));
        await().atMost(Duration.ofSeconds(30)).until(() -> notifications.containing("\"resumed\"").size() == 1);
        assertEquals(HealthCheck.State.UP, fixture.centralBean("applyWatch", HaltWatch.class).call().getState());
        assertEquals(0, OnewayCommand.run(settings, "verify", List.of()));
    }

    @Test
    @Order(3)
    void skipping_the_change_a_source_halted_at_is_explicit_and_recorded_in_the_receive_log() throws Exception {
        repair(fixture.central(), "test: the central database loses a row", "delete from shop.customers where id = 3");
        exec(fixture.remote("branch1"), "delete from shop.customers where id = 3");
        exec(fixture.remote("branch1"), "insert into shop.customers(id, name) values (5, 'c5')");
        await().atMost(Duration.ofSeconds(30)).until(() -> notifications.containing("\"halted\"").size() == 2);
        long halted = number(fixture.central(), "select halted_position from oneway.source_progress");

        assertEquals(1, OnewayCommand.run(settings, "skip", List.of("branch1", Long.toString(halted + 1))), "only the halted change can be skipped");
        assertEquals(0, OnewayCommand.run(settings, "skip", List.of("branch1", Long.toString(halted))));

        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(30));
        assertEquals("S", value(fixture.central(), "select state from oneway.receive_log where position = ?", halted));
        assertEquals(1, number(fixture.central(), "select count(*) from oneway.receive_log where state = 'S'"));
        assertEquals(1, number(fixture.central(), "select count(*) from shop.customers where id = 5"));
        assertEquals(0, OnewayCommand.run(settings, "verify", List.of()));
    }
}
