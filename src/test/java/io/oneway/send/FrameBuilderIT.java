package io.oneway.send;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.oneway.ops.SchemaInstaller.Part;
import io.oneway.testing.PostgresFixture;
import io.oneway.wire.ChangeChunk;
import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ChangeRecord;
import io.oneway.wire.ChunkFrame;
import io.oneway.wire.Fingerprint;
import io.oneway.wire.WireCodec;

/**
 * Frames stay under the broker's journal-buffer-size (Artemis' default, 490 KiB), over which the
 * broker stores a message as a large message and consumers copy it a byte at a time, however
 * narrow or wide the rows: the fields around each change count towards oneway.send.frame-bytes,
 * not only its key and row (2,000 narrow rows came to 620 kB for 384 kB counted before).
 */
class FrameBuilderIT {

    private static final int JOURNAL_BUFFER_SIZE = 490 * 1024;
    private static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

    @Test
    void frames_of_narrow_and_of_wide_rows_stay_under_the_brokers_journal_buffer_size() {
        SourceIdentity identity = new SourceIdentity(PostgresFixture.newDatabase("frames", Part.REMOTE).dataSource());
        identity.setSource("branch1");
        FrameBuilder builder = new FrameBuilder(identity, 2000, 393216, MAX_MESSAGE_BYTES);
        WireCodec codec = new WireCodec(MAX_MESSAGE_BYTES);
        for (int width : new int[] {1, 30, 300, 3000, 30000}) {
            List<OutgoingChange> changes = changes(20_000, width);
            int frames = 0;
            int sent = 0;
            for (Iterator<Object> it = builder.frames(changes); it.hasNext();) {
                ChangeFrame frame = (ChangeFrame) it.next();
                int size = codec.encode(frame).length;
                assertTrue(size < JOURNAL_BUFFER_SIZE, "a frame of " + frame.changes().size() + " rows of " + width + " characters is "
                        + size + " bytes");
                frames++;
                sent += frame.changes().size();
            }
            assertEquals(20_000, sent);
            assertTrue(frames >= 20_000 / 2000, frames + " frames");
        }
    }

    /**
     * A wide row read as its UTF-8 bytes (over ChangeRows.WIDE_BYTES) goes in the same pieces as
     * the same row read as text: each under the journal-buffer-size even when every byte is
     * escaped in the message, never cutting a character, put back together into the row its hash
     * and fingerprint describe.
     */
    @Test
    void a_wide_row_as_bytes_goes_in_the_pieces_of_the_same_row_as_text() {
        SourceIdentity identity = new SourceIdentity(PostgresFixture.newDatabase("pieces", Part.REMOTE).dataSource());
        identity.setSource("branch1");
        FrameBuilder builder = new FrameBuilder(identity, 2000, 393216, MAX_MESSAGE_BYTES);
        WireCodec codec = new WireCodec(MAX_MESSAGE_BYTES);
        String row = "{\"name\": \"" + "\\\"".repeat(300_000) + "é😀".repeat(200_000) + "x".repeat(500_001) + "\"}";
        byte[] utf8 = row.getBytes(StandardCharsets.UTF_8);
        ChangeRecord change = new ChangeRecord(7, 9, true, "shop.customers", "U", false, "{\"id\": 1}", row, "2026-12-01T05:00:00Z", null);
        OutgoingChange asText = new OutgoingChange(change, utf8.length);
        OutgoingChange asBytes = new OutgoingChange(new ChangeRecord(7, 9, true, "shop.customers", "U", false, "{\"id\": 1}", null,
                "2026-12-01T05:00:00Z", null), utf8.length, utf8);
        assertArrayEquals(Fingerprint.of(change), asBytes.fingerprint());

        List<ChangeChunk> fromText = pieces(builder.frames(List.of(asText)));
        List<ChangeChunk> fromBytes = pieces(builder.frames(List.of(asBytes)));
        assertEquals(fromText, fromBytes);
        StringBuilder whole = new StringBuilder();
        for (ChangeChunk piece : fromBytes) {
            int size = codec.encode(new ChunkFrame("branch1", identity.incarnation(), piece)).length;
            assertTrue(size < JOURNAL_BUFFER_SIZE, "piece " + piece.index() + " is " + size + " bytes");
            assertEquals(fromBytes.size(), piece.count());
            whole.append(piece.piece());
        }
        assertEquals(row, whole.toString());
        assertEquals(ChangeChunk.rowHash(row), fromBytes.get(0).rowHash());
        assertTrue(fromBytes.size() >= utf8.length / (393216 / 2), fromBytes.size() + " pieces");
    }

    /** With a frame-bytes over ChangeRows.WIDE_BYTES, a row read as bytes that fits in a frame goes whole in it, as its text. */
    @Test
    void a_wide_row_as_bytes_that_fits_a_large_frame_goes_in_it_as_its_text() {
        SourceIdentity identity = new SourceIdentity(PostgresFixture.newDatabase("large_frames", Part.REMOTE).dataSource());
        identity.setSource("branch1");
        FrameBuilder builder = new FrameBuilder(identity, 2000, 4 * 1024 * 1024, MAX_MESSAGE_BYTES);
        String row = "{\"name\": \"" + "é😀".repeat(300_000) + "\"}";
        byte[] utf8 = row.getBytes(StandardCharsets.UTF_8);
        assertTrue(utf8.length > ChangeRows.WIDE_BYTES && utf8.length < 4 * 1024 * 1024);
        OutgoingChange asBytes = new OutgoingChange(new ChangeRecord(7, 9, true, "shop.customers", "U", false, "{\"id\": 1}", null,
                "2026-12-01T05:00:00Z", null), utf8.length, utf8);
        Iterator<Object> messages = builder.frames(List.of(asBytes));
        ChangeFrame frame = (ChangeFrame) messages.next();
        assertEquals(row, frame.changes().get(0).row());
        assertTrue(!messages.hasNext(), "one frame");
        assertArrayEquals(Fingerprint.of(frame.changes().get(0)), asBytes.fingerprint());
    }

    private static List<ChangeChunk> pieces(Iterator<Object> messages) {
        List<ChangeChunk> pieces = new ArrayList<>();
        messages.forEachRemaining(m -> pieces.add(((ChunkFrame) m).chunk()));
        return pieces;
    }

    private static List<OutgoingChange> changes(int n, int width) {
        List<OutgoingChange> changes = new ArrayList<>(n);
        String text = "x".repeat(width);
        for (int i = 0; i < n; i++) {
            long position = 9_000_000_000L + i;
            String key = "{\"id\": \"" + position + "\"}";
            String row = "{\"id\": \"" + position + "\", \"name\": \"" + text + "\", \"balance\": \"12345.6700\"}";
            changes.add(new OutgoingChange(new ChangeRecord(position, 9_000_000_123L, i % 5 == 4, "public.customers", "U", false, key, row,
                    "2026-12-01T05:00:00.123456Z", "A".repeat(44)), key.getBytes(StandardCharsets.UTF_8).length
                    + row.getBytes(StandardCharsets.UTF_8).length));
        }
        return changes;
    }
}
