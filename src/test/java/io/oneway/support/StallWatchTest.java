package io.oneway.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.apache.camel.health.HealthCheck;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;

/**
 * The health check of one side: UP while no stall is in force and its monitor checks; DOWN with
 * the cause while a stall is, and DOWN as monitor-stopped once the monitor's last check is older
 * than the overdue time (its route no longer runs); a side whose monitor never ran (this
 * replicator does not run that side) stays UP.
 */
class StallWatchTest {

    /** A clock the test moves. */
    private static final class TestClock extends Clock {
        private Instant now = Instant.parse("2026-12-02T22:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    @Test
    void a_monitor_whose_check_is_overdue_makes_the_side_down() throws Exception {
        TestClock clock = new TestClock();
        StallWatch watch = new StallWatch("transfer", 180_000, clock);
        try (DefaultCamelContext camel = new DefaultCamelContext()) {
            watch.setCamelContext(camel);
            clock.advance(Duration.ofHours(1));
            assertEquals(HealthCheck.State.UP, watch.call().getState(), "a side whose monitor never ran");

            watch.observe(List.of(), 0, 0);
            clock.advance(Duration.ofSeconds(179));
            assertEquals(HealthCheck.State.UP, watch.call().getState());
            assertFalse(watch.inForce("monitor-stopped", null));

            clock.advance(Duration.ofSeconds(2));
            HealthCheck.Result down = watch.call();
            assertEquals(HealthCheck.State.DOWN, down.getState());
            String message = down.getMessage().orElseThrow();
            assertTrue(message.contains("monitor-stopped: the transfer monitor last checked 3 min 1 s ago") && message.contains("watch-link"), message);
            assertTrue(watch.inForce("monitor-stopped", null));

            watch.observe(List.of(new StallWatch.Stall("central-silent", "branch1", "no ack")), 0, 5);
            HealthCheck.Result stalled = watch.call();
            assertEquals(HealthCheck.State.DOWN, stalled.getState());
            assertTrue(stalled.getMessage().orElseThrow().contains("central-silent") && !stalled.getMessage().orElseThrow().contains("monitor-stopped"),
                    stalled.getMessage().orElseThrow());
            assertFalse(watch.inForce("monitor-stopped", null));

            watch.observe(List.of(), 0, 0);
            assertEquals(HealthCheck.State.UP, watch.call().getState());
        }
    }
}
