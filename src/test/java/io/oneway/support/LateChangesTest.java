package io.oneway.support;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Checks every 2 s with behind-after 60 s, 100 changes applied a check: applies later than a
 * minute for a minute, the delay not coming down, are told with the delays and the rate, and stay
 * told between applies until nothing has been applied for half a span while nothing waits (an
 * apply run longer than that holds it), or applies have been timely for half a span; a
 * catch-up (the delay coming down), applies soon enough, one timely apply in the span, no applies
 * at all, and a span cut by another stall are not.
 */
class LateChangesTest {

    private static final long AFTER = 60_000;
    private static final long CHECK = 2_000;

    @Test
    void applies_later_and_later_for_the_span_are_told_with_the_delays_and_the_rate() {
        LateChanges late = new LateChanges(AFTER, "applied");
        String cause = null;
        for (long t = 0; t <= AFTER + CHECK; t += CHECK) {
            // each check's newest change was captured 90 s before, plus half of the time gone by
            cause = late.observe(t, t / 20, t - 90_000 - t / 2, false);
            if (t < AFTER + CHECK) {
                assertNull(cause, "told before a whole span of applies, at " + t);
            }
        }
        assertNotNull(cause);
        assertTrue(cause.contains("changes are applied 121 s after their capture (91 s, 60 s ago)")
                && cause.contains("every change applied in between more than 60 s after it, at 50 changes/s"), cause);
        // a slow apply: checks that see nothing applied hold the verdict for less than half a span
        long t = AFTER + 2 * CHECK;
        for (long u = t; u < t - CHECK + AFTER / 2; u += CHECK) {
            assertNotNull(late.observe(u, (AFTER + CHECK) / 20, 0, false), "nothing applied for " + (u - t + CHECK) + " ms");
        }
        // nothing applied for half a span: quiet
        assertNull(late.observe(t - CHECK + AFTER / 2, (AFTER + CHECK) / 20, 0, false));
        // the same while changes wait (read, and applied in one run longer than half a span): held, it is no quiet source
        LateChanges longRun = lateFor(AFTER + CHECK);
        for (long u = t; u <= t + AFTER; u += CHECK) {
            assertNotNull(longRun.observe(u, (AFTER + CHECK) / 20, 0, true), "one apply run under way for " + (u - t + CHECK) + " ms");
        }
        // a late verdict found at the last apply before the writers stopped ends once the timely applies after it have been timely for half a span
        LateChanges drained = lateFor(AFTER + CHECK);
        assertNotNull(drained.observe(AFTER + 2 * CHECK, (AFTER + 2 * CHECK) / 20, AFTER + 2 * CHECK - 1_000, false), "one timely apply: held");
        for (long u = AFTER + 3 * CHECK; u < AFTER + 2 * CHECK + AFTER / 2; u += CHECK) {
            assertNotNull(drained.observe(u, (AFTER + 2 * CHECK) / 20, 0, false), "held at " + u);
        }
        assertNull(drained.observe(AFTER + 2 * CHECK + AFTER / 2, (AFTER + 2 * CHECK) / 20, 0, false), "clear for half a span");
    }

    /** Applies 90 s late or later, one a check from 0 to the given time: told at its end. */
    private static LateChanges lateFor(long until) {
        LateChanges late = new LateChanges(AFTER, "applied");
        String cause = null;
        for (long t = 0; t <= until; t += CHECK) {
            cause = late.observe(t, t / 20, t - 90_000 - t / 2, false);
        }
        assertNotNull(cause);
        return late;
    }

    @Test
    void a_catch_up_timely_applies_no_applies_and_a_cut_span_are_not_told() {
        LateChanges catchingUp = new LateChanges(AFTER, "applied");
        LateChanges timely = new LateChanges(AFTER, "applied");
        LateChanges oneTimely = new LateChanges(AFTER, "applied");
        LateChanges idle = new LateChanges(AFTER, "applied");
        LateChanges cut = new LateChanges(AFTER, "applied");
        for (long t = 0; t <= 3 * AFTER; t += CHECK) {
            // an hour late at first, 12 s less late at each check
            assertNull(catchingUp.observe(t, t / 20, t - 3_600_000 + 6 * t, false), "catching up at " + t);
            assertNull(timely.observe(t, t / 20, t - 5_000, false), "5 s late at " + t);
            assertNull(oneTimely.observe(t, t / 20, t % AFTER == 0 ? t - 1_000 : t - 90_000, false), "one apply of the span in time, at " + t);
            assertNull(idle.observe(t, 7, t - 3_600_000, false), "nothing applied, at " + t);
            if (t % AFTER == AFTER - CHECK) {
                cut.reset();
            }
            assertNull(cut.observe(t, t / 20, t - 90_000, false), "the span never whole at " + t);
        }
    }
}
