package io.oneway.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class WireCodecTest {

    private final WireCodec codec = new WireCodec(10_000);

    @Test
    void frames_and_control_messages_round_trip_exactly() throws Exception {
        ChangeFrame frame = new ChangeFrame("s", "inc", List.of(
                new ChangeRecord(1, 9, false, "\"Odd\".\"t\"", "I", false, "{\"id\": 1}", "{\"id\": 1, \"v\": \"ü \\\" 😀\"}", "2026", "mac1"),
                new ChangeRecord(2, 9, true, "public.t", "D", true, "{\"id\": 2}", null, "2026", "mac2")));
        assertEquals(frame, codec.decode(codec.encode(frame)));
        ControlMessage resend = ControlMessage.resend("s", "inc", 3, 9, 1234, 5).withMac("m");
        assertEquals(resend, codec.decode(codec.encode(resend)));
        ControlMessage ack = ControlMessage.ack("s", "inc", 3, 9, "ZGlnZXN0").withMac("m");
        assertEquals(ack, codec.decode(codec.encode(ack)));
        ChunkFrame chunk = new ChunkFrame("s", "inc", new ChangeChunk(
                new ChangeRecord(4, 9, true, "t", "U", false, "{\"id\": 4}", null, "2026", null), 1, 3, "h", "{\"a\": \"\\\"}", "mac"));
        assertEquals(chunk, codec.decode(codec.encode(chunk)));
    }

    @Test
    void a_heartbeats_clock_is_sent_when_known_and_read_as_0_when_left_out() throws Exception {
        ControlMessage heartbeat = ControlMessage.heartbeat("s", "inc", 12, 9, 3, 1_764_530_000_123L).withMac("m");
        byte[] wire = codec.encode(heartbeat);
        assertTrue(new String(wire, StandardCharsets.UTF_8).contains("\"clock\":1764530000123,"));
        assertEquals(heartbeat, codec.decode(wire));
        ControlMessage unknown = ControlMessage.heartbeat("s", "inc", 12, 9, 3, 0).withMac("m");
        assertFalse(new String(codec.encode(unknown), StandardCharsets.UTF_8).contains("clock"), "as senders before it wrote it");
        assertEquals(unknown, codec.decode(codec.encode(unknown)));
        assertMalformed("{\"v\":4,\"kind\":\"heartbeat\",\"source\":\"s\",\"incarnation\":\"i\",\"from\":1,\"to\":1,\"id\":0,\"piece\":0,"
                + "\"clock\":-5,\"mac\":\"m\"}", "'clock' is out of range");
        assertMalformed("{\"v\":4,\"kind\":\"heartbeat\",\"source\":\"s\",\"incarnation\":\"i\",\"from\":1,\"to\":1,\"id\":0,\"piece\":0,"
                + "\"clock\":\"noon\",\"mac\":\"m\"}", "'clock' is missing or not an integer");
    }

    @Test
    void what_a_frame_tells_of_the_senders_window_is_sent_when_there_is_something_to_tell() throws Exception {
        ChangeFrame frame = new ChangeFrame("s", "inc", List.of(new ChangeRecord(7, 9, true, "t", "I", false, "{\"id\": 7}", "{}", "2026", "m")));
        String plain = new String(codec.encode(frame), StandardCharsets.UTF_8);
        assertFalse(plain.contains("\"ack\"") || plain.contains("\"full\""), "a window with room writes the frame as before: " + plain);
        for (WindowNote note : List.of(new WindowNote(true, -1), WindowNote.full(0), WindowNote.full(123))) {
            assertEquals(frame.with(note), codec.decode(codec.encode(frame.with(note))));
        }
        assertTrue(new String(codec.encode(frame.with(WindowNote.full(123))), StandardCharsets.UTF_8).contains("\"ack\":true,\"full\":123,"));
        ChunkFrame chunk = new ChunkFrame("s", "inc", new ChangeChunk(new ChangeRecord(8, 9, true, "t", "U", false, "{\"id\": 8}", null, "2026", null),
                2, 3, "h", "{}", "mac"), WindowNote.full(5));
        assertEquals(chunk, codec.decode(codec.encode(chunk)));
        ControlMessage heartbeat = ControlMessage.heartbeat("s", "inc", 12, 9, 3, 0, 5).withMac("m");
        assertTrue(new String(codec.encode(heartbeat), StandardCharsets.UTF_8).contains("\"full\":5,\"mac\""));
        assertEquals(heartbeat, codec.decode(codec.encode(heartbeat)));
        assertFalse(new String(codec.encode(heartbeat), StandardCharsets.UTF_8).contains("\"ack\""), "a heartbeat has nothing to ack");
        String changes = ",\"changes\":[{\"p\":1,\"x\":1,\"e\":true,\"t\":\"t\",\"o\":\"I\",\"ref\":false,\"k\":{},\"r\":{},\"at\":\"a\",\"m\":\"m\"}]}";
        assertMalformed("{\"v\":4,\"kind\":\"changes\",\"source\":\"s\",\"incarnation\":\"i\",\"full\":-1" + changes, "'full' is out of range");
        assertMalformed("{\"v\":4,\"kind\":\"changes\",\"source\":\"s\",\"incarnation\":\"i\",\"ack\":1" + changes, "'ack' is missing or not a boolean");
    }

    @Test
    void key_and_row_are_read_back_as_the_exact_text_written_whatever_the_spacing_and_escapes() throws Exception {
        String row = "{ \"a\" :[1, {\"b\": \"}\\\"{\"}],\"c\":\"\\u00fc ü 😀\",  \"d\": null }";
        ChangeFrame frame = new ChangeFrame("s", "inc", List.of(new ChangeRecord(1, 9, true, "t", "U", false, "{\"id\":1}", row, "2026", "m")));
        byte[] wire = codec.encode(frame);
        assertTrue(new String(wire, StandardCharsets.UTF_8).contains("\"r\":" + row + ","), "the row is embedded as it is");
        ChangeRecord back = ((ChangeFrame) codec.decode(wire)).changes().get(0);
        assertEquals(row, back.row());
        assertEquals("{\"id\":1}", back.key());
    }

    @Test
    void malformed_messages_are_refused_with_a_reason() {
        assertMalformed("{not json", "not valid JSON");
        assertMalformed("[1, 2]", "not a JSON object");
        assertMalformed("{\"v\": 2}", "unsupported message version");
        assertMalformed("{\"v\":4,\"kind\":\"changes\",\"source\":\"s\",\"incarnation\":\"i\",\"changes\":[]}", "'changes' is missing or empty");
        assertMalformed("{\"v\":4,\"kind\":\"changes\",\"source\":\"s\",\"incarnation\":\"i\",\"changes\":[{\"e\":true,\"ref\":false,\"o\":\"I\",\"p\":\"1\"}]}", "'p' is missing or not an integer");
        assertMalformed("{\"v\":4,\"kind\":\"changes\",\"source\":\"s\",\"incarnation\":\"i\",\"changes\":[{\"p\":1,\"x\":1,\"e\":true,\"ref\":false,\"t\":\"t\",\"o\":\"X\"}]}",
                "unknown operation");
        assertMalformed("{\"v\":4,\"kind\":\"changes\",\"source\":\"s\",\"incarnation\":\"i\",\"changes\":[{\"p\":1,\"x\":1,\"e\":true,\"ref\":false,\"t\":\"t\",\"o\":\"I\",\"k\":\"{}\"}]}",
                "'k' is not a JSON object");
        assertMalformed("{\"v\":4,\"kind\":\"changes\",\"source\":\"s\",\"incarnation\":\"i\",\"changes\":[{\"p\":1,\"x\":1,\"e\":true,\"ref\":false,\"t\":\"t\",\"o\":\"I\",\"k\":{}}]}",
                "'r' is missing");
        assertMalformed("{\"v\":4,\"kind\":\"nuke\",\"source\":\"s\",\"incarnation\":\"i\"}", "unknown message kind");
        assertMalformed("{\"v\":4,\"kind\":\"ack\",\"source\":5,\"incarnation\":\"i\"}", "'source' is missing or not a string");
        assertMalformed("{\"v\":4,\"kind\":\"ack\",\"source\":\"s\",\"incarnation\":\"i\",\"from\":1,\"to\":1,\"id\":0,\"piece\":0,\"mac\":\"m\"} {}", "data after the message");
        assertMalformed("{\"v\":4,\"kind\":\"ack\",\"source\":\"s\",\"incarnation\":\"i\",\"from\":1,\"to\":1,\"mac\":\"m\"}", "'id' is missing");
        assertMalformed("{\"v\":4,\"kind\":\"chunk\",\"source\":\"s\",\"incarnation\":\"i\",\"chunk\":{\"i\":3,\"n\":3}}", "chunk index 3 of 3");
        assertMalformed("x".repeat(10_001), "over the limit");
    }

    private void assertMalformed(String text, String reason) {
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> codec.decode(text.getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }
}
