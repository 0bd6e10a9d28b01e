package io.oneway.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.camel.Message;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;

import io.oneway.support.OnewayMetrics;

class DeflateTest {

    private static final String KEYS = "s=a-test-key-of-16-chars";
    private final WireCodec codec = new WireCodec(200_000);

    private static ChangeFrame frame(int changes) {
        List<ChangeRecord> list = new ArrayList<>();
        for (int i = 1; i <= changes; i++) {
            list.add(new ChangeRecord(i, 700 + i / 5, i % 5 == 0, "public.orders", "I", false, "{\"id\": " + i + "}",
                    "{\"id\": " + i + ", \"amount\": " + (i * 7 % 1000) + ".25, \"status\": \"new\", \"note\": \"ü 😀\"}",
                    "2026-12-04T20:50:11." + (100000 + i) + "Z", null));
        }
        return new ChangeFrame("s", "inc", list);
    }

    private static Message encoded(ChangeFrame frame, boolean deflate) {
        Message m = new DefaultExchange(new DefaultCamelContext()).getMessage();
        m.setBody(frame);
        new MessageEncoder(new WireCodec(1 << 24), new MessageSigner(KEYS), new OnewayMetrics(), deflate).encodeFrame(m);
        return m;
    }

    @Test
    void a_deflated_frame_is_several_times_smaller_and_decodes_to_the_same_frame_as_the_plain_one() throws Exception {
        ChangeFrame frame = frame(500);
        Message plain = encoded(frame, false);
        Message deflated = encoded(frame, true);
        byte[] plainBody = plain.getBody(byte[].class);
        byte[] deflatedBody = deflated.getBody(byte[].class);
        assertEquals('{', plainBody[0], "plain JSON when not deflated");
        assertTrue(deflatedBody.length * 3 < plainBody.length, deflatedBody.length + " bytes deflated of " + plainBody.length);
        // the send window counts what the central side holds, whatever travels
        assertEquals(plainBody.length, deflated.getExchange().getProperty(MessageEncoder.MESSAGE_BYTES, Integer.class));
        assertEquals(codec.decode(plainBody), codec.decode(deflatedBody));
        ChangeFrame back = (ChangeFrame) codec.decode(deflatedBody);
        assertEquals(frame.changes().get(499).row(), back.changes().get(499).row());
        assertTrue(new MessageSigner(KEYS).check("s", "inc", back.changes().get(0).fingerprinted()).isEmpty(), "codes verify after inflating");
    }

    @Test
    void a_corrupt_cut_padded_or_oversized_deflated_message_is_refused_with_a_reason() {
        byte[] body = Deflate.deflate(codec.encode(frame(200)));
        byte[] flipped = body.clone();
        flipped[body.length / 2] ^= 0x5a;
        assertMalformed(flipped, "corrupt");
        assertMalformed(Arrays.copyOf(body, body.length - 10), "cut short");
        assertMalformed(Arrays.copyOf(body, body.length + 3), "after its end");
        byte[] bomb = Deflate.deflate(("{\"v\":4,\"pad\":\"" + " ".repeat(300_000) + "\"}").getBytes(StandardCharsets.UTF_8));
        assertTrue(bomb.length < 2_000, "small on the wire");
        assertMalformed(bomb, "inflates to more than the limit of 200000 bytes");
    }

    @Test
    void control_messages_stay_plain_json() {
        Message m = new DefaultExchange(new DefaultCamelContext()).getMessage();
        m.setBody(ControlMessage.ack("s", "inc", 3, 9, "ZGlnZXN0"));
        new MessageEncoder(codec, new MessageSigner(KEYS), new OnewayMetrics(), true).encodeControl(m);
        assertEquals('{', m.getBody(byte[].class)[0]);
    }

    private void assertMalformed(byte[] body, String reason) {
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> codec.decode(body));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }
}
