package io.oneway.wire;

import java.util.List;

/** A transport message carrying a run of consecutive changes of one source (SPEC §4, framing), and what it tells of the sender's window. */
public record ChangeFrame(String source, String incarnation, List<ChangeRecord> changes, WindowNote window) {

    public ChangeFrame {
        changes = List.copyOf(changes);
    }

    public ChangeFrame(String source, String incarnation, List<ChangeRecord> changes) {
        this(source, incarnation, changes, WindowNote.ROOM);
    }

    public ChangeFrame with(WindowNote note) {
        return new ChangeFrame(source, incarnation, changes, note);
    }

    public long first() {
        return changes.isEmpty() ? 0 : changes.get(0).position();
    }

    public long last() {
        return changes.isEmpty() ? 0 : changes.get(changes.size() - 1).position();
    }
}
