package io.oneway.apply;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.oneway.ops.SchemaInstaller.Part;
import io.oneway.support.OnewayMetrics;
import io.oneway.support.Refusals;
import io.oneway.testing.PostgresFixture;
import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ChangeRecord;
import io.oneway.wire.ControlMessage;
import io.oneway.wire.Fingerprint;

/** The founding document's step 2 against a real central database: when a missing range is asked for again, and large transactions. */
class GapDetectorIT {

    private static final String INCARNATION = "6f1c1f4e-3b9a-4c55-9d43-0b8f3c2a7e10";
    private DataSource central;
    private GapDetector detector;

    @BeforeEach
    void freshCentral() {
        central = PostgresFixture.newDatabase("gaps", Part.CENTRAL).dataSource();
        exec(central, "create table items(id int primary key, v text)");
        // resend-after and re-request after a minute: only requests that are due at once can show up here
        detector = detector(new ReceiverSettings(60_000, 60_000, 60_000, 0, 1 << 20, 10, 1 << 16, 1 << 20, 60_000, 1_000_000, 30_000, 2));
    }

    private GapDetector detector(ReceiverSettings settings) {
        TableCatalog catalog = new TableCatalog("public.items");
        return new GapDetector(new ChangeApplier(central, catalog, new SchemaChanges(catalog, "additive"), new SequenceValues(catalog),
                new SnapshotLoader(catalog), 4), new OnewayMetrics(),
                new Refusals(new OnewayMetrics(), 60_000), settings);
    }

    @Test
    void positions_announced_by_a_heartbeat_are_not_asked_for_while_the_frames_before_them_still_arrive() throws Exception {
        assertNull(detector.onFrame(frame(1, 2)));
        // the sender has sent up to 6; frames 3..4 and 5..6 are still queued on the way
        assertNull(detector.onHeartbeat(ControlMessage.heartbeat("s", INCARNATION, 6, 6, 0, 0)));
        assertNull(detector.onFrame(frame(3, 4)), "5..6 are still on their way: no resend request yet");
        assertNull(detector.onFrame(frame(5, 6)));
        assertEquals(6, number(central, "select count(*) from items"));
    }

    @Test
    void no_copies_of_resend_requests_is_refused_since_nothing_missing_would_be_asked_for() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ReceiverSettings(60_000, 60_000, 60_000, 0, 1 << 20, 10, 1 << 16, 1 << 20, 60_000, 1_000_000, 30_000, 0));
        assertTrue(e.getMessage().contains("oneway.apply.request-copies (0) must be at least 1"), e.getMessage());
    }

    @Test
    void a_frame_beyond_a_missing_range_asks_for_it_at_once_and_once() throws Exception {
        assertNull(detector.onFrame(frame(1, 2)));
        ControlMessage request = detector.onFrame(frame(5, 6));

        assertEquals(ControlMessage.Kind.RESEND, request.kind());
        assertEquals(3, request.from());
        assertEquals(4, request.to());
        assertNull(detector.onFrame(frame(7, 8)), "asked already: the answer may be queued behind these frames");
        assertNull(detector.onFrame(frame(3, 4)));
        assertEquals(8, number(central, "select count(*) from items"));
    }

    @Test
    void a_heartbeat_saying_the_request_was_answered_while_the_gap_remains_asks_again() throws Exception {
        assertNull(detector.onFrame(frame(1, 2)));
        ControlMessage first = detector.onFrame(frame(5, 6));
        assertNull(detector.onHeartbeat(ControlMessage.heartbeat("s", INCARNATION, 6, 6, first.id() - 1, 0)), "an older request was answered");
        assertTrue(requests(detector.tick()).isEmpty());

        ControlMessage again = detector.onHeartbeat(ControlMessage.heartbeat("s", INCARNATION, 6, 6, first.id(), 0));
        assertNotNull(again, "the answer came before that heartbeat and 3..4 are still missing: lost");
        assertEquals(3, again.from());
        assertTrue(again.id() > first.id());
    }

    @Test
    void an_answer_reported_by_a_heartbeat_gets_the_time_the_resequencer_may_hold_it() throws Exception {
        GapDetector settling = detector(new ReceiverSettings(60_000, 60_000, 60_000, 60_000, 1 << 20, 10, 1 << 16, 1 << 20, 60_000, 1_000_000, 30_000, 2));
        assertNull(settling.onFrame(frame(1, 2)));
        ControlMessage first = settling.onFrame(frame(5, 6));
        assertNull(settling.onHeartbeat(ControlMessage.heartbeat("s", INCARNATION, 6, 6, first.id(), 0)));
        assertTrue(requests(settling.tick()).isEmpty(), "the answer may still be in the resequencer");
        assertNull(settling.onFrame(frame(3, 4)));
        assertEquals(6, number(central, "select count(*) from items"));
    }

    @Test
    void an_ack_goes_out_with_the_frame_that_brings_the_unacknowledged_changes_to_ack_every_not_at_the_next_tick() throws Exception {
        GapDetector prompt = detector(new ReceiverSettings(60_000, 60_000, 60_000, 0, 1 << 20, 10, 1 << 16, 1 << 20, 60_000, 4, 30_000, 2));
        ControlMessage first = prompt.onFrame(frame(1, 4));
        assertEquals(ControlMessage.Kind.ACK, first.kind(), "4 changes applied, none acknowledged: " + first);
        assertEquals(4, first.applied());
        assertNull(prompt.onFrame(frame(5, 6)), "2 changes since the last ack");
        ControlMessage second = prompt.onFrame(frame(7, 8));
        assertEquals(8, second.applied());
        assertEquals(Fingerprint.text((byte[]) value(central, "select applied_digest from oneway.source_progress")), second.digest(),
                "the digest at the position acknowledged");
        assertTrue(prompt.tick().isEmpty(), "the tick has nothing new to say");
        ControlMessage request = prompt.onFrame(frame(13, 16));
        assertEquals(ControlMessage.Kind.RESEND, request.kind(), "a resend request goes first; the tick acks meanwhile");
        assertTrue(prompt.tick().stream().noneMatch(m -> m.kind() == ControlMessage.Kind.ACK), "nothing was applied since the last ack");
    }

    @Test
    void a_source_that_shows_it_missed_the_last_ack_gets_it_again_at_once_not_after_ack_repeat() throws Exception {
        // ack-repeat a minute, ack-every 4, answer-settle 0
        GapDetector prompt = detector(new ReceiverSettings(60_000, 60_000, 60_000, 0, 1 << 20, 10, 1 << 16, 1 << 20, 60_000, 4, 30_000, 2));
        assertEquals(4, prompt.onFrame(frame(1, 4)).applied());

        ControlMessage again = prompt.onHeartbeat(ControlMessage.heartbeat("s", INCARNATION, 4, 4, 0, 0));
        assertEquals(ControlMessage.Kind.ACK, again.kind(), "all it sent is here, yet it says so: its window may wait for that ack");
        assertEquals(4, again.applied());
        ControlMessage retransmitted = prompt.onFrame(frame(1, 4));
        assertEquals(ControlMessage.Kind.ACK, retransmitted.kind(), "a frame of changes all here already is a retransmission");
        assertEquals(4, retransmitted.received());
        assertNull(prompt.onHeartbeat(ControlMessage.heartbeat("s", INCARNATION, 6, 6, 0, 0)), "5..6 may still be on their way");

        GapDetector settling = detector(new ReceiverSettings(60_000, 60_000, 60_000, 60_000, 1 << 20, 10, 1 << 16, 1 << 20, 60_000, 4, 30_000, 2));
        assertEquals(4, settling.onFrame(frame(1, 4)).applied());
        assertNull(settling.onHeartbeat(ControlMessage.heartbeat("s", INCARNATION, 4, 4, 0, 0)), "the ack went out less than answer-settle ago");
        assertNull(settling.onFrame(frame(1, 4)));
    }

    @Test
    void a_transaction_larger_than_a_run_is_staged_as_it_arrives_and_applied_whole_at_its_end() throws Exception {
        // runs of at most 10 changes: a 25-change transaction is staged in parts, then applied in one transaction
        List<ChangeRecord> tx = new ArrayList<>();
        for (long p = 1; p <= 25; p++) {
            tx.add(insert(p, 100, p == 25));
        }
        assertNull(detector.onFrame(new ChangeFrame("s", INCARNATION, tx.subList(0, 12))));
        assertEquals(0, number(central, "select count(*) from items"), "nothing of an unfinished transaction is visible");
        assertEquals(10, number(central, "select staged_position from oneway.source_progress"));
        ControlMessage ack = acks(detector.tick()).get(0);
        assertEquals(0, ack.applied());
        assertEquals(10, ack.received(), "staged changes are held durably: the sender may go on past them");

        // the central replicator restarts: what was staged stays, what was only parked is asked for again
        GapDetector restarted = detector(new ReceiverSettings(60_000, 60_000, 60_000, 0, 1 << 20, 10, 1 << 16, 1 << 20, 60_000, 1_000_000, 30_000, 2));
        ControlMessage request = restarted.onFrame(new ChangeFrame("s", INCARNATION, tx.subList(14, 20)));
        assertEquals(11, request.from());
        assertEquals(14, request.to());
        assertNull(restarted.onFrame(new ChangeFrame("s", INCARNATION, tx.subList(10, 14))));
        assertEquals(0, number(central, "select count(*) from items"));
        assertNull(restarted.onFrame(new ChangeFrame("s", INCARNATION, tx.subList(20, 25))));

        assertEquals(25, number(central, "select count(*) from items"));
        assertEquals(25, number(central, "select applied_position from oneway.source_progress"));
        assertEquals(0, number(central, "select count(*) from oneway.staged_change"));
        assertEquals(25, number(central, "select count(*) from oneway.receive_log where fingerprint is not null"));
        assertEquals(1, number(central, "select count(distinct applied_at) from oneway.receive_log"), "one central transaction");
    }

    @Test
    void the_receive_log_holds_each_key_logged_time_and_fingerprint_exactly_as_they_came() throws Exception {
        exec(central, "create table notes(k text primary key, v text)");
        TableCatalog catalog = new TableCatalog("public.notes");
        GapDetector notes = new GapDetector(new ChangeApplier(central, catalog, new SchemaChanges(catalog, "additive"), new SequenceValues(catalog),
                new SnapshotLoader(catalog), 4), new OnewayMetrics(), new Refusals(new OnewayMetrics(), 60_000),
                new ReceiverSettings(60_000, 60_000, 60_000, 0, 1 << 20, 10, 1 << 16, 1 << 20, 60_000, 1_000_000, 30_000, 2));
        // a backslash, quote, tab or line break, raw between the key's JSON tokens or escaped in its strings, and text beyond
        // Latin-1: the receive log holds the key as the same JSON value, the logged time as the same instant
        String key = "{\"k\":\t\r\n\"back\\\\slash \\\"quoted\\\" tab\\there ünï 😀\"}";
        ChangeRecord odd = new ChangeRecord(1, 7, true, "public.notes", "I", false, key, key.replace("}", ", \"v\": \"line\\nbreak\"}"),
                "2026-11-30 10:00:00.123456+03", "not checked here");

        assertNull(notes.onFrame(new ChangeFrame("s", INCARNATION, List.of(odd))));

        assertEquals("line\nbreak", value(central, "select v from notes where k = ?", "back\\slash \"quoted\" tab\there ünï 😀"));
        assertEquals("back\\slash \"quoted\" tab\there ünï 😀", value(central, "select object_id ->> 'k' from oneway.receive_log where position = 1"));
        assertEquals(1, number(central, "select count(*) from oneway.receive_log where position = 1 and txid = 7 and op = 'I' and state = 'R'"
                + " and object_type = 'public.notes' and logged_at = '2026-11-30 07:00:00.123456+00' and received_at <= now()"));
        assertArrayEquals(Fingerprint.of(odd), (byte[]) value(central, "select fingerprint from oneway.receive_log where position = 1"));
    }

    private static List<ControlMessage> requests(List<ControlMessage> replies) {
        return replies.stream().filter(m -> m.kind() == ControlMessage.Kind.RESEND).toList();
    }

    private static List<ControlMessage> acks(List<ControlMessage> replies) {
        List<ControlMessage> acks = replies.stream().filter(m -> m.kind() == ControlMessage.Kind.ACK).toList();
        assertNotNull(acks.isEmpty() ? null : acks);
        return acks;
    }

    /** Inserts of items from..to, each its own transaction. */
    private static ChangeFrame frame(long from, long to) {
        List<ChangeRecord> changes = new ArrayList<>();
        for (long p = from; p <= to; p++) {
            changes.add(insert(p, p, true));
        }
        return new ChangeFrame("s", INCARNATION, changes);
    }

    private static ChangeRecord insert(long position, long txid, boolean txEnd) {
        return new ChangeRecord(position, txid, txEnd, "public.items", "I", false, "{\"id\": " + position + "}",
                "{\"id\": " + position + ", \"v\": \"x\"}", "2026-11-30T10:00:00.000000Z", "not checked here");
    }
}
