package io.oneway.send;

import java.util.ArrayList;
import java.util.List;

import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ChangeRecord;

/** Cuts changes (in position order, read by {@link ChangeRows}) into frames of at most {@code frameSize} changes. */
public final class FrameBuilder {

    private final SourceIdentity identity;
    private final int frameSize;

    public FrameBuilder(SourceIdentity identity, int frameSize) {
        this.identity = identity;
        this.frameSize = frameSize;
    }

    public List<ChangeFrame> frames(List<ChangeRecord> changes) {
        List<ChangeFrame> frames = new ArrayList<>();
        List<ChangeRecord> current = new ArrayList<>(Math.min(changes.size(), frameSize));
        for (ChangeRecord change : changes) {
            current.add(change);
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
