package io.oneway.send;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ChangeRecord;

/** Turns change-log rows (in position order) into frames of at most {@code frameSize} changes. */
public final class FrameBuilder {

    private final SourceIdentity identity;
    private final int frameSize;

    public FrameBuilder(SourceIdentity identity, int frameSize) {
        this.identity = identity;
        this.frameSize = frameSize;
    }

    public List<ChangeFrame> frames(List<Map<String, Object>> rows) {
        List<ChangeFrame> frames = new ArrayList<>();
        List<ChangeRecord> current = new ArrayList<>(Math.min(rows.size(), frameSize));
        for (Map<String, Object> row : rows) {
            current.add(new ChangeRecord(((Number) row.get("position")).longValue(), Long.parseLong((String) row.get("txid")),
                    (Boolean) row.get("tx_end"), (String) row.get("object_type"), (String) row.get("op"),
                    "R".equals(row.get("capture_mode")), (String) row.get("object_id"), (String) row.get("row_image"), (String) row.get("logged_at"), null));
            if (current.size() == frameSize) {
                frames.add(new ChangeFrame(identity.source(), identity.incarnation(), current));
                current = new ArrayList<>();
            }
        }
        if (!current.isEmpty()) {
            frames.add(new ChangeFrame(identity.source(), identity.incarnation(), current));
        }
        return frames;
    }
}
