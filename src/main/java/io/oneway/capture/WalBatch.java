package io.oneway.capture;

/**
 * A run of decoded changes on its way into the change log, as the JSON array that
 * oneway.record_wal_changes reads (sql/remote/12-wal.sql). Whether an item is the last of its
 * transaction is known only when the next item or the commit comes, so the newest item is held
 * back until then: a run recorded in the middle of a large transaction leaves it for the next
 * run, which then marks the transaction's end.
 */
final class WalBatch {

    private final StringBuilder closed = new StringBuilder();
    private final StringBuilder pending = new StringBuilder();
    private int closedCount;

    /** A change of a table captured from the WAL: key and row are JSON objects (row null for a delete). */
    void addRow(long xid, String committedAt, String table, char op, String key, String row) {
        start(xid, committedAt);
        pending.append(",\"t\":");
        Json.string(pending, table);
        pending.append(",\"o\":\"").append(op).append("\",\"k\":").append(key);
        if (row != null) {
            pending.append(",\"r\":").append(row);
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
        if (!pending.isEmpty()) {
            closed.append(closedCount == 0 ? "" : ",").append(pending).append(",\"e\":").append(transactionEnds).append('}');
            closedCount++;
            pending.setLength(0);
        }
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

    /** The items ready, as a JSON array. */
    String json() {
        return "[" + closed + "]";
    }

    /** The ready items are recorded; the one held back stays. */
    void recorded() {
        closed.setLength(0);
        closedCount = 0;
    }

    void clear() {
        recorded();
        pending.setLength(0);
    }
}
