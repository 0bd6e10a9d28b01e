package io.oneway.apply;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Checks every 2 s with behind-after 60 s, 100 changes applied a check: applies later than a
 * minute for a minute, the delay not coming down, are told with the delays and the rate, and stay
 * told between applies until two checks in a row find everything applied; a
 * catch-up (the delay coming down), applies soon enough, one timely apply in the span, no applies
 * at all, and a span cut by another stall are not.
 */
class LateAppliesTest {

    private static final long AFTER = 60_000;
    private static final long CHECK = 2_000;

    @Test
    void applies_later_and_later_for_the_span_are_told_with_the_delays_and_the_rate() {
        LateApplies late = new LateApplies(AFTER);
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
        // a slow apply: checks that see nothing applied hold the verdict, even one that sees nothing waiting
        long t = AFTER + 2 * CHECK;
        assertNotNull(late.observe(t, (AFTER + CHECK) / 20, 0, false));
        assertNotNull(late.observe(t + CHECK, (AFTER + CHECK) / 20, 0, true));
        // everything applied at two checks in a row: caught up
        assertNull(late.observe(t + 2 * CHECK, (AFTER + CHECK) / 20, 0, true));
    }

    @Test
    void a_catch_up_timely_applies_no_applies_and_a_cut_span_are_not_told() {
        LateApplies catchingUp = new LateApplies(AFTER);
        LateApplies timely = new LateApplies(AFTER);
        LateApplies oneTimely = new LateApplies(AFTER);
        LateApplies idle = new LateApplies(AFTER);
        LateApplies cut = new LateApplies(AFTER);
        for (long t = 0; t <= 3 * AFTER; t += CHECK) {
            // an hour late at first, 12 s less late at each check
            assertNull(catchingUp.observe(t, t / 20, t - 3_600_000 + 6 * t, false), "catching up at " + t);
            assertNull(timely.observe(t, t / 20, t - 5_000, false), "5 s late at " + t);
            assertNull(oneTimely.observe(t, t / 20, t % AFTER == 0 ? t - 1_000 : t - 90_000, false), "one apply of the span in time, at " + t);
            assertNull(idle.observe(t, 7, t - 3_600_000, true), "nothing applied, at " + t);
            if (t % AFTER == AFTER - CHECK) {
                cut.reset();
            }
            assertNull(cut.observe(t, t / 20, t - 90_000, false), "the span never whole at " + t);
        }
    }
}
