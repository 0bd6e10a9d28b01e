package io.oneway.wire;

import java.util.List;

/** A transport message carrying a run of consecutive changes of one source (SPEC §4, framing). */
public record ChangeFrame(String source, String incarnation, List<ChangeRecord> changes) {

    public ChangeFrame {
        changes = List.copyOf(changes);
    }

    public long first() {
        return changes.isEmpty() ? 0 : changes.get(0).position();
    }

    public long last() {
        return changes.isEmpty() ? 0 : changes.get(changes.size() - 1).position();
    }
}
