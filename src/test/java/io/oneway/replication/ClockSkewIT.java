package io.oneway.replication;

import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.rows;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.oneway.testing.Injector;
import io.oneway.testing.ReplicationFixture;
import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ChangeRecord;
import io.oneway.wire.ControlMessage;

/**
 * A source whose clock is ten minutes slow (its changes' times and its heartbeats' clock read ten minutes
 * before this machine's), standing in for a branch without NTP: the central side tells the difference
 * from the heartbeats (status column source_clock_behind_seconds, the metric oneway_source_clock_behind_seconds),
 * counts the lag on its own clock (about 0 s, not 600) and never reports the source falling behind. A source
 * of a version whose heartbeats carry no clock is read as before: its changes look ten minutes late, and after
 * oneway.notify.behind-after the central side says it falls behind. The test stands in for both remotes on the
 * broker's queues, live (each sends its next change once the last is applied) for three spans of behind-after.
 */
class ClockSkewIT {

    private static final String KEYS = "branch1=DEMO-ONLY-branch1-hmac-key-change-me;branch2=DEMO-ONLY-branch2-hmac-key-change-me";
    private static final long SLOW_MILLIS = 600_000;
    private static final long BEHIND_AFTER_MILLIS = 3_000;

    @Test
    void a_source_clock_ten_minutes_slow_is_told_and_its_changes_are_not_taken_for_late() throws Exception {
        try (ReplicationFixture fixture = new ReplicationFixture().with("oneway.notify.behind-after", Long.toString(BEHIND_AFTER_MILLIS))) {
            fixture.startCentral();
            await().atMost(Duration.ofSeconds(30)).until(() -> rows(fixture.central(),
                    "select count(*) as n from oneway.monitor_state where component like 'source %'").get(0).get("n").equals(2L));
            boolean branch2Behind = false;
            List<String> branch1Stalls = new ArrayList<>();
            Map<String, Object> skewed = Map.of();
            Map<String, Object> unknown = Map.of();
            try (Injector remotes = new Injector(fixture.brokerPort(), KEYS)) {
                long start = System.currentTimeMillis();
                long position = 0;
                // live until branch2 is told falling behind, and three spans of behind-after at least
                while (!branch2Behind || System.currentTimeMillis() - start < 3 * BEHIND_AFTER_MILLIS) {
                    assertTrue(System.currentTimeMillis() - start < 60_000, "branch2 never told falling behind");
                    position++;
                    long slowNow = System.currentTimeMillis() - SLOW_MILLIS;
                    for (String source : List.of("branch1", "branch2")) {
                        String queue = "oneway." + source + ".changes";
                        int id = (source.equals("branch1") ? 0 : 100_000) + (int) position;
                        remotes.frame(queue, new ChangeFrame(source, incarnation(source), List.of(new ChangeRecord(position, 1000 + position, true,
                                "shop.tags", "I", false, "{\"id\": \"" + id + "\"}", "{\"id\": \"" + id + "\", \"label\": \"tag " + id + "\"}",
                                Instant.ofEpochMilli(slowNow).toString(), null))));
                        // branch2's heartbeats are those of a version that sent no clock
                        remotes.control(queue, ControlMessage.heartbeat(source, incarnation(source), position, position, 0,
                                source.equals("branch1") ? slowNow : 0));
                    }
                    unknown = state(fixture, "branch2");
                    branch2Behind |= unknown.get("stalls").toString().startsWith("falling-behind");
                    skewed = state(fixture, "branch1");
                    if (!"none".equals(skewed.get("stalls"))) {
                        branch1Stalls.add(skewed.get("stalls").toString());
                    }
                    // each source live and caught up: its next change once this one is applied
                    long sent = position;
                    await().atMost(Duration.ofSeconds(30)).until(() -> number(fixture.central(),
                            "select count(*) from oneway.source_progress where applied_position >= ?", sent) == 2);
                }
            }
            assertEquals(List.of(), branch1Stalls);

            double behind = ((Number) skewed.get("source_clock_behind_seconds")).doubleValue();
            assertTrue(behind >= SLOW_MILLIS / 1000.0 && behind < SLOW_MILLIS / 1000.0 + 2, "told " + behind + " s behind");
            assertTrue(((Number) skewed.get("lag_seconds")).doubleValue() < 5, skewed.toString());

            assertNull(unknown.get("source_clock_behind_seconds"));
            assertTrue(((Number) unknown.get("lag_seconds")).doubleValue() >= SLOW_MILLIS / 1000.0, unknown.toString());
        }
    }

    private static String incarnation(String source) {
        return source.equals("branch1") ? "11111111-2222-3333-4444-555555555555" : "22222222-2222-3333-4444-555555555555";
    }

    private static Map<String, Object> state(ReplicationFixture fixture, String source) {
        return rows(fixture.central(), "select stalls, lag_seconds, source_clock_behind_seconds from oneway.monitor_state where component = ?",
                "source " + source).get(0);
    }
}
