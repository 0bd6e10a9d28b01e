package io.oneway.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What a side refused, per source: counted by reason, and how many since a moment with the last one, for the stall monitors. */
class RefusalsTest {

    @Test
    void refusals_are_counted_by_reason_and_told_since_a_moment_per_source_with_the_last_reason() {
        OnewayMetrics metrics = new OnewayMetrics();
        Refusals refusals = new Refusals(metrics, 60_000);
        long start = System.currentTimeMillis();
        assertNull(refusals.since("a", 0), "none yet");
        for (int i = 0; i < 3; i++) {
            refusals.refuse("a", "malformed", "message of 30000 bytes is over the limit of 20000");
        }
        refusals.refuse("a", "integrity", "heartbeat message dropped");
        refusals.refuse("b", "integrity", "heartbeat message dropped");

        RecentEvents.Recent a = refusals.since("a", start);
        assertEquals(4, a.count());
        assertEquals("integrity: heartbeat message dropped", a.last());
        assertTrue(a.lastMillis() >= start);
        assertEquals(1, refusals.since("b", start).count(), "per source");
        assertNull(refusals.since("a", System.currentTimeMillis() + 1), "none after a moment to come");
        assertEquals(3.0, metrics.counter("oneway_refused_messages", "a", "reason", "malformed").count());
        assertEquals(1.0, metrics.counter("oneway_refused_messages", "a", "reason", "integrity").count());
    }

    @Test
    void a_source_refused_without_end_keeps_a_bounded_count() {
        Refusals refusals = new Refusals(new OnewayMetrics(), 60_000);
        for (int i = 0; i < 10_050; i++) {
            refusals.refuse("a", "malformed", "not valid JSON");
        }
        assertEquals(10_000, refusals.since("a", 0).count(), "the last 10,000 are kept");
    }
}
