package io.oneway.capture;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

/**
 * The judgement of SlotWatch over looks taken every two seconds (the WAL capture's end-to-end
 * cases, a reader hanging in the remote database and a slot refused, are in WalCaptureIT).
 */
class SlotWatchTest {

    private static final Duration STUCK_AFTER = Duration.ofSeconds(30);
    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");

    @Test
    void an_idle_slot_at_the_end_of_the_wal_is_never_stuck() {
        SlotWatch watch = new SlotWatch("oneway", STUCK_AFTER);
        for (int s = 0; s <= 600; s += 2) {
            assertNull(watch.observe(look(0, "0/100", "0/100", 10, 5, null, at(s - 1)), at(s)));
        }
    }

    @Test
    void a_slot_behind_that_nothing_moves_is_stuck_after_the_time_and_says_no_connection_reads_it() {
        SlotWatch watch = new SlotWatch("oneway", STUCK_AFTER);
        String problem = null;
        int s = 0;
        for (; problem == null && s <= 120; s += 2) {
            problem = watch.observe(new SlotWatch.Look("reserved", false, null, 4096, "0/100", null, 10, 5, null, at(-1)), at(s));
        }
        assertTrue(s - 2 >= 30 && s - 2 <= 32, "stuck after 30 s, not before: " + (s - 2));
        assertTrue(problem.contains("stands still") && problem.contains("no connection reads the slot")
                && problem.contains("last read ended"), problem);
    }

    @Test
    void a_reader_inside_one_read_is_stuck_even_while_its_wal_sender_decodes_other_wal() {
        SlotWatch watch = new SlotWatch("oneway", STUCK_AFTER);
        String problem = null;
        int s = 0;
        for (; problem == null && s <= 120; s += 2) {
            // the sender's position moves with every other table's writes; the reader's counts do not
            problem = watch.observe(look(8192, "0/100", "0/" + Integer.toHexString(0x200 + s), 10, 5, at(0), null), at(s));
        }
        assertTrue(s - 2 >= 30 && s - 2 <= 32, "stuck after 30 s: " + (s - 2));
        assertTrue(problem.contains("inside one read for 30 s"), problem);
    }

    @Test
    void a_large_transaction_being_decoded_is_not_stuck_while_the_sender_moves_and_the_reader_polls() {
        SlotWatch watch = new SlotWatch("oneway", STUCK_AFTER);
        for (int s = 0; s <= 600; s += 2) {
            // nothing arrives until its commit is decoded; the reader's polls end every half second
            assertNull(watch.observe(look(1 << 30, "0/100", "0/" + Integer.toHexString(0x1000 + s), 10, 5, null, at(s)), at(s)));
        }
    }

    @Test
    void a_reader_recording_a_long_transaction_in_pieces_is_not_stuck() {
        SlotWatch watch = new SlotWatch("oneway", STUCK_AFTER);
        for (int s = 0; s <= 600; s += 2) {
            // the confirmed position stays before the transaction until its commit; each piece recorded moves the count
            assertNull(watch.observe(look(1 << 30, "0/100", "0/9000", 10 + s, 5 + 1000L * s, at(s), null), at(s)));
        }
    }

    @Test
    void a_slot_that_lost_wal_is_said_at_once() {
        SlotWatch watch = new SlotWatch("oneway", STUCK_AFTER);
        String problem = watch.observe(new SlotWatch.Look("lost", true, null, 1 << 30, "0/100", "0/100", 0, 0, null, null), at(0));
        assertTrue(problem.contains("lost WAL it needed"), problem);
    }

    private static SlotWatch.Look look(long behind, String confirmed, String sent, long messages, long changes, Instant pollStarted,
            Instant pollEnded) {
        return new SlotWatch.Look("reserved", true, "WalSenderWaitForWAL", behind, confirmed, sent, messages, changes, pollStarted, pollEnded);
    }

    private static Instant at(int seconds) {
        return T0.plusSeconds(seconds);
    }
}
