package io.oneway.replication;

import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.value;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;


import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.oneway.support.RecentEvents;
import io.oneway.support.Refusals;
import io.oneway.testing.Injector;
import io.oneway.testing.ReplicationFixture;
import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ChangeRecord;

/** SPEC §4, §5, §8 bad input: forged, unknown, malformed and hostile messages are refused and change nothing; other sources go on. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RefusalIT {

    private static final String KEYS = "branch1=DEMO-ONLY-branch1-hmac-key-change-me;branch2=DEMO-ONLY-branch2-hmac-key-change-me";
    private static final String INCARNATION = "11111111-2222-3333-4444-555555555555";
    private static ReplicationFixture fixture;

    @BeforeAll
    static void start() {
        fixture = new ReplicationFixture();
        fixture.startCentral();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    @Order(1)
    void a_value_shaped_like_sql_injection_is_stored_as_plain_text() throws Exception {
        String hostile = "x'); drop table shop.orders; --";
        send("branch1", KEYS, insert(1, "shop.customers", "{\"id\": 501}", "{\"id\": 501, \"name\": \"" + hostile.replace("\"", "\\\"") + "\", \"balance\": 0}"));
        awaitApplied("branch1", 1);
        assertEquals(hostile, value(fixture.central(), "select name from shop.customers where id = 501"));
    }

    @Test
    @Order(2)
    void a_forged_message_one_of_an_unknown_source_one_on_another_sources_queue_and_malformed_ones_change_nothing() throws Exception {
        long before = System.currentTimeMillis();
        send("branch1", "branch1=an-attacker-guessed-this-key", insert(2, "shop.customers", "{\"id\": 666}", "{\"id\": 666, \"name\": \"forged\", \"balance\": 0}"));
        send("branch1", "intruder=the-intruder-has-its-own-key", frame("intruder",
                insert(2, "shop.customers", "{\"id\": 667}", "{\"id\": 667, \"name\": \"intruder\", \"balance\": 0}")));
        // signed with its own key, on the queue of another: kept for branch2's monitor too, whose silence it explains
        send("branch1", KEYS, frame("branch2",
                insert(2, "shop.customers", "{\"id\": 668}", "{\"id\": 668, \"name\": \"misrouted\", \"balance\": 0}")));
        sendRaw("oneway.branch1.changes", "{not json at all");
        sendRaw("oneway.branch1.changes", "{\"v\":1,\"kind\":\"changes\",\"source\":\"branch1\",\"incarnation\":\"" + INCARNATION
                + "\",\"changes\":[{\"p\":\"two\"}]}");
        // a valid change after them proves they were read and passed over
        send("branch1", KEYS, insert(2, "shop.customers", "{\"id\": 502}", "{\"id\": 502, \"name\": \"valid\", \"balance\": 0}"));
        awaitApplied("branch1", 2);

        assertEquals(0, number(fixture.central(), "select count(*) from shop.customers where id in (666, 667, 668)"));
        RecentEvents.Recent misrouted = fixture.centralBean("sourceRefusals", Refusals.class).since("branch2", before);
        assertTrue(misrouted != null && misrouted.last().equals("wrong-source: message of source 'branch2' arrived on the endpoint of 'branch1'. "
                + "Nothing was taken from it"), String.valueOf(misrouted));
        assertEquals(2, number(fixture.central(), "select count(*) from oneway.receive_log where source_id = 'branch1'"));
        assertEquals(0, number(fixture.central(), "select count(*) from oneway.source_progress where source_id = 'intruder'"));
    }

    @Test
    @Order(3)
    void a_change_of_a_table_not_configured_halts_its_source_and_other_sources_go_on() throws Exception {
        send("branch2", KEYS, insert(1, "shop.not_replicated", "{\"id\": 1}", "{\"id\": 1, \"v\": \"secret\"}"));
        awaitHalted("branch2");
        assertTrue(haltReason("branch2").contains("shop.not_replicated"), haltReason("branch2"));
        assertEquals(0, number(fixture.central(), "select count(*) from shop.not_replicated"));

        send("branch1", KEYS, insert(3, "shop.customers", "{\"id\": 503}", "{\"id\": 503, \"name\": \"goes on\", \"balance\": 0}"));
        awaitApplied("branch1", 3);
    }

    @Test
    @Order(4)
    void injection_shaped_table_and_column_names_halt_the_source_and_execute_nothing() throws Exception {
        send("branch1", KEYS, insert(4, "shop.customers\"; drop table shop.orders; --", "{\"id\": 504}", "{\"id\": 504, \"name\": \"n\"}"));
        awaitHalted("branch1");
        assertTrue(haltReason("branch1").contains("not replicated"), haltReason("branch1"));
        assertEquals(1, number(fixture.central(), "select count(*) from pg_tables where schemaname = 'shop' and tablename = 'orders'"));
        assertEquals(3, number(fixture.central(), "select applied_position from oneway.source_progress where source_id = 'branch1'"));
    }

    private static ChangeRecord insert(long position, String table, String key, String row) {
        return new ChangeRecord(position, 1000 + position, true, table, "I", false, key, row, "2026-01-01 00:00:00+00", null);
    }

    private static ChangeFrame frame(String source, ChangeRecord change) {
        return new ChangeFrame(source, INCARNATION, List.of(change));
    }

    private static void send(String source, String keys, ChangeRecord change) throws Exception {
        send(source, keys, frame(source, change));
    }

    /** Signs with the given keys and puts the frame on the source's queue, as a sender (or an attacker) would. */
    private static void send(String queueSource, String keys, ChangeFrame frame) throws Exception {
        try (Injector injector = new Injector(fixture.brokerPort(), keys)) {
            injector.frame("oneway." + queueSource + ".changes", frame);
        }
    }

    private static void sendRaw(String queue, String body) throws Exception {
        try (Injector injector = new Injector(fixture.brokerPort(), KEYS)) {
            injector.raw(queue, body, 1, 1);
        }
    }

    private static void awaitApplied(String source, long position) {
        await().atMost(Duration.ofSeconds(30)).until(() -> number(fixture.central(),
                "select coalesce(max(applied_position), 0) from oneway.source_progress where source_id = ?", source) == position);
    }

    private static void awaitHalted(String source) {
        await().atMost(Duration.ofSeconds(30)).until(() -> number(fixture.central(),
                "select count(*) from oneway.source_progress where source_id = ? and halted", source) == 1);
    }

    private static String haltReason(String source) {
        return (String) value(fixture.central(), "select halt_reason from oneway.source_progress where source_id = ?", source);
    }
}
