package io.oneway.send;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.oneway.ops.SchemaInstaller.Part;
import io.oneway.testing.PostgresFixture;
import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ChangeRecord;
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
        SourceIdentity identity = new SourceIdentity("branch1", PostgresFixture.newDatabase("frames", Part.REMOTE).dataSource());
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
