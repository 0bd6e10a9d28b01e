package io.oneway.send;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

import org.apache.camel.Header;

import io.oneway.wire.ChangeChunk;
import io.oneway.wire.ChangeFrame;
import io.oneway.wire.ChangeRecord;
import io.oneway.wire.ChunkFrame;

/**
 * Cuts changes (in position order, read by {@link ChangeRows}) into messages: frames of at most
 * {@code frameSize} changes and {@code frameBytes} bytes of key and row text and each change's
 * fields around them (position, table, time, integrity code: {@link #ENVELOPE_BYTES}), so that a
 * frame's message stays under the broker's journal-buffer-size however small its rows; a change larger
 * than {@code frameBytes} into pieces ({@link ChunkFrame}) of half that many bytes of its UTF-8.
 * Messages are made one at a time as they are sent, so a large row is held once, as its UTF-8,
 * not once per piece.
 */
public final class FrameBuilder {

    /** Header of a resend request: the first piece wanted of its first change, when that change goes in pieces. */
    public static final String RESEND_PIECE = "OnewayResendPiece";
    /**
     * A byte of a row's UTF-8 takes at most two in a message: a quote or backslash escaped in the
     * piece's JSON string (a row is JSON text, so no control character is in it raw).
     */
    private static final int MESSAGE_BYTES_PER_BYTE = 2;
    /**
     * The message bytes of one change besides its key, row and table name: field names and
     * punctuation, position, transaction id, time and integrity code (WireCodec). Without it, a
     * frame of 2,000 narrow rows came to over 600 kB for 384 kB counted, and the broker stored
     * it as a large message, copied a byte at a time (12 % of the catch-up's CPU).
     */
    static final int ENVELOPE_BYTES = 160;

    private final SourceIdentity identity;
    private final int frameSize;
    private final int frameBytes;

    /** @param maxMessageBytes oneway.wire.max-message-bytes: a frame stays well below it */
    public FrameBuilder(SourceIdentity identity, int frameSize, int frameBytes, int maxMessageBytes) {
        if (frameSize < 1 || frameBytes < 1024) {
            throw new IllegalArgumentException("oneway.send.frame-size must be at least 1 and oneway.send.frame-bytes at least 1024");
        }
        if (2L * frameBytes > maxMessageBytes) {
            throw new IllegalArgumentException("oneway.send.frame-bytes (" + frameBytes + ") must be at most half of oneway.wire.max-message-bytes ("
                    + maxMessageBytes + "): a frame carries more than its rows");
        }
        this.identity = identity;
        this.frameSize = frameSize;
        this.frameBytes = frameBytes;
    }

    /** oneway.send.frame-size, for the sender's query: a bean's value costs it less per poll than the lookup of a property. */
    public int frameSize() {
        return frameSize;
    }

    /** oneway.send.frame-bytes, for the sender's query. */
    public int frameBytes() {
        return frameBytes;
    }

    /** The messages for changes read to be sent for the first time. */
    public Iterator<Object> frames(List<OutgoingChange> changes) {
        return new Frames(changes, 0);
    }

    /** The messages for a resend: the first change's pieces from {@code firstPiece} on, when it goes in pieces. */
    public Iterator<Object> resendFrames(List<OutgoingChange> changes, @Header(RESEND_PIECE) Integer firstPiece) {
        return new Frames(changes, firstPiece == null ? 0 : firstPiece);
    }

    /** Where a row's UTF-8 is cut: piece k is bytes [cuts[k], cuts[k+1]), of at most pieceBytes (at least 4); never inside a character. */
    static int[] cuts(byte[] row, int pieceBytes) {
        List<Integer> at = new ArrayList<>();
        int i = 0;
        while (i < row.length) {
            at.add(i);
            int next = Math.min(row.length, i + pieceBytes);
            while (next < row.length && (row[next] & 0xC0) == 0x80) {
                next--; // back to the first byte of the character it would cut
            }
            i = next;
        }
        at.add(row.length);
        return at.stream().mapToInt(Integer::intValue).toArray();
    }

    private final class Frames implements Iterator<Object> {
        private final List<OutgoingChange> changes;
        private int next;
        private int firstPiece;
        private ChangeRecord chunked;
        private byte[] chunkedRow;
        private int[] cuts;
        private String rowHash;
        private int piece;

        Frames(List<OutgoingChange> changes, int firstPiece) {
            this.changes = changes;
            this.firstPiece = firstPiece;
        }

        @Override
        public boolean hasNext() {
            return chunked != null || next < changes.size();
        }

        @Override
        public Object next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            if (chunked == null && changes.get(next).bytes() > frameBytes && changes.get(next).hasRow()) {
                startPieces(changes.get(next++));
            }
            if (chunked != null) {
                return nextPiece();
            }
            List<ChangeRecord> frame = new ArrayList<>();
            long bytes = 0;
            while (next < changes.size() && frame.size() < frameSize) {
                OutgoingChange c = changes.get(next);
                long size = c.bytes() + ENVELOPE_BYTES + c.change().table().length();
                if (!frame.isEmpty() && (bytes + size > frameBytes || c.bytes() > frameBytes)) {
                    break;
                }
                frame.add(c.whole());
                bytes += size;
                next++;
            }
            firstPiece = 0;
            return new ChangeFrame(identity.source(), identity.incarnation(), frame);
        }

        private void startPieces(OutgoingChange change) {
            chunked = change.change();
            chunkedRow = change.rowUtf8();
            cuts = cuts(chunkedRow, frameBytes / MESSAGE_BYTES_PER_BYTE);
            rowHash = ChangeChunk.rowHash(chunkedRow);
            piece = Math.min(firstPiece, cuts.length - 2);
            firstPiece = 0;
        }

        private ChunkFrame nextPiece() {
            ChangeRecord header = new ChangeRecord(chunked.position(), chunked.txid(), chunked.txEnd(), chunked.table(), chunked.op(),
                    chunked.reference(), chunked.key(), null, chunked.loggedAt(), null);
            int count = cuts.length - 1;
            ChangeChunk chunk = new ChangeChunk(header, piece, count, rowHash,
                    new String(chunkedRow, cuts[piece], cuts[piece + 1] - cuts[piece], StandardCharsets.UTF_8), null);
            if (++piece == count) {
                chunked = null;
                chunkedRow = null;
                cuts = null;
            }
            return new ChunkFrame(identity.source(), identity.incarnation(), chunk);
        }
    }
}
