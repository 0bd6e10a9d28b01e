package io.oneway.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Test;

class MessageSignerTest {

    private final MessageSigner signer = new MessageSigner("a=0123456789abcdef-a;b=0123456789abcdef-b");
    private final ChangeRecord change = new ChangeRecord(7, 42, true, "public.t", "U", false, "{\"id\": 1}", "{\"id\": 1, \"v\": \"x\"}", "2026-01-01", null);

    @Test
    void a_signed_change_verifies() {
        assertEquals(Optional.empty(), signer.check("a", "inc", signer.sign("a", "inc", change)));
    }

    @Test
    void any_changed_field_or_another_incarnation_fails_verification() {
        ChangeRecord signed = signer.sign("a", "inc", change);
        assertTrue(signer.check("a", "other-inc", signed).isPresent());
        assertTrue(signer.check("a", "inc", new ChangeRecord(8, 42, true, "public.t", "U", false, signed.key(), signed.row(), signed.loggedAt(), signed.mac())).isPresent());
        assertTrue(signer.check("a", "inc", new ChangeRecord(7, 42, false, "public.t", "U", false, signed.key(), signed.row(), signed.loggedAt(), signed.mac())).isPresent());
        assertTrue(signer.check("a", "inc", new ChangeRecord(7, 42, true, "public.t", "U", false, signed.key(), "{\"id\": 1, \"v\": \"y\"}", signed.loggedAt(), signed.mac())).isPresent());
    }

    @Test
    void the_row_of_a_reference_mode_change_is_covered_though_its_fingerprint_leaves_it_out() {
        ChangeRecord reference = new ChangeRecord(7, 42, true, "public.t", "U", true, "{\"id\": 1}", "{\"id\": 1, \"v\": \"x\"}", "2026-01-01", null);
        ChangeRecord signed = signer.sign("a", "inc", reference);
        assertEquals(Optional.empty(), signer.check("a", "inc", signed));
        assertTrue(signer.check("a", "inc", new ChangeRecord(7, 42, true, "public.t", "U", true, signed.key(), "{\"id\": 1, \"v\": \"y\"}",
                signed.loggedAt(), signed.mac())).isPresent(), "row changed");
        assertTrue(signer.check("a", "inc", new ChangeRecord(7, 42, true, "public.t", "U", true, signed.key(), null,
                signed.loggedAt(), signed.mac())).isPresent(), "row gone");
    }

    @Test
    void a_change_is_signed_over_the_fingerprint_the_digest_chains_and_keeps_it() {
        ChangeRecord signed = signer.sign("a", "inc", change);
        assertArrayEquals(Fingerprint.of(change), signed.fingerprint());
        assertEquals(change.withMac(signed.mac()), signed, "the fingerprint is derived, not a field of the change");
        ChangeRecord received = new ChangeRecord(7, 42, true, "public.t", "U", false, signed.key(), signed.row(), signed.loggedAt(), signed.mac());
        assertNull(received.fingerprint(), "a change read from a message carries no fingerprint: the receiver computes its own");
        ChangeRecord checked = received.fingerprinted();
        assertEquals(Optional.empty(), signer.check("a", "inc", checked));
        assertArrayEquals(signed.fingerprint(), checked.fingerprint());
        assertSame(checked, checked.fingerprinted(), "computed once");
    }

    @Test
    void another_source_key_does_not_verify() {
        ChangeRecord signedByB = signer.sign("b", "inc", change);
        assertEquals(Optional.of("integrity code does not verify (the source's key differs between the two sides, "
                + "or the message was altered on the way)"),
                signer.check("a", "inc", signedByB));
    }

    @Test
    void field_boundaries_are_part_of_the_code() {
        ChangeRecord one = signer.sign("a", "i", new ChangeRecord(1, 1, true, "ab", "I", false, "{}", null, "t", null));
        ChangeRecord two = signer.sign("a", "i", new ChangeRecord(1, 1, true, "a", "I", false, "b{}", null, "t", null));
        assertNotEquals(one.mac(), two.mac());
    }

    @Test
    void unknown_sources_missing_and_garbled_codes_are_reported() {
        assertEquals(Optional.of("unknown source 'c'"), signer.check("c", "inc", change));
        assertEquals(Optional.of("no integrity code"), signer.check("a", "inc", change));
        assertEquals(Optional.of("integrity code is not Base64"), signer.check("a", "inc", change.withMac("***")));
        assertFalse(signer.knows(null));
    }

    @Test
    void control_messages_are_signed_too() {
        ControlMessage ack = signer.sign(ControlMessage.ack("a", "inc", 10, 12, "ZGlnZXN0"));
        assertEquals(Optional.empty(), signer.check(ack));
        assertTrue(signer.check(new ControlMessage(ack.kind(),
                "a", "inc", 11, 12, 0, 0, "ZGlnZXN0", 0, -1, ack.mac())).isPresent(), "applied changed");
        assertTrue(signer.check(new ControlMessage(ack.kind(),
                "a", "inc", 10, 12, 0, 0, "b3RoZXI=", 0, -1, ack.mac())).isPresent(), "digest changed");
        ControlMessage request = signer.sign(ControlMessage.resend("a", "inc", 3, 9, 77, 2));
        assertEquals(Optional.empty(), signer.check(request));
        assertTrue(signer.check(new ControlMessage(request.kind(),
                "a", "inc", 3, 9, 77, 3, null, 0, -1, request.mac())).isPresent(), "piece changed");
        ControlMessage heartbeat = signer.sign(ControlMessage.heartbeat("a", "inc", 12, 9, 3, 1_764_530_000_123L));
        assertEquals(Optional.empty(), signer.check(heartbeat));
        assertTrue(signer.check(new ControlMessage(heartbeat.kind(),
                "a", "inc", 12, 9, 3, 0, null, 1_764_530_600_123L, -1, heartbeat.mac())).isPresent(),
                "clock changed");
        assertTrue(signer.check(new ControlMessage(heartbeat.kind(), "a", "inc", 12, 9, 3, 0, null, 0, -1, heartbeat.mac())).isPresent(),
                "clock left out");
        ControlMessage full = signer.sign(ControlMessage.heartbeat("a", "inc", 12, 9, 3, 0, 5));
        assertEquals(Optional.empty(), signer.check(full));
        assertTrue(signer.check(new ControlMessage(full.kind(), "a", "inc", 12, 9, 3, 0, null, 0, 6, full.mac())).isPresent(), "window note changed");
        assertTrue(signer.check(new ControlMessage(full.kind(),
                "a", "inc", 12, 9, 3, 0, null, 0, -1, full.mac())).isPresent(), "window note left out");
        assertTrue(signer.check(new ControlMessage(full.kind(), "a", "inc", 12, 9, 3, 0, null, 5, -1, full.mac())).isPresent(),
                "a window note cannot pass for a clock");
        // a heartbeat without a clock is signed as before the clock was sent: both kinds of sender are read
        ControlMessage unknown = signer.sign(ControlMessage.heartbeat("a", "inc", 12, 9, 3, 0));
        assertEquals(Optional.empty(), signer.check(unknown));
    }

    @Test
    void chunks_are_signed_over_their_piece_index_and_row_hash() {
        ChangeRecord header = new ChangeRecord(5, 1, true, "t", "I", false, "{\"id\": 1}", null, "t", null);
        ChangeChunk piece = signer.sign("a", "inc", new ChangeChunk(header, 1, 3, "hash", "abc", null));
        assertEquals(Optional.empty(), signer.check("a", "inc", piece));
        assertTrue(signer.check("a", "inc", new ChangeChunk(header, 2, 3, "hash", "abc", piece.mac())).isPresent(), "index changed");
        assertTrue(signer.check("a", "inc", new ChangeChunk(header, 1, 3, "other", "abc", piece.mac())).isPresent(), "hash changed");
        assertTrue(signer.check("a", "inc", new ChangeChunk(header, 1, 3, "hash", "abd", piece.mac())).isPresent(), "piece changed");
    }

    @Test
    void short_keys_and_malformed_key_settings_are_refused() {
        assertThrows(IllegalArgumentException.class, () -> new MessageSigner("a=short"));
        assertThrows(IllegalArgumentException.class, () -> new MessageSigner("no-equals-sign"));
    }
}
