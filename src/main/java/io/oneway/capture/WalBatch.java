package io.oneway.capture;

import io.oneway.support.Utf8;

/**
 * A run of decoded changes on its way into the change log, as the JSON array that
 * oneway.record_wal_changes reads (sql/remote/12-wal.sql). Whether an item is the last of its
 * transaction is known only when the next item or the commit comes, so the newest item is held
 * back until then: a run recorded in the middle of a large transaction leaves it for the next
 * run, which then marks the transaction's end.
 */
final class WalBatch {

    /** A buffer that grew past this many characters (a wide row) is let go once emptied, not kept at its size. */
    private static final int KEPT_CAPACITY = 1 << 20;

    private StringBuilder closed = new StringBuilder();
    private StringBuilder pending = new StringBuilder();
    private int closedCount;

    /**
     * A change of a table captured from the WAL: its key (the key columns of keySource) and row
     * (null for a delete), written as JSON objects straight into the batch, so that a wide row is
     * copied as few times as can be.
     */
    void addRow(long xid, String committedAt, String table, char op, String[] columns, CharSequence[] keySource, boolean[] key, CharSequence[] row) {
        start(xid, committedAt);
        long size = 32 + table.length() + Json.objectLength(columns, keySource) + (row == null ? 0 : Json.objectLength(columns, row));
        pending.ensureCapacity((int) Math.min(Integer.MAX_VALUE - 16, pending.length() + size));
        pending.append(",\"t\":");
        Json.string(pending, table);
        pending.append(",\"o\":\"").append(op).append("\",\"k\":");
        Json.object(pending, columns, keySource, key);
        if (row != null) {
            pending.append(",\"r\":");
            Json.object(pending, columns, row, null);
        }
    }

    /** A change-log row the transaction inserted itself (reference mode, schema change, sequence, snapshot). */
    void addLogRow(long xid, String committedAt, long logId) {
        start(xid, committedAt);
        pending.append(",\"l\":").append(logId);
    }

    /** The transaction's last item has come. */
    void endTransaction() {
        close(true);
    }

    private void start(long xid, String committedAt) {
        close(false);
        pending.append("{\"x\":").append(xid).append(",\"a\":\"").append(committedAt).append('"');
    }

    private void close(boolean transactionEnds) {
        if (pending.isEmpty()) {
            return;
        }
        if (closedCount == 0) {
            // the first item ready (often a wide row alone): the buffers change places instead of copying it
            StringBuilder emptied = closed;
            closed = pending;
            pending = emptied;
        } else {
            closed.ensureCapacity(closed.length() + pending.length() + 16);
            closed.append(',').append(pending);
            empty(pending);
        }
        closed.append(",\"e\":").append(transactionEnds).append('}');
        closedCount++;
    }

    /** Items ready to be recorded. */
    int ready() {
        return closedCount;
    }

    boolean holdsBack() {
        return !pending.isEmpty();
    }

    /** Characters held, about the bytes the database will parse. */
    int length() {
        return closed.length() + pending.length();
    }

    /**
     * The items ready, as a JSON array in UTF-8, let go by the batch (the one held back stays): if
     * recording them fails, the reader starts again from the slot and reads them again. Encoded
     * straight from the buffer into an array of the exact size, so that a wide row is held twice
     * here (as characters, then as bytes), where a String and the driver's encoding of it held it
     * four times.
     */
    byte[] takeReady() {
        byte[] json = new byte[2 + Utf8.length(closed)];
        json[0] = '[';
        json[Utf8.encode(closed, json, 1)] = ']';
        empty(closed);
        closedCount = 0;
        return json;
    }

    void clear() {
        empty(closed);
        closedCount = 0;
        empty(pending);
    }

    private static void empty(StringBuilder b) {
        b.setLength(0);
        if (b.capacity() > KEPT_CAPACITY) {
            b.trimToSize();
        }
    }
}
