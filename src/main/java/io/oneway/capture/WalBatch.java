package io.oneway.capture;

/**
 * A run of decoded changes on its way into the change log, as the JSON array that
 * oneway.record_wal_changes reads (sql/remote/12-wal.sql). Whether an item is the last of its
 * transaction is known only when the next item or the commit comes, so the newest item is held
 * back until then: a run recorded in the middle of a large transaction leaves it for the next
 * run, which then marks the transaction's end.
 */
final class WalBatch {

    /** Bytes an item takes besides its table, key and row: its transaction, time, operation, end mark and punctuation. */
    private static final int ITEM_BYTES = 128;

    /** Items ready, each after the byte kept for '[' or ','; then the item held back, after the same byte. */
    private JsonBytes closed = new JsonBytes();
    private JsonBytes pending = new JsonBytes();
    private int closedCount;

    /**
     * A change of a table captured from the WAL: its key (the key columns of keySource) and row
     * (null for a delete), written as JSON objects straight into the batch from the bytes they
     * came in, so that a wide row is copied once, into an array of its size.
     */
    void addRow(long xid, String committedAt, String table, char op, String[] columns, TextValue[] keySource, boolean[] key, TextValue[] row) {
        start(xid, committedAt);
        pending.room(ITEM_BYTES + 6L * table.length() + JsonBytes.objectLength(columns, keySource)
                + (row == null ? 0 : JsonBytes.objectLength(columns, row)));
        pending.ascii(",\"t\":").string(table).ascii(",\"o\":\"").ascii(op).ascii("\",\"k\":").object(columns, keySource, key);
        if (row != null) {
            pending.ascii(",\"r\":").object(columns, row, null);
        }
    }

    /** A change-log row the transaction inserted itself (reference mode, schema change, sequence, snapshot). */
    void addLogRow(long xid, String committedAt, long logId) {
        start(xid, committedAt);
        pending.ascii(",\"l\":").ascii(Long.toString(logId));
    }

    /** The transaction's last item has come. */
    void endTransaction() {
        close(true);
    }

    private void start(long xid, String committedAt) {
        close(false);
        pending.ascii(' ').ascii("{\"x\":").ascii(Long.toString(xid)).ascii(",\"a\":\"").ascii(committedAt).ascii('"');
    }

    private void close(boolean transactionEnds) {
        if (pending.length() == 0) {
            return;
        }
        pending.ascii(transactionEnds ? ",\"e\":true}" : ",\"e\":false}");
        if (closedCount == 0) {
            // the first item ready (often a wide row alone): the buffers change places instead of copying it
            pending.set(0, '[');
            JsonBytes emptied = closed;
            closed = pending;
            pending = emptied;
        } else {
            pending.set(0, ',');
            closed.append(pending);
            pending.clear();
        }
        closedCount++;
    }

    /** Items ready to be recorded. */
    int ready() {
        return closedCount;
    }

    boolean holdsBack() {
        return pending.length() > 0;
    }

    /** Bytes held, about the bytes the database will parse. */
    int length() {
        return closed.length() + pending.length();
    }

    /**
     * The items ready, as a JSON array in UTF-8 (its first {@code length()} bytes), let go by the
     * batch (the one held back stays): if recording them fails, the reader starts again from the
     * slot and reads them again.
     */
    JsonBytes takeReady() {
        JsonBytes ready = closed.ascii(']');
        closed = new JsonBytes();
        closedCount = 0;
        return ready;
    }

    void clear() {
        closed = new JsonBytes();
        pending = new JsonBytes();
        closedCount = 0;
    }
}
