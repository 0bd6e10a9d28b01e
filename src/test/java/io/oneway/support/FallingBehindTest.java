package io.oneway.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Checks every 2 s with behind-after 60 s: a backlog that does not shrink over a minute while
 * changes are applied over a minute after their capture is told, with both rates; a backlog that
 * shrinks (a catch-up), one the central side applies in less than a minute at its rate (old
 * changes from a WAL reader behind), changes applied soon enough, too short a span, a span cut by another
 * stall, and one in which nothing waited at some check (a quiet source's first new change) are not.
 * Once told it holds through an apply run's step until half a span has been clear, and ends at
 * once when nothing waits. A span of 0 is refused.
 */
class FallingBehindTest {

    private static final long AFTER = 60_000;
    private static final long CHECK = 2_000;

    @Test
    void a_backlog_that_grows_for_the_span_with_late_changes_is_told_with_the_rates() {
        FallingBehind behind = new FallingBehind(AFTER);
        String cause = null;
        // captured 100/s, acknowledged 80/s: the backlog grows by 40 a check
        for (long t = 0; t <= AFTER; t += CHECK) {
            cause = behind.observe(t, 10_000 + t / 10, t * 8 / 100, 90);
            if (t < AFTER) {
                assertNull(cause, "told before the span passed, at " + t);
            }
        }
        assertNotNull(cause);
        assertTrue(cause.contains("applied 90 s after their capture") && cause.contains("from 10000 to 11200 changes in the last 60 s")
                && cause.contains("applied 80 changes/s while 100/s were captured"), cause);
        // the span moves on: compared with the check 60 s before
        String next = behind.observe(AFTER + CHECK, 10_000 + (AFTER + CHECK) / 10, (AFTER + CHECK) * 8 / 100, 92);
        assertTrue(next.contains("from 10040 to 11240 changes in the last 60 s"), next);
    }

    @Test
    void a_level_backlog_that_nothing_drains_is_told() {
        FallingBehind behind = new FallingBehind(AFTER);
        String cause = null;
        for (long t = 0; t <= AFTER; t += CHECK) {
            cause = behind.observe(t, 5_000, 3_000, 600 + t / 1000);
        }
        assertNotNull(cause);
        assertTrue(cause.contains("applied 0 changes/s while 0/s were captured"), cause);
    }

    @Test
    void a_backlog_of_less_than_a_spans_work_at_the_apply_rate_is_not_told_however_old_its_changes() {
        // capture from the WAL behind the WAL: changes an hour old when recorded, 100/s recorded and applied, 100 in flight
        FallingBehind behind = new FallingBehind(AFTER);
        for (long t = 0; t <= 2 * AFTER; t += CHECK) {
            assertNull(behind.observe(t, 100 + t / 10, t / 10 - (t % 4_000 == 0 ? 0 : 50), 3_600), "the transfer keeps up, at " + t);
        }
    }

    @Test
    void a_catch_up_young_changes_a_span_cut_by_another_stall_and_one_with_nothing_waiting_are_not_told() {
        FallingBehind draining = new FallingBehind(AFTER);
        FallingBehind young = new FallingBehind(AFTER);
        FallingBehind cut = new FallingBehind(AFTER);
        for (long t = 0; t <= 3 * AFTER; t += CHECK) {
            // an hour behind but the backlog falls by 10 a check
            assertNull(draining.observe(t, 100_000, 50_000 + t / 200, 3_600), "catching up at " + t);
            // the backlog grows, but changes are applied 30 s after their capture
            assertNull(young.observe(t, 1_000 + t, t / 2, 30), "young at " + t);
            if (t % AFTER == AFTER - CHECK) {
                cut.reset();
            }
            assertNull(cut.observe(t, 1_000 + t, t / 2, 600), "the span never whole at " + t);
        }
        // quiet for the span, then a change waits while the last one applied is an hour old
        FallingBehind quiet = new FallingBehind(AFTER);
        for (long t = 0; t < AFTER; t += CHECK) {
            assertNull(quiet.observe(t, 500, 500, 0));
        }
        assertNull(quiet.observe(AFTER, 501, 500, 3_600), "caught up within the span");
    }

    @Test
    void once_told_it_holds_through_a_step_until_half_a_span_is_clear_and_ends_at_once_when_nothing_waits() {
        FallingBehind behind = new FallingBehind(AFTER);
        long t = 0;
        for (; t <= AFTER; t += CHECK) {
            behind.observe(t, 10_000 + t / 10, t * 8 / 100, 90);
        }
        assertNotNull(behind.observe(t, 10_000 + t / 10, t * 8 / 100, 90));
        // an apply run acknowledges a step of 1,500: the backlog (9,780) is below a span ago's (10,080), for a check
        long clearFrom = t + CHECK;
        String held = behind.observe(clearFrom, 16_400, 6_620, 90);
        assertTrue(held.contains("from 10040 to 11240 changes") && held.contains("(as found 2 s ago, held until not found for half the span)"),
                "held through one step, its figures said to be those of the check before: " + held);
        // the writer stopped, it drains: told until half a span (30 s) has been clear
        for (long u = clearFrom + CHECK; u < clearFrom + AFTER / 2; u += CHECK) {
            assertNotNull(behind.observe(u, 16_400, 6_620 + (u - clearFrom) / 100, 90), "held at " + (u - clearFrom) + " ms of clear checks");
        }
        assertNull(behind.observe(clearFrom + AFTER / 2, 16_400, 6_920, 90), "clear for half a span");

        FallingBehind drained = new FallingBehind(AFTER);
        for (t = 0; t <= AFTER; t += CHECK) {
            drained.observe(t, 10_000 + t / 10, t * 8 / 100, 90);
        }
        assertNotNull(drained.observe(t, 10_000 + t / 10, t * 8 / 100, 90));
        assertNull(drained.observe(t + CHECK, 17_000, 17_000, 90), "everything applied: over at once");
    }

    @Test
    void a_span_of_zero_is_refused_by_its_setting_name() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new FallingBehind(0));
        assertEquals("oneway.notify.behind-after must be above 0 ms (it is 0)", refused.getMessage());
    }
}
