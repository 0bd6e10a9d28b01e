package io.oneway.ops;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.oneway.testing.CommandOutput;
import io.oneway.testing.MessageDropper;
import io.oneway.testing.Injector;
import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ReplicatorProcess;

/**
 * SPEC §4, every stall visible: messages refused or lost for good are stalls with their cause, where the source looked down or
 * nothing was told at all. Refused: the stall messages-refused, with the last reason. A remote replicator whose key is not the
 * central side's (a typo) has every message refused, heartbeats included: the central side said "source silent (its replicator
 * is down, or cut off)". A central side whose message limit is under the remote's frames refuses every frame while the heartbeats
 * pass: it told nothing, and logged every refusal (over 300 lines in 40 s). Now the central side tells each in health, metric,
 * status and a notification, per source, and logs a reason once; the remote's central-silent says that the central side may
 * refuse what it sends. Replies refused on the remote (junk on its replies queue while the central replicator is down) are told
 * there the same way. Lost: a harness between the queues that drops every change frame and passes the heartbeats left the
 * central side silent (the source heard, its gap asked for in vain) and the remote saying the central side was silent, or
 * nothing for five minutes while its acks repeated, though its resend requests kept coming; now both sides report the stall
 * changes-missing, the central side with the position asked for, the remote with the requests it answered. A harness that drops
 * the acks on the way back while everything else passes fills the remote's window: the central side, having applied all it got,
 * told nothing; now it reports acks-unheard, from the source's heartbeats that keep saying it holds less than was acked. Each
 * ends once its cause does.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LostOrRefusedIT {

    private static final String TYPO_KEYS = "branch2=DEMO-ONLY-branch2-hmac-key-change-me-typo";
    private static ReplicationFixture fixture;
    private static ReplicatorProcess central;
    private static ReplicatorProcess branch1;
    private static ReplicatorProcess branch2;
    private static Settings settings;
    /** Between branch2's replicator and its queue once its key is right (its send endpoint DLQ): passes everything until test 4. */
    private static MessageDropper harness;
    /** Between branch1's replies queue and its replicator (its reply endpoint ExpiryQueue): passes everything until test 5. */
    private static MessageDropper acksHarness;

    @BeforeAll
    static void start() throws Exception {
        fixture = new ReplicationFixture("branch1", "branch2")
                .with("oneway.notify.silent-after", "3000")
                .with("oneway.send.heartbeat-interval", "1000")
                .with("oneway.notify.endpoint", "log:io.oneway.notifications");
        Properties limited = fixture.centralProperties();
        // under the frames of 2000 changes the remote sends; a heartbeat is a few hundred bytes
        limited.setProperty("oneway.wire.max-message-bytes", "20000");
        limited.setProperty("oneway.send.frame-bytes", "10000");
        central = fixture.watch(ReplicatorProcess.start("central", "256m", limited, "refused-central"));
        Properties repliesViaHarness = new Properties();
        repliesViaHarness.setProperty("oneway.send.reply-endpoint", "jms:queue:ExpiryQueue");
        acksHarness = new MessageDropper(fixture.brokerPort(), "oneway.branch1.replies", "ExpiryQueue", Set.of("ack"));
        branch1 = remote("branch1", repliesViaHarness, "refused-branch1");
        Properties typo = new Properties();
        typo.setProperty("oneway.keys", TYPO_KEYS);
        branch2 = remote("branch2", typo, "refused-branch2");
        exec(fixture.remote("branch1"), "insert into shop.customers(id, name) values (1, 'one')");
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
        settings = Settings.load(Path.of(""), null).with(fixture.commandSettings("branch1"));
        harness = new MessageDropper(fixture.brokerPort(), "DLQ", "oneway.branch2.changes", Set.of("changes", "chunk"));
    }

    @AfterAll
    static void stop() throws Exception {
        harness.close();
        acksHarness.close();
        fixture.close();
    }

    @Test
    @Order(1)
    void a_remote_whose_key_is_not_the_central_sides_is_the_stall_messages_refused_of_that_source_not_a_silent_source() {
        exec(fixture.remote("branch2"), "insert into shop.customers(id, name) values (2, 'two')");
        await().atMost(Duration.ofSeconds(30)).until(() -> stalled(central, "branch2", "messages-refused"));
        String health = central.health();
        assertTrue(health.contains("messages-refused (source branch2)") && health.contains("nothing of source branch2 accepted for")
                && health.contains("of its messages refused meanwhile, the last for integrity: "), health);
        assertEquals(0, central.metric("oneway_stalled", "source=\"branch2\",state=\"source-silent\""), "not told as down: " + health);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            String status = CommandOutput.of(settings, "status");
            assertTrue(status.contains("messages-refused: nothing of source branch2 accepted"), "./oneway status names it in\n" + status);
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> central.notifications("stalled", "messages-refused") > 0);
        // the remote hears nothing back, and says the central side may be refusing what it sends
        await().atMost(Duration.ofSeconds(30)).until(() -> branch2.metric("oneway_stalled", "state=\"central-silent\"") > 0);
        assertTrue(branch2.health().contains("or it refuses what this side sends"), branch2.health());
        assertTrue(refusalLines(central, "branch2") <= 2, "a reason logged once, not once per message:\n" + central.logLines());

        branch2.close();
        Properties viaHarness = new Properties();
        viaHarness.setProperty("oneway.send.endpoint", "jms:queue:DLQ");
        branch2 = remote("branch2", viaHarness, "refused-branch2-fixed");
        await().atMost(Duration.ofSeconds(30)).until(() -> !stalled(central, "branch2", "messages-refused")
                && central.notifications("recovered", "messages-refused") > 0);
        fixture.awaitCaughtUp("branch2", Duration.ofSeconds(60));
        assertEquals(1, number(fixture.central(), "select count(*) from shop.customers where id = 2"));
    }

    @Test
    @Order(2)
    void frames_over_the_central_sides_message_limit_while_heartbeats_pass_are_the_stall_messages_refused_naming_the_limit() {
        long before = central.notifications("stalled", "messages-refused");
        exec(fixture.remote("branch1"), "insert into shop.customers(id, name) select g, repeat('x', 50) || g from generate_series(10, 3009) g");
        await().atMost(Duration.ofSeconds(30)).until(() -> stalled(central, "branch1", "messages-refused"));
        String health = central.health();
        assertTrue(health.contains("messages-refused (source branch1)")
                && health.contains("of its changes known to wait and none received after position")
                && health.contains("over the limit of 20000 (oneway.wire.max-message-bytes)"), health);
        await().atMost(Duration.ofSeconds(10)).until(() -> central.notifications("stalled", "messages-refused") > before);
        // refused at every resend the central side asks for, logged once
        await().atMost(Duration.ofSeconds(30)).until(() -> central.metric("oneway_refused_messages_total", "source=\"branch1\"") >= 10);
        assertTrue(refusalLines(central, "branch1") <= 2, "a reason logged once, not once per message:\n" + central.logLines());
        assertTrue(number(fixture.central(), "select count(*) from shop.customers where id >= 10") == 0, "nothing of the refused frames applied");
    }

    @Test
    @Order(3)
    void replies_refused_on_the_remote_while_nothing_else_comes_back_are_the_stall_messages_refused_there_until_the_central_side_answers()
            throws Exception {
        central.close();
        try (Injector junk = new Injector(fixture.brokerPort(), "branch1=DEMO-ONLY-branch1-hmac-key-change-me")) {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
                junk.raw("oneway.branch1.replies", "not a message of the protocol", 0, 0);
                return branch1.metric("oneway_stalled", "state=\"messages-refused\"") > 0;
            });
        }
        String health = branch1.health();
        assertTrue(health.contains("no ack accepted from the central side for") && health.contains("the last for malformed: "), health);
        await().atMost(Duration.ofSeconds(10)).until(() -> branch1.notifications("stalled", "messages-refused") > 0);

        // the central side back with its default limit: the frames it refused are taken, and the remote's stall ends
        central = fixture.watch(ReplicatorProcess.start("central", "256m", fixture.centralProperties(), "refused-central-default"));
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(90));
        assertEquals(3000, number(fixture.central(), "select count(*) from shop.customers where id >= 10"));
        await().atMost(Duration.ofSeconds(30)).until(() -> branch1.metric("oneway_stalled") == 0
                && branch1.notifications("recovered", "messages-refused") > 0);
    }

    @Test
    @Order(4)
    void frames_lost_on_the_way_while_heartbeats_pass_are_the_stall_changes_missing_on_both_sides_until_they_pass_again() throws Exception {
        harness.drop();
        try {
            exec(fixture.remote("branch2"), "insert into shop.customers(id, name) select g, 'lost ' || g from generate_series(5000, 5299) g");
            toldByTheCentralSide("branch2", "changes-missing", "changes-missing: position", "missing for", "the source heard all the while");
            await().atMost(Duration.ofSeconds(30)).until(() -> branch2.metric("oneway_stalled", "state=\"changes-missing\"") > 0);
            assertTrue(branch2.health().contains("times meanwhile for what it misses") && branch2.health().contains("this side sent it again"),
                    branch2.health());
            assertEquals(0, branch2.metric("oneway_stalled", "state=\"central-silent\""), "not told as down: " + branch2.health());
            assertTrue(harness.dropped() > 0);

        } finally {
            harness.passEverything();
        }
        fixture.awaitCaughtUp("branch2", Duration.ofSeconds(90));
        assertEquals(300, number(fixture.central(), "select count(*) from shop.customers where id between 5000 and 5299"));
        await().atMost(Duration.ofSeconds(30)).until(() -> !stalled(central, "branch2", "changes-missing")
                && central.notifications("recovered", "changes-missing") > 0 && branch2.metric("oneway_stalled") == 0
                && branch2.notifications("recovered", "changes-missing") > 0);
    }

    @Test
    @Order(5)
    void acks_lost_on_the_way_back_while_the_remotes_window_is_full_are_the_stall_acks_unheard_on_the_central_side() {
        acksHarness.drop();
        try {
            // more than the remote's window of 10000: it fills, and the remote sends nothing new until an ack comes
            exec(fixture.remote("branch1"), "insert into shop.customers(id, name) select g, 'unheard ' || g from generate_series(20000, 30499) g");
            toldByTheCentralSide("branch1", "acks-unheard", "acks-unheard: its heartbeats say", "its heartbeats say it holds only up to position",
                    "this side's acks do not reach it");
            await().atMost(Duration.ofSeconds(30)).until(() -> branch1.metric("oneway_stalled", "state=\"central-silent\"") > 0);
            assertTrue(branch1.health().contains("or its acks are lost on the way here"), branch1.health());
            assertTrue(acksHarness.dropped() > 0);
        } finally {
            acksHarness.passEverything();
        }
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(90));
        assertEquals(10_500, number(fixture.central(), "select count(*) from shop.customers where id between 20000 and 30499"));
        await().atMost(Duration.ofSeconds(30)).until(() -> !stalled(central, "branch1", "acks-unheard")
                && central.notifications("recovered", "acks-unheard") > 0 && branch1.metric("oneway_stalled") == 0);
    }

    /** The central side tells the stall of the source in health (with each text), status and a notification, and not as a silent source. */
    private static void toldByTheCentralSide(String source, String state, String statusText, String... healthTexts) {
        await().atMost(Duration.ofSeconds(60)).until(() -> stalled(central, source, state));
        String health = central.health();
        assertTrue(health.contains(state + " (source " + source + ")"), health);
        for (String text : healthTexts) {
            assertTrue(health.contains(text), health);
        }
        assertEquals(0, central.metric("oneway_stalled", "source=\"" + source + "\",state=\"source-silent\""), health);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            String status = CommandOutput.of(settings, "status");
            assertTrue(status.contains(statusText), "./oneway status names it in\n" + status);
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> central.notifications("stalled", state) > 0);
    }

    private static ReplicatorProcess remote(String source, Properties own, String logName) {
        return fixture.watch(ReplicatorProcess.start("remote", "256m", fixture.remoteProperties(source, own), logName));
    }

    private static boolean stalled(ReplicatorProcess side, String source, String state) {
        return side.metric("oneway_stalled", "source=\"" + source + "\",state=\"" + state + "\"") > 0;
    }

    private static long refusalLines(ReplicatorProcess side, String source) {
        List<String> lines = side.logLines();
        return lines.stream().filter(l -> l.contains("Refused a message for source " + source)).count();
    }
}
