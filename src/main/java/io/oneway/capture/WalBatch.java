package io.oneway.capture;

import java.util.Arrays;

/**
 * A run of decoded changes on its way into the change log (WalRecording): for each item its
 * transaction, whether it ends it, and either the log id of a change-log row the transaction
 * inserted itself or the fields of a new change-log row in COPY's text form. Whether an item is
 * the last of its transaction is known only when the next item or the commit comes, so the newest
 * item is held back until then: a run recorded in the middle of a large transaction leaves it for
 * the next run, which then marks the transaction's end.
 */
final class WalBatch {

    /** Bytes a row takes besides its table, key and row: its operation, mode, time and separators. */
    private static final int ROW_BYTES = 64;
    /** The log id of an item that is a new row (log ids are positive). */
    static final long NEW_ROW = 0;

    /** The fields of the ready items' new rows, one after another; then those of the item held back. */
    private CopyText closed = new CopyText();
    private CopyText pending = new CopyText();
    private long[] xids = new long[64];
    private long[] logIds = new long[64];
    private boolean[] ends = new boolean[64];
    private int[] fieldsEnd = new int[64];
    private int closedCount;
    private int newRows;
    private boolean holding;
    private long pendingXid;
    private long pendingLogId;

    /**
     * A change of a table captured from the WAL: the change-log fields from object_type on (table,
     * key, operation, mode, row, commit time), its key (the key columns of keySource) and row (null
     * for a delete) written as JSON objects straight from the bytes they came in, so that a wide row
     * is copied once, into an array of its size.
     */
    void addRow(long xid, String committedAt, String table, char op, String[] columns, TextValue[] keySource, boolean[] key, TextValue[] row) {
        start(xid, NEW_ROW);
        pending.room(ROW_BYTES + 6L * table.length() + CopyText.objectLength(columns, keySource)
                + (row == null ? 0 : CopyText.objectLength(columns, row)));
        pending.field(table).ascii('\t').object(columns, keySource, key).ascii('\t').ascii(op).ascii("\tW\t");
        if (row == null) {
            pending.ascii("\\N");
        } else {
            pending.object(columns, row, null);
        }
        pending.ascii('\t').ascii(committedAt).ascii('\n');
    }

    /** A change-log row the transaction inserted itself (reference mode, schema change, sequence, snapshot). */
    void addLogRow(long xid, long logId) {
        start(xid, logId);
    }

    /** The transaction's last item has come. */
    void endTransaction() {
        close(true);
    }

    private void start(long xid, long logId) {
        close(false);
        holding = true;
        pendingXid = xid;
        pendingLogId = logId;
    }

    private void close(boolean transactionEnds) {
        if (!holding) {
            return;
        }
        if (closedCount == xids.length) {
            int more = 2 * closedCount;
            xids = Arrays.copyOf(xids, more);
            logIds = Arrays.copyOf(logIds, more);
            ends = Arrays.copyOf(ends, more);
            fieldsEnd = Arrays.copyOf(fieldsEnd, more);
        }
        if (closed.length() == 0) {
            // nothing ready has fields (often a wide row alone): the buffers change places instead of copying it
            CopyText emptied = closed;
            closed = pending;
            pending = emptied;
        } else {
            closed.append(pending);
            pending.clear();
        }
        xids[closedCount] = pendingXid;
        logIds[closedCount] = pendingLogId;
        ends[closedCount] = transactionEnds;
        fieldsEnd[closedCount] = closed.length();
        if (pendingLogId == NEW_ROW) {
            newRows++;
        }
        closedCount++;
        holding = false;
    }

    /** Items ready to be recorded. */
    int ready() {
        return closedCount;
    }

    boolean holdsBack() {
        return holding;
    }

    /** Bytes held, about the bytes the database will parse. */
    int length() {
        return closed.length() + pending.length();
    }

    /**
     * The items ready, let go by the batch (the one held back stays): if recording them fails, the
     * reader starts again from the slot and reads them again.
     */
    Run takeReady() {
        Run run = new Run(closedCount, newRows, xids, logIds, ends, fieldsEnd, closed);
        closed = new CopyText();
        xids = new long[64];
        logIds = new long[64];
        ends = new boolean[64];
        fieldsEnd = new int[64];
        closedCount = 0;
        newRows = 0;
        return run;
    }

    void clear() {
        takeReady();
        pending = new CopyText();
        holding = false;
    }

    /**
     * Items taken from the batch, in commit order: item i belongs to transaction xids[i], ends it if
     * ends[i], and is the change-log row logIds[i] or, if that is NEW_ROW, a new row whose fields
     * from object_type on are fields' bytes up to fieldsEnd[i] (from the previous item's end).
     */
    record Run(int items, int newRows, long[] xids, long[] logIds, boolean[] ends, int[] fieldsEnd, CopyText fields) {
    }
}
