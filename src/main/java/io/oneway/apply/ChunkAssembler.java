package io.oneway.apply;

import java.util.Optional;
import java.util.TreeMap;

import io.oneway.wire.ChangeChunk;
import io.oneway.wire.ChangeRecord;

/**
 * Puts changes sent in pieces ({@link ChangeChunk}) back together, in memory, bounded by
 * bytes: the pieces of the lowest positions are kept, those farthest ahead let go (asked for
 * again later). A change is complete when all its pieces arrived; its row is then checked
 * against the hash every piece carries.
 */
final class ChunkAssembler {

    private static final class Assembly {
        final ChangeChunk first;
        final String[] pieces;
        int have;
        long bytes;

        Assembly(ChangeChunk chunk) {
            this.first = chunk;
            this.pieces = new String[chunk.count()];
        }

        boolean sameRow(ChangeChunk chunk) {
            return chunk.count() == pieces.length && chunk.rowHash().equals(first.rowHash()) && chunk.change().equals(first.change());
        }

        int firstMissing() {
            for (int i = 0; i < pieces.length; i++) {
                if (pieces[i] == null) {
                    return i;
                }
            }
            return pieces.length;
        }
    }

    private final TreeMap<Long, Assembly> assemblies = new TreeMap<>();
    private final long maxBytes;
    private final long maxChangeBytes;
    private long bytes;

    ChunkAssembler(long maxBytes, long maxChangeBytes) {
        this.maxBytes = maxBytes;
        this.maxChangeBytes = maxChangeBytes;
    }

    /**
     * A verified piece.
     * @return the whole change once its last piece arrived
     * @throws IllegalArgumentException when the pieces do not make the row their hash names,
     *         or the change would be larger than oneway.wire.max-change-bytes
     */
    Optional<ChangeRecord> add(ChangeChunk chunk) {
        long position = chunk.change().position();
        Assembly a = assemblies.get(position);
        if (a != null && !a.sameRow(chunk)) {
            // a resend cut the row differently, or read it anew (reference mode): start over with it
            drop(position);
            a = null;
        }
        if (a == null) {
            a = new Assembly(chunk);
            assemblies.put(position, a);
        }
        if (a.pieces[chunk.index()] == null) {
            a.pieces[chunk.index()] = chunk.piece();
            a.have++;
            a.bytes += chunk.piece().length();
            bytes += chunk.piece().length();
            if (a.bytes > maxChangeBytes) {
                drop(position);
                throw new IllegalArgumentException("the change at position " + position + " is larger than oneway.wire.max-change-bytes ("
                        + maxChangeBytes + ")");
            }
        }
        if (a.have < a.pieces.length) {
            while (bytes > maxBytes && assemblies.size() > 1) {
                drop(assemblies.lastKey());
            }
            return Optional.empty();
        }
        drop(position);
        String row = String.join("", a.pieces);
        if (!ChangeChunk.rowHash(row).equals(a.first.rowHash())) {
            throw new IllegalArgumentException("the pieces of position " + position + " do not make the row their hash names");
        }
        ChangeRecord c = a.first.change();
        return Optional.of(new ChangeRecord(c.position(), c.txid(), c.txEnd(), c.table(), c.op(), c.reference(), c.key(), row, c.loggedAt(),
                null));
    }

    /** The first piece not yet arrived of a position being assembled, or 0. */
    int firstMissingPiece(long position) {
        Assembly a = assemblies.get(position);
        return a == null ? 0 : a.firstMissing();
    }

    /** Let go of everything at or below a position. */
    void removeThrough(long position) {
        while (!assemblies.isEmpty() && assemblies.firstKey() <= position) {
            drop(assemblies.firstKey());
        }
    }

    void clear() {
        assemblies.clear();
        bytes = 0;
    }

    long bytes() {
        return bytes;
    }

    private void drop(long position) {
        Assembly a = assemblies.remove(position);
        if (a != null) {
            bytes -= a.bytes;
        }
    }
}
