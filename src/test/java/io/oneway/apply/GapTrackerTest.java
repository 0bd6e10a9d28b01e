package io.oneway.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** How long a resend request waits for its answer before it is sent again, as answers are timed. */
class GapTrackerTest {

    /** resend-after 500, rerequest-after 1000, max 30000, answer-settle 250. */
    private final GapTracker gap = new GapTracker(500, 1000, 30_000, 250);
    private long requestIds;
    /** The tracker takes a time of 0 for "not asked for yet"; the clock of these tests starts later. */
    private static final long T0 = 1_000_000;

    @Test
    void what_the_monitor_reads_is_the_gap_since_it_last_moved_and_the_requests_sent_for_it_since() {
        assertNull(gap.unanswered(), "nothing missing");
        askedFor(100, 0);
        assertTrue(due(100, 1000));
        gap.requested(++requestIds, 100, T0 + 1000);
        assertEquals(new ReceiverStatus.Unanswered(100, T0, 2), gap.unanswered(), "asked for twice since it was found");
        gap.progress(T0 + 1500);
        assertEquals(new ReceiverStatus.Unanswered(100, T0 + 1500, 0), gap.unanswered(), "a piece came");
        assertFalse(due(200, 2000), "another gap, known from a heartbeat only");
        assertEquals(new ReceiverStatus.Unanswered(200, T0 + 2000, 0), gap.unanswered(), "counted anew");
        assertFalse(due(-1, 2500));
        assertNull(gap.unanswered(), "nothing missing any more");
    }

    /** Position p found missing at t by a frame beyond it, and asked for. */
    private void askedFor(long p, long t) {
        assertTrue(due(p, true, t), "a gap seen in a frame is asked for at once");
        gap.requested(++requestIds, p, T0 + t);
    }

    /** Gaps at 10, 20, 30 and 40, one a second, each asked for and answered after this many ms (under a second). */
    private void answersTook(long millis) {
        for (long p = 10, t = 0; p < 50; p += 10, t += 1000) {
            askedFor(p, t);
            assertFalse(due(p + 5, t + millis), "answered: the gap moved on");
        }
    }

    /** A gap at 100 asked for at 10 s is asked for again exactly this many ms later. */
    private void assertFirstWait(long millis, String why) {
        askedFor(100, 10_000);
        assertFalse(due(100, 10_000 + millis - 1), why);
        assertTrue(due(100, 10_000 + millis), why);
    }

    private boolean due(long p, long t) {
        return due(p, false, t);
    }

    private boolean due(long p, boolean seenInFrame, long t) {
        return gap.due(p, seenInFrame, T0 + t);
    }

    @Test
    void before_any_answer_was_timed_a_request_waits_rerequest_after() {
        assertFirstWait(1000, "nothing timed yet");
    }

    @Test
    void once_answers_came_in_tens_of_ms_a_lost_request_is_asked_again_after_answer_settle() {
        answersTook(30);
        assertFirstWait(250, "30 ms answers: waiting a second for a lost one would stall the window that long");
    }

    @Test
    void answers_slower_than_rerequest_after_leave_it_as_configured() {
        answersTook(950);
        assertFirstWait(1000, "capped at rerequest-after");
    }

    @Test
    void the_waits_double_after_a_repeat_and_the_answer_to_a_repeated_request_is_not_timed() {
        answersTook(30);
        askedFor(100, 10_000);
        assertTrue(due(100, 10_250));
        gap.requested(++requestIds, 100, T0 + 10_250);
        assertFalse(due(100, 10_749), "doubled: 500 ms");
        assertTrue(due(100, 10_750));
        gap.requested(++requestIds, 100, T0 + 10_750);
        // answered 5 s after the first request: it may be the first request's answer, so it teaches nothing
        assertFalse(due(-1, 15_000));
        askedFor(200, 20_000);
        assertTrue(due(200, 20_250), "still the 30 ms answers' wait");
    }

    @Test
    void an_answer_arriving_frame_by_frame_is_not_asked_for_again_unless_part_of_it_is_lost() {
        answersTook(30);
        assertTrue(due(100, true, 10_000));
        gap.requested(++requestIds, 399, T0 + 10_000);
        assertFalse(due(200, true, 10_030), "the answer's first frame arrived: the rest of it is on its way");
        assertFalse(due(300, true, 10_060), "and its second");
        gap.answered(requestIds, T0 + 10_070);
        assertFalse(due(300, true, 10_300), "the heartbeat behind the answer came: the rest waits answer-settle");
        assertTrue(due(300, true, 10_320), "then the answer's last frame was lost: asked for again");
        gap.requested(++requestIds, 399, T0 + 10_320);
        assertTrue(due(400, true, 10_330), "past what was asked for: a gap of its own, asked for at once");
    }

    @Test
    void while_frames_still_arrive_a_request_waits_up_to_three_times_as_long() {
        answersTook(30);
        askedFor(100, 10_000);
        for (long t = 10_100; t < 10_750; t += 100) {
            gap.frameArrived(T0 + t);
            assertFalse(due(100, t), "the answer may wait behind the frames still arriving");
        }
        gap.frameArrived(T0 + 10_750);
        assertTrue(due(100, 10_750));
    }
}
