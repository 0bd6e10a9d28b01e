package io.oneway.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.oneway.wire.ChangeRecord;

/** Changes held ahead of the expected position, as frames, resends and losses bring them in any order. */
class ParkedChangesTest {

    private static final Instant T = Instant.parse("2026-12-06T00:00:00Z");

    /** A change of 10 characters of key and row, ending its transaction every {@code txEvery} positions. */
    private static ChangeRecord change(long p, int txEvery) {
        return new ChangeRecord(p, p / txEvery, p % txEvery == txEvery - 1, "t", "U", false, "{\"i\":1}", "{\"a\"}", "at", "m");
    }

    private static long size() {
        return change(1, 1).heldBytes();
    }

    private static void add(ParkedChanges parked, long from, long to, long expected) {
        for (long p = from; p <= to; p++) {
            parked.add(change(p, 1), T.plusMillis(p), expected);
        }
    }

    private static List<Long> positions(ParkedChanges.Run run) {
        return run.changes().stream().map(ChangeRecord::position).toList();
    }

    @Test
    void a_hole_filled_by_a_resend_joins_the_runs_on_both_sides() {
        ParkedChanges parked = new ParkedChanges(1 << 20);
        add(parked, 1, 3, 1);
        add(parked, 7, 9, 1);
        assertEquals(3, parked.contiguousEnd(1));
        assertEquals(7L, parked.ceiling(4));
        assertFalse(parked.contains(5));
        add(parked, 5, 6, 1);
        add(parked, 4, 4, 1);
        assertEquals(9, parked.contiguousEnd(1));
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), positions(parked.run(1, 100, Long.MAX_VALUE, true)));
        assertEquals(T.plusMillis(1), parked.run(1, 100, Long.MAX_VALUE, true).receivedAt(), "the first change's arrival");
        assertEquals(9, parked.count());
        assertEquals(9 * size(), parked.bytes());
    }

    @Test
    void a_change_held_already_is_not_held_twice() {
        ParkedChanges parked = new ParkedChanges(1 << 20);
        add(parked, 1, 5, 1);
        add(parked, 3, 7, 1);
        assertEquals(7, parked.count());
        assertEquals(7 * size(), parked.bytes());
    }

    @Test
    void over_the_limit_the_changes_farthest_ahead_go_but_never_the_run_from_the_expected_position() {
        ParkedChanges parked = new ParkedChanges(10 * size());
        add(parked, 20, 27, 1);
        add(parked, 1, 6, 1);
        assertEquals(10, parked.count(), "the last four of the run at 20 let go");
        assertEquals(23, parked.contiguousEnd(20));
        add(parked, 7, 14, 1);
        assertEquals(14, parked.count(), "the run from the expected position stays whole, over the limit");
        assertNull(parked.ceiling(15), "everything beyond it let go");
        assertEquals(14 * size(), parked.bytes());
    }

    @Test
    void what_was_applied_is_let_go_from_the_front_across_runs() {
        ParkedChanges parked = new ParkedChanges(1 << 20);
        add(parked, 1, 10, 1);
        add(parked, 15, 20, 1);
        parked.removeThrough(4);
        assertFalse(parked.contains(4));
        assertEquals(List.of(5L, 6L), positions(parked.run(5, 2, Long.MAX_VALUE, true)));
        assertTrue(parked.run(5, 2, Long.MAX_VALUE, true).limitReached());
        parked.removeThrough(16);
        assertEquals(17L, parked.ceiling(1));
        assertEquals(4, parked.count());
        assertEquals(4 * size(), parked.bytes());
        parked.clear();
        assertEquals(0, parked.count());
        assertNull(parked.ceiling(0));
    }

    @Test
    void a_run_stops_at_whole_transactions_or_at_the_first_end_as_asked() {
        ParkedChanges parked = new ParkedChanges(1 << 20);
        for (long p = 0; p < 10; p++) {
            parked.add(change(p, 4), T, 0);
        }
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L), positions(parked.run(0, 100, Long.MAX_VALUE, true)), "through the last end");
        assertEquals(List.of(0L, 1L, 2L, 3L), positions(parked.run(0, 100, Long.MAX_VALUE, false)), "through the first end");
        assertEquals(List.of(), positions(parked.run(0, 3, Long.MAX_VALUE, true)), "no whole transaction within 3 changes");
        assertTrue(parked.run(0, 3, Long.MAX_VALUE, true).limitReached());
        assertEquals(List.of(0L, 1L), positions(parked.run(0, 100, 2 * size(), false)), "at most the bytes asked for");
    }

    /** Adds, runs and removals at random, against a map of every position held and the same rules. */
    @Test
    void any_order_of_arrivals_and_removals_keeps_what_a_map_of_positions_keeps() {
        Random random = new Random(20261206);
        long limit = 300 * size();
        ParkedChanges parked = new ParkedChanges(limit);
        TreeMap<Long, ChangeRecord> model = new TreeMap<>();
        long expected = 1;
        for (int step = 0; step < 20_000; step++) {
            int action = random.nextInt(10);
            if (action < 7) {
                long from = expected + random.nextInt(400) - 20;
                long to = from + random.nextInt(60);
                for (long p = Math.max(expected, from); p <= to; p++) {
                    ChangeRecord c = change(p, 7);
                    parked.add(c, T, expected);
                    model.putIfAbsent(p, c);
                    long end = expected - 1;
                    while (model.containsKey(end + 1)) {
                        end++;
                    }
                    while (model.size() * size() > limit && model.lastKey() > end) {
                        model.pollLastEntry();
                    }
                }
            } else if (action < 9) {
                long through = expected - 1 + random.nextInt(50);
                parked.removeThrough(through);
                model.headMap(through, true).clear();
                expected = through + 1;
            } else {
                int max = 1 + random.nextInt(100);
                List<ChangeRecord> toFirstEnd = new ArrayList<>();
                List<ChangeRecord> consecutive = new ArrayList<>();
                int whole = 0;
                for (long p = expected; model.containsKey(p) && consecutive.size() < max; p++) {
                    ChangeRecord c = model.get(p);
                    consecutive.add(c);
                    if (c.txEnd()) {
                        whole = consecutive.size();
                        if (toFirstEnd.isEmpty()) {
                            toFirstEnd.addAll(consecutive);
                        }
                    }
                }
                List<ChangeRecord> open = toFirstEnd.isEmpty() ? consecutive : toFirstEnd;
                assertEquals(open, parked.run(expected, max, Long.MAX_VALUE, false).changes(), "step " + step);
                assertEquals(consecutive.subList(0, whole), parked.run(expected, max, Long.MAX_VALUE, true).changes(), "step " + step);
            }
            assertEquals(model.size(), parked.count(), "step " + step);
            assertEquals(model.size() * size(), parked.bytes(), "step " + step);
            long probe = expected + random.nextInt(400);
            assertEquals(model.containsKey(probe), parked.contains(probe), "step " + step + ", position " + probe);
            assertEquals(model.ceilingKey(probe), parked.ceiling(probe), "step " + step + ", ceiling of " + probe);
        }
    }
}
