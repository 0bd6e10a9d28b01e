package io.oneway.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The central side's lag of a source: while announced changes wait, the age of the last applied one;
 * between two frames of a backlog (nothing announced waits, the next frame not read yet) the delay
 * of the last apply, for as long as the recent window; 0 after it, and for changes of no known time.
 * Changes the source's heartbeat said it captured and holds back count as waiting.
 */
class ReceiverStatusTest {

    private static final long RECENT = 10_000;
    private static final long NOW = 1_000_000_000L;

    @Test
    void announced_changes_waiting_read_as_the_age_of_the_last_applied_one() {
        ReceiverStatus st = status(100, 150, NOW - 90_000, NOW - 30_000);
        assertEquals(150 - 100, st.backlog());
        assertEquals(90.0, st.lagSeconds(NOW, RECENT));
    }

    @Test
    void between_two_frames_of_a_backlog_the_last_apply_delay_is_kept_for_the_recent_window() {
        // applied 2 s ago, 120 s after its capture: minutes behind, though nothing announced waits
        ReceiverStatus st = status(150, 150, NOW - 122_000, NOW - 2_000);
        assertEquals(0, st.backlog());
        assertEquals(120.0, st.lagSeconds(NOW, RECENT));
        assertEquals(120.0, st.lagSeconds(NOW - 2_000 + RECENT, RECENT));
    }

    @Test
    void a_source_idle_after_its_last_apply_for_longer_than_the_window_is_not_late() {
        ReceiverStatus st = status(150, 150, NOW - 122_000, NOW - 2_000);
        assertEquals(0.0, st.lagSeconds(NOW - 2_000 + RECENT + 1, RECENT));
    }

    @Test
    void a_live_source_caught_up_reads_its_last_apply_delay_and_unknown_times_read_0() {
        assertEquals(0.25, status(150, 150, NOW - 1_250, NOW - 1_000).lagSeconds(NOW, RECENT));
        assertEquals(0.0, status(150, 200, 0, NOW - 1_000).lagSeconds(NOW, RECENT));
        assertEquals(0.0, ReceiverStatus.NONE.lagSeconds(NOW, RECENT));
    }

    @Test
    void changes_the_source_captured_and_holds_back_count_in_the_backlog_and_the_lag() {
        // every change sent is applied; its heartbeat said 400 more wait there (its window full, or the link was down)
        ReceiverStatus st = status(150, 150, 550, NOW - 90_000, NOW - 30_000);
        assertEquals(400, st.backlog());
        assertEquals(90.0, st.lagSeconds(NOW, RECENT));
        assertEquals(50, status(100, 150, 120, NOW - 90_000, NOW - 30_000).backlog(), "a heartbeat older than the frames read counts no more");
    }

    private static ReceiverStatus status(long applied, long announced, long appliedLoggedAt, long appliedAt) {
        return status(applied, announced, 0, appliedLoggedAt, appliedAt);
    }

    private static ReceiverStatus status(long applied, long announced, long sourceCaptured, long appliedLoggedAt, long appliedAt) {
        return new ReceiverStatus(applied, applied, announced, sourceCaptured, 0, 0, 0, false, appliedAt, appliedLoggedAt, appliedAt, 0, null, "i",
                null, 0, null, null);
    }
}
