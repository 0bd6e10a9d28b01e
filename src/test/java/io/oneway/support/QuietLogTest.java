package io.oneway.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** A repeated event is logged at once, then at most once per quiet interval with how many were passed over; per key. */
class QuietLogTest {

    @Test
    void the_first_of_a_key_is_due_repeats_within_the_interval_are_counted_and_told_with_the_next_line() {
        QuietLog quiet = new QuietLog(1000);
        assertEquals(new QuietLog.Due(0, 0), quiet.due("a", 10_000));
        assertNull(quiet.due("a", 10_500));
        assertNull(quiet.due("a", 10_999));
        assertEquals(new QuietLog.Due(0, 0), quiet.due("b", 10_999), "another key");
        assertEquals(new QuietLog.Due(2, 10_000), quiet.due("a", 11_000));
        assertNull(quiet.due("a", 11_001));
    }
}
