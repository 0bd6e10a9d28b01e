package io.oneway.replication;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.repair;
import static io.oneway.testing.Sql.rows;
import static io.oneway.testing.Sql.value;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.apache.camel.health.HealthCheck;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.oneway.ops.HaltWatch;
import io.oneway.ops.OnewayCommand;
import io.oneway.ops.Settings;
import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.Injector;
import io.oneway.testing.NotificationListener;
import io.oneway.testing.ReplicationFixture;
import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ChangeRecord;
import io.oneway.wire.ControlMessage;
import io.oneway.wire.Fingerprint;

/**
 * SPEC §4 control messages and the end-to-end digest, against someone who holds the source's
 * HMAC key: an ack above what was sent is an alarm and never recorded (nothing is purged on it);
 * a change substituted before the genuine one arrived is caught by the digest, which halts the
 * transfer and names the position; acks are acted on at once while a resend of 5,000 changes is served.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IntegrityIT {

    private static final String KEYS = "branch1=DEMO-ONLY-branch1-hmac-key-change-me";
    private static final String CHANGES = "oneway.branch1.changes";
    private static final String REPLIES = "oneway.branch1.replies";
    private static ReplicationFixture fixture;
    private static NotificationListener notifications;
    private static Injector attacker;
    private static Settings settings;
    private static DataSource remote;

    @BeforeAll
    static void start() throws Exception {
        fixture = ReplicationFixture.running("branch1", new ReplicationFixture("branch1").with("oneway.purge.retention", "0 seconds")
                .with("oneway.purge.interval", "200"));
        remote = fixture.remote("branch1");
        notifications = new NotificationListener(fixture.brokerPort());
        attacker = new Injector(fixture.brokerPort(), KEYS);
        settings = Settings.load(Path.of(""), null).with(fixture.commandSettings("branch1"));
    }

    @AfterAll
    static void stop() throws Exception {
        attacker.close();
        notifications.close();
        fixture.close();
    }

    @Test
    @Order(1)
    void an_ack_beyond_what_was_sent_raises_an_alarm_and_is_never_recorded() throws Exception {
        exec(remote, "insert into shop.customers(id, name) select g, 'c' || g from generate_series(10, 19) g");
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(30));
        fixture.stopCentral();
        exec(remote, "insert into shop.customers(id, name) values (20, 'not yet applied')");
        await().atMost(Duration.ofSeconds(30)).until(() -> number(remote, "select count(*) from oneway.change_log_status where position is null") == 0
                && number(remote, "select s.sent_position - c.last_position from oneway.sender_state s, oneway.position_counter c") == 0);
        long acked = number(remote, "select acked_position from oneway.sender_state");

        attacker.control(REPLIES, ControlMessage.ack("branch1", incarnation(), 99_999_999, 99_999_999, Fingerprint.text(new byte[32])));

        await().atMost(Duration.ofSeconds(30)).until(() -> notifications.containing("ack-beyond-sent").size() == 1);
        HealthCheck.Result health = transferHealth();
        assertEquals(HealthCheck.State.DOWN, health.getState());
        assertTrue(health.getMessage().orElse("").contains("Integrity ALARM"), health.getMessage().orElse(""));
        assertEquals(acked, number(remote, "select acked_position from oneway.sender_state"), "never recorded");
        assertEquals(1, number(remote, "select count(*) from oneway.change_log_status where object_id = '{\"id\": \"20\"}'"), "nothing purged on it");

        fixture.startCentral();
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(30));
        assertEquals(0, OnewayCommand.run(settings, "clear-alarms", List.of()));
        await().atMost(Duration.ofSeconds(30)).until(() -> transferHealth().getState() == HealthCheck.State.UP);
    }

    @Test
    @Order(2)
    void a_change_substituted_with_the_key_is_caught_by_the_digest_which_names_its_position() throws Exception {
        fixture.stopRemote("branch1");
        exec(remote, "insert into shop.customers(id, name) values (30, 'genuine')");
        exec(remote, "select oneway.assign_positions(1000)");
        Map<String, Object> genuine = rows(remote, "select position, txid, logged_at from oneway.change_log_status where object_id = '{\"id\": \"30\"}'").get(0);
        long position = (Long) genuine.get("position");
        // the forgery arrives first, at the position the central database expects next
        attacker.frame(CHANGES, new ChangeFrame("branch1", incarnation(), List.of(new ChangeRecord(position, (Long) genuine.get("txid"), true,
                "shop.customers", "I", false, "{\"id\": 30}", "{\"id\": 30, \"name\": \"forged\", \"balance\": 0}", "2026-11-30T10:00:00.000000Z", null))));
        await().atMost(Duration.ofSeconds(30)).until(() -> number(fixture.central(), "select count(*) from shop.customers where name = 'forged'") == 1);

        fixture.startRemote("branch1");
        await().atMost(Duration.ofSeconds(60)).until(() -> notifications.containing("first at position " + position).size() == 1);
        assertEquals(position, number(remote, "select diverged_position from oneway.sender_state"));
        String notice = notifications.containing("first at position " + position).get(0);
        assertTrue(notice.contains("Transfer HALTED") && notice.contains("shop.customers") && notice.contains("{\\\"id\\\": \\\"30\\\"}"), notice);
        assertEquals(1, notifications.containing("\"halted\"").stream().filter(n -> n.contains("Transfer HALTED")).count(),
                "halted once; what became known later comes as an update");
        assertTrue(transferHealth().getMessage().orElse("").contains("first at position " + position));

        // nothing more is sent while it lasts
        exec(remote, "insert into shop.customers(id, name) values (31, 'waits')");
        HaltWatch watch = fixture.remoteBean("branch1", "transferWatch", HaltWatch.class);
        long checks = watch.checks();
        await().atMost(Duration.ofSeconds(30)).until(() -> watch.checks() >= checks + 3);
        assertEquals(0, number(fixture.central(), "select count(*) from shop.customers where id = 31"));

        // an operator repairs the central row and resumes; the central database may also have acked the forged position before
        // this remote sent it, an alarm of its own, which the operator has now looked into
        String row = value(remote, "select to_jsonb(c)::text from shop.customers c where id = 30").toString();
        repair(fixture.central(), "put back customer 30 as the remote has it", "delete from shop.customers where id = 30",
                "insert into shop.customers select * from jsonb_populate_record(null::shop.customers, '" + row.replace("'", "''") + "'::jsonb)");
        assertEquals(0, OnewayCommand.run(settings, "resume-transfer", List.of()));
        assertEquals(0, OnewayCommand.run(settings, "clear-alarms", List.of()));
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(30)).until(() -> transferHealth().getState() == HealthCheck.State.UP);
        assertEquals("waits", value(fixture.central(), "select name from shop.customers where id = 31"));
        for (TableResult r : fixture.verify("branch1")) {
            assertTrue(r.equal(), r.toString());
        }
    }

    @Test
    @Order(3)
    void an_ack_is_acted_on_at_once_while_a_resend_of_5000_changes_is_served() throws Exception {
        fixture.stopCentral();
        long acked = number(remote, "select acked_position from oneway.sender_state");
        exec(remote, "insert into shop.customers(id, name) select g, repeat('w', 1500) || g from generate_series(1000, 5999) g");
        await().atMost(Duration.ofSeconds(60)).until(() -> number(remote, "select sent_position from oneway.sender_state") == acked + 5000);

        attacker.control(REPLIES, ControlMessage.resend("branch1", incarnation(), acked + 1, acked + 5000, Long.MAX_VALUE / 2));
        ControlMessage ack = ControlMessage.ack("branch1", incarnation(), acked + 100, acked + 100, digestAt(acked + 100));
        long sent = System.nanoTime();
        attacker.control(REPLIES, ack);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
                .until(() -> number(remote, "select acked_position from oneway.sender_state") == acked + 100);
        long latencyMillis = (System.nanoTime() - sent) / 1_000_000;
        long queued = queued();
        System.out.printf("ack recorded %d ms after it was sent, with %d messages queued for the central side by then%n", latencyMillis, queued);
        assertTrue(latencyMillis < 2_000, "the ack waited " + latencyMillis + " ms");

        fixture.startCentral();
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));
        for (TableResult r : fixture.verify("branch1")) {
            assertTrue(r.equal(), r.toString());
        }
    }

    private static String incarnation() {
        return (String) value(remote, "select incarnation::text from oneway.node");
    }

    /** The running digest at a position, computed from the remote's log as the central database would over what it applied. */
    private static String digestAt(long position) throws Exception {
        byte[] digest = (byte[]) value(remote, "select acked_digest from oneway.sender_state");
        long from = number(remote, "select acked_position from oneway.sender_state");
        try (Connection c = remote.getConnection();
                PreparedStatement ps = c.prepareStatement("select fingerprint from oneway.change_fingerprints(?, ?)")) {
            ps.setLong(1, from);
            ps.setLong(2, position);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    digest = Fingerprint.chain(digest, rs.getBytes(1));
                }
            }
        }
        return Fingerprint.text(digest);
    }

    private static long queued() throws Exception {
        try (jakarta.jms.Connection c = new org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory("tcp://127.0.0.1:" + fixture.brokerPort())
                .createConnection()) {
            c.start();
            jakarta.jms.QueueBrowser browser = c.createSession(false, jakarta.jms.Session.AUTO_ACKNOWLEDGE).createBrowser(
                    c.createSession(false, jakarta.jms.Session.AUTO_ACKNOWLEDGE).createQueue(CHANGES));
            return java.util.Collections.list((java.util.Enumeration<?>) browser.getEnumeration()).size();
        }
    }

    private static HealthCheck.Result transferHealth() {
        return fixture.remoteBean("branch1", "transferWatch", HaltWatch.class).call();
    }
}
