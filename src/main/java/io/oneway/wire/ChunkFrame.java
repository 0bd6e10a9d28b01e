package io.oneway.wire;

/** A transport message carrying one piece of a change that is too large for one message, and what it tells of the sender's window. */
public record ChunkFrame(String source, String incarnation, ChangeChunk chunk, WindowNote window) {

    public ChunkFrame(String source, String incarnation, ChangeChunk chunk) {
        this(source, incarnation, chunk, WindowNote.ROOM);
    }

    public ChunkFrame with(WindowNote note) {
        return new ChunkFrame(source, incarnation, chunk, note);
    }
}
