package io.oneway.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;

import org.apache.camel.Message;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.oneway.support.OnewayMetrics;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import net.jpountz.xxhash.XXHashFactory;

class CompressionTest {

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

    private static Message encoded(ChangeFrame frame, String compression) {
        Message m = new DefaultExchange(new DefaultCamelContext()).getMessage();
        m.setBody(frame);
        new MessageEncoder(new WireCodec(1 << 24), new MessageSigner(KEYS), new OnewayMetrics(), compression).encodeFrame(m);
        return m;
    }

    @ParameterizedTest
    @ValueSource(strings = {"lz4", "deflate"})
    void a_compressed_frame_is_several_times_smaller_and_decodes_to_the_same_frame_as_the_plain_one(String compression) throws Exception {
        ChangeFrame frame = frame(500);
        Message plain = encoded(frame, "none");
        Message compressed = encoded(frame, compression);
        byte[] plainBody = plain.getBody(byte[].class);
        byte[] compressedBody = compressed.getBody(byte[].class);
        assertEquals('{', plainBody[0], "plain JSON when not compressed");
        assertEquals(compression.equals("lz4") ? 0x04 : 0x78, compressedBody[0]);
        assertTrue(compressedBody.length * 2.5 < plainBody.length, compressedBody.length + " bytes compressed of " + plainBody.length);
        assertEquals(codec.decode(plainBody), codec.decode(compressedBody));
        ChangeFrame back = (ChangeFrame) codec.decode(compressedBody);
        assertEquals(frame.changes().get(499).row(), back.changes().get(499).row());
        assertTrue(new MessageSigner(KEYS).check("s", "inc", back.changes().get(0).fingerprinted()).isEmpty(), "codes verify after decompressing");
    }

    @Test
    void an_lz4_body_is_a_standard_lz4_frame_that_the_library_s_own_reader_reads() throws IOException {
        byte[] plain = codec.encode(frame(300));
        try (InputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(Lz4.compress(plain)))) {
            assertArrayEquals(plain, in.readAllBytes());
        }
    }

    /** LZ4's own tools write a smaller block size for a smaller body (Python's lz4.frame 1 MB for a frame of 400 kB). */
    @Test
    void a_standard_lz4_frame_of_smaller_blocks_is_read() throws Exception {
        byte[] plain = codec.encode(frame(1000));
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        try (OutputStream out = new LZ4FrameOutputStream(written, LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB, plain.length,
                LZ4Factory.fastestInstance().fastCompressor(), XXHashFactory.fastestInstance().hash32(), LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE,
                LZ4FrameOutputStream.FLG.Bits.CONTENT_SIZE, LZ4FrameOutputStream.FLG.Bits.CONTENT_CHECKSUM)) {
            out.write(plain);
        }
        byte[] body = written.toByteArray();
        assertEquals(0x40, body[5], "blocks of 64 kB");
        assertTrue(plain.length > 2 * 65536, "several blocks: " + plain.length);
        assertArrayEquals(plain, Compression.plain(body, 200_000));
    }

    @Test
    void incompressible_bytes_and_bodies_of_several_blocks_come_back_whole() throws Exception {
        byte[] noise = new byte[100_000];
        new Random(7).nextBytes(noise);
        byte[] stored = Lz4.compress(noise);
        assertTrue(stored.length < noise.length + 64, "stored as it is, not grown: " + stored.length);
        assertArrayEquals(noise, Lz4.decompress(stored, noise.length));
        byte[] large = new byte[9 << 20]; // three blocks of at most 4 MB, the middle one noise
        Arrays.fill(large, (byte) 'a');
        byte[] middle = new byte[4 << 20];
        new Random(8).nextBytes(middle);
        System.arraycopy(middle, 0, large, 4 << 20, middle.length);
        assertArrayEquals(large, Lz4.decompress(Lz4.compress(large), large.length));
    }

    @Test
    void a_corrupt_cut_padded_or_oversized_lz4_message_is_refused_with_a_reason() {
        byte[] body = assertRefusedWhenDamaged(Lz4::compress, "LZ4 message is corrupt", "3 bytes after its end",
                "decompresses to 300016 bytes, more than the limit of 200000 bytes");
        byte[] header = body.clone();
        header[8] ^= 0x01; // the content size
        assertMalformed(header, "header checksum");
        byte[] flags = body.clone();
        flags[4] = 0x60;
        assertMalformed(flags, "flags 0x60 0x70");
        byte[] blocks = body.clone();
        blocks[5] = 0x30; // blocks of 16 kB: not in the format
        assertMalformed(blocks, "flags 0x6C 0x30");
        assertMalformed(Arrays.copyOf(body, 16), "cut short");
    }

    @Test
    void a_corrupt_cut_padded_or_oversized_deflated_message_is_refused_with_a_reason() {
        assertRefusedWhenDamaged(Deflate::deflate, "corrupt", "after its end", "inflates to more than the limit of 200000 bytes");
    }

    /** A body of a frame compressed, then that body with a byte flipped, cut short, padded; and a small "zip bomb". @return the body */
    private byte[] assertRefusedWhenDamaged(UnaryOperator<byte[]> compress, String corrupt, String padded, String bomb) {
        byte[] body = compress.apply(codec.encode(frame(200)));
        byte[] flipped = body.clone();
        flipped[body.length / 2] ^= 0x5a;
        assertMalformed(flipped, corrupt);
        assertMalformed(Arrays.copyOf(body, body.length - 10), "cut short");
        assertMalformed(Arrays.copyOf(body, body.length + 3), padded);
        byte[] small = compress.apply(("{\"v\":4,\"pad\":\"" + " ".repeat(300_000) + "\"}").getBytes(StandardCharsets.UTF_8));
        assertTrue(small.length < 2_000, "small on the wire");
        assertMalformed(small, bomb);
        return body;
    }

    @Test
    void control_messages_stay_plain_json() {
        Message m = new DefaultExchange(new DefaultCamelContext()).getMessage();
        m.setBody(ControlMessage.ack("s", "inc", 3, 9, "ZGlnZXN0"));
        new MessageEncoder(codec, new MessageSigner(KEYS), new OnewayMetrics(), "lz4").encodeControl(m);
        assertEquals('{', m.getBody(byte[].class)[0]);
    }

    @Test
    void a_compression_that_is_not_known_is_refused_naming_the_setting_and_the_choices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Compression.of("zip"));
        assertEquals("oneway.wire.compression = 'zip' is not one of [lz4, deflate, none]", e.getMessage());
        assertEquals(Compression.LZ4, Compression.of(" LZ4 "));
    }

    private void assertMalformed(byte[] body, String reason) {
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> codec.decode(body));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }
}
