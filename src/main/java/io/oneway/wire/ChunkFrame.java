package io.oneway.wire;

/** A transport message carrying one piece of a change that is too large for one message. */
public record ChunkFrame(String source, String incarnation, ChangeChunk chunk) {
}
