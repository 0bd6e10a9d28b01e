package io.oneway.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

import io.oneway.wire.WindowNote;

class UnheardAcksTest {

    private static final long T = 1_764_530_000_000L;

    /** A source whose clock is a minute slow, its heartbeats' trip 20 ms. */
    private static ClockOffset slowClock() {
        ClockOffset clock = new ClockOffset();
        clock.heard(T - 60_000 - 20, T);
        return clock;
    }

    @Test
    void a_heartbeat_saying_the_source_holds_less_than_acked_tells_when_the_first_ack_beyond_it_went_out_on_this_sides_clock() {
        UnheardAcks acks = new UnheardAcks();
        ClockOffset clock = slowClock();
        acks.sent(100, T + 1_000);
        acks.sent(100, T + 3_000);
        acks.sent(250, T + 5_000);
        // made 20 s after the first ack beyond 90, by the source's clock a minute slow
        acks.heard(WindowNote.full(90), 250, T + 21_000 - 60_020, clock, T + 21_500);
        ReceiverStatus.Unheard u = acks.unheard();
        assertEquals(new ReceiverStatus.Unheard(90, T + 1_000, T + 21_000, T + 21_500), u);
        acks.heard(WindowNote.full(100), 250, T + 22_000 - 60_020, clock, T + 22_000);
        assertEquals(T + 5_000, acks.unheard().ackedAtMillis(), "100 was heard: the ack beyond it is 250's");
    }

    @Test
    void a_heartbeat_is_dated_by_the_least_difference_of_every_heartbeat_when_those_made_with_nothing_held_back_all_queued() {
        UnheardAcks acks = new UnheardAcks();
        // an idle source's heartbeats queued 15 s while the link came up: the only ones made with nothing held back
        ClockOffset queued = new ClockOffset();
        queued.heard(T - 15_000, T);
        acks.sent(100, T + 1_000);
        // a catch-up's heartbeats (changes held back) arrive at once: made at T + 2 s, T + 5 s by clocks that agree
        acks.heard(WindowNote.full(50), 100, T + 2_000, queued, T + 2_010);
        acks.heard(WindowNote.full(50), 100, T + 5_000, queued, T + 5_010);
        assertEquals(T + 5_010, acks.unheard().madeAtMillis(), "made 4 s after the ack, not 19 s");
        assertEquals(T + 1_000, acks.unheard().ackedAtMillis());
    }

    @Test
    void a_window_with_room_a_source_holding_what_this_side_holds_or_a_heartbeat_without_its_time_says_nothing() {
        UnheardAcks acks = new UnheardAcks();
        ClockOffset clock = slowClock();
        acks.sent(100, T);
        acks.heard(WindowNote.full(50), 100, T + 30_000, clock, T + 30_000);
        acks.heard(WindowNote.ROOM, 100, T + 30_000, clock, T + 30_000);
        assertNull(acks.unheard(), "room in the window: it sends, whatever it holds");
        acks.heard(WindowNote.full(100), 100, T + 30_000, clock, T + 30_000);
        assertNull(acks.unheard());
        acks.heard(WindowNote.full(50), 100, 0, clock, T + 30_000);
        assertNull(acks.unheard(), "no making time: it may have waited behind a backlog");
    }

    @Test
    void nothing_is_said_while_the_clocks_offset_is_not_known_or_no_ack_beyond_was_sent_since_the_progress_was_read() {
        UnheardAcks acks = new UnheardAcks();
        acks.sent(100, T);
        acks.heard(WindowNote.full(50), 100, T + 30_000, new ClockOffset(), T + 30_000);
        assertNull(acks.unheard(), "a source heard only while it held changes back: its clock is not known");
        acks.forget();
        acks.heard(WindowNote.full(50), 100, T + 30_000, slowClock(), T + 30_000);
        assertNull(acks.unheard());
    }

    @Test
    void past_the_acks_kept_an_older_ack_reads_as_sent_later_never_sooner() {
        UnheardAcks acks = new UnheardAcks();
        for (int i = 1; i <= 100; i++) {
            acks.sent(i * 10, T + i * 1_000L);
        }
        ClockOffset agreeing = new ClockOffset();
        agreeing.heard(T, T);
        acks.heard(WindowNote.full(5), 1_000, T + 200_000, agreeing, T + 200_000);
        assertEquals(T + 37_000, acks.unheard().ackedAtMillis(), "the oldest of the 64 kept");
    }
}
