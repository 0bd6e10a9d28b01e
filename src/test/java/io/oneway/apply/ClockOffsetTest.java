package io.oneway.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ClockOffsetTest {

    private static final long MINUTE = 60_000;
    private static final long T = 1_764_530_000_000L;

    @Test
    void nothing_heard_or_no_clock_said_is_clocks_that_agree() {
        ClockOffset offset = new ClockOffset();
        assertEquals(0, offset.millis());
        offset.heard(0, T);
        assertEquals(0, offset.millis());
        assertNull(offset.news("branch1"));
    }

    @Test
    void the_least_difference_is_the_offset_and_a_heartbeat_that_waited_does_not_move_it() {
        ClockOffset slow = new ClockOffset();
        slow.heard(T - 600_000 - 80, T);
        slow.heard(T + 1_000 - 600_000 - 15, T + 1_000);
        slow.heard(T + 2_000 - 600_000 - 45_000, T + 2_000);
        assertEquals(600_015, slow.millis(), "this clock ahead: the source's is slow");
        ClockOffset fast = new ClockOffset();
        fast.heard(T + 300_000 - 20, T);
        assertEquals(-299_980, fast.millis());
    }

    @Test
    void clocks_under_two_seconds_apart_agree() {
        ClockOffset offset = new ClockOffset();
        offset.heard(T - 1_900, T);
        assertEquals(0, offset.millis());
        offset.heard(T + MINUTE + 1_950, T + MINUTE);
        assertEquals(0, offset.millis());
        assertNull(offset.news("branch1"));
    }

    @Test
    void the_estimate_follows_the_last_ten_minutes_that_had_heartbeats_and_a_quiet_hour_keeps_it() {
        ClockOffset offset = new ClockOffset();
        offset.heard(T + 300_000, T);
        assertEquals(-300_000, offset.millis());
        // the source's clock set right (NTP): the minute that said it was fast ages out after ten more
        for (int m = 1; m <= 9; m++) {
            offset.heard(T + m * MINUTE - 30, T + m * MINUTE);
        }
        assertEquals(-300_000, offset.millis());
        offset.heard(T + 10 * MINUTE - 30, T + 10 * MINUTE);
        assertEquals(0, offset.millis());
        offset.heard(T + 11 * MINUTE - 90_000, T + 11 * MINUTE);
        assertEquals(0, offset.millis(), "the least of the ten minutes: 30 ms");
        // an hour with no heartbeat made while nothing was held back: the minutes heard last still count
        offset.heard(T + 71 * MINUTE - 90_000, T + 71 * MINUTE);
        assertEquals(0, offset.millis());
    }

    @Test
    void news_is_told_once_per_move_of_two_seconds_or_more() {
        ClockOffset offset = new ClockOffset();
        offset.heard(T - 600_000 - 40, T);
        assertEquals("Source branch1's clock is 600.0 s behind this replicator's (as its heartbeats tell): its changes' times are counted on "
                + "this replicator's clock for its lag and falling-behind; set both clocks right (NTP)", offset.news("branch1"));
        offset.heard(T + 1_000 - 600_000 - 30, T + 1_000);
        assertNull(offset.news("branch1"));
        offset.heard(T + 2_000 - 590_000, T + 2_000);
        assertEquals("Source branch1's clock is 590.0 s behind this replicator's (as its heartbeats tell): its changes' times are counted on "
                + "this replicator's clock for its lag and falling-behind; set both clocks right (NTP)", offset.news("branch1"));
        ClockOffset fast = new ClockOffset();
        fast.heard(T + 5_000, T);
        assertEquals("Source branch2's clock is 5.0 s ahead of this replicator's (as its heartbeats tell): its changes' times are counted on "
                + "this replicator's clock for its lag and falling-behind; set both clocks right (NTP)", fast.news("branch2"));
        for (int m = 1; m <= 10; m++) {
            fast.heard(T + m * MINUTE, T + m * MINUTE);
        }
        assertEquals("Source branch2's clock agrees with this replicator's again", fast.news("branch2"));
    }
}
