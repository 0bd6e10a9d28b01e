package io.oneway.send;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import io.oneway.wire.ChangeRecord;
import io.oneway.wire.Fingerprint;

class SentFingerprintsTest {

    @Test
    void the_digest_chained_from_what_is_held_equals_the_digest_of_the_changes_one_by_one() {
        SentFingerprints held = new SentFingerprints(100);
        held.remember(changes(1, 40));
        byte[] atTen = digest(Fingerprint.START, 1, 10);
        assertArrayEquals(digest(atTen, 11, 30), held.chain(atTen, 11, 30));
        assertEquals(1, held.firstHeld());
        assertEquals(40, held.lastHeld());
    }

    @Test
    void only_consecutive_positions_are_held_and_the_oldest_go_beyond_the_capacity() {
        SentFingerprints held = new SentFingerprints(25);
        held.remember(changes(1, 10));
        held.remember(changes(11, 30));
        assertEquals(6, held.firstHeld(), "the oldest five went beyond 25");
        assertEquals(30, held.lastHeld());
        held.remember(changes(50, 55));
        assertEquals(50, held.firstHeld(), "a jump (sending resumed elsewhere) starts again");
        assertThrows(IllegalArgumentException.class, () -> held.chain(Fingerprint.START, 49, 55));
    }

    @Test
    void acknowledged_positions_are_let_go() {
        SentFingerprints held = new SentFingerprints(100);
        held.remember(changes(1, 20));
        held.acknowledged(15);
        assertEquals(16, held.firstHeld());
        held.acknowledged(20);
        assertEquals(Long.MAX_VALUE, held.firstHeld());
        assertEquals(Long.MIN_VALUE, held.lastHeld());
    }

    private static byte[] digest(byte[] start, long from, long to) {
        byte[] d = start;
        for (OutgoingChange c : changes(from, to)) {
            d = Fingerprint.chain(d, Fingerprint.of(c.change()));
        }
        return d;
    }

    private static List<OutgoingChange> changes(long from, long to) {
        return LongStream.rangeClosed(from, to).mapToObj(p -> new OutgoingChange(new ChangeRecord(p, 7, p % 3 == 0, "shop.customers", "U",
                false, "{\"id\": " + p + "}", "{\"id\": " + p + ", \"name\": \"n" + p + "\"}", "2026-11-30T21:00:00.000000Z", null), 40))
                .toList();
    }
}
