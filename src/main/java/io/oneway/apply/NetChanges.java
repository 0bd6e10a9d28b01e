package io.oneway.apply;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.oneway.wire.ChangeRecord;

/**
 * The net effect of a run's row changes, row by row, as the run's one central transaction
 * leaves it: a row image that a later change of the same row replaces whole is not written.
 * An insert then updates is one insert of the last image; updates then an update, one update;
 * updates then a delete, one delete; an insert then a delete, nothing. Each change still
 * checks what it checked alone (an update or delete finds its row, an insert finds none),
 * except that a row inserted and deleted in one run is never looked for. Only image-mode
 * changes of one key merge: an update that changes its key, a reference-mode change, and an
 * update that leaves columns out (an unchanged TOASTed value read from the WAL) over one with
 * more columns keep every change, in order.
 */
final class NetChanges {

    /** A change to execute, with its key and row as read once. */
    record Change(ChangeRecord change, RowShape shape) {
    }

    private NetChanges() {
    }

    /** @return the changes left to execute; those of one row stay in position order */
    static List<Change> of(List<ChangeRecord> run) throws ApplyHaltException {
        List<Change> slots = new ArrayList<>(run.size());
        Map<String, Integer> lastOfRow = new HashMap<>();
        for (ChangeRecord record : run) {
            Change later = new Change(record, RowShape.of(record));
            List<String> rows = later.shape().rowsTouched();
            Integer slot = mergeable(later) ? lastOfRow.get(rows.get(0)) : null;
            Change earlier = slot == null ? null : slots.get(slot);
            switch (earlier == null || !mergeable(earlier) ? "" : earlier.change().op() + record.op()) {
                case "IU", "UU" -> {
                    if (!covers(later, earlier)) {
                        append(slots, lastOfRow, later);
                    } else {
                        // the row's last image, written as the earlier change wrote it (an insert stays an insert)
                        slots.set(slot, new Change(asOp(record, earlier.change().op()), later.shape()));
                    }
                }
                case "UD" -> slots.set(slot, later);
                case "ID" -> {
                    slots.set(slot, null);
                    lastOfRow.remove(rows.get(0));
                }
                default -> append(slots, lastOfRow, later);
            }
        }
        return slots.stream().filter(Objects::nonNull).toList();
    }

    private static void append(List<Change> slots, Map<String, Integer> lastOfRow, Change change) {
        for (String row : change.shape().rowsTouched()) {
            lastOfRow.put(row, slots.size());
        }
        slots.add(change);
    }

    /** An image-mode insert, update or delete of one key (an update that keeps its key). */
    private static boolean mergeable(Change c) {
        ChangeRecord change = c.change();
        return !change.reference() && c.shape().rowsTouched().size() == 1
                && ("D".equals(change.op()) || change.row() != null && ("I".equals(change.op()) || "U".equals(change.op())));
    }

    /** The later image sets every column the earlier one set. */
    private static boolean covers(Change later, Change earlier) {
        return later.shape().columns().containsAll(earlier.shape().columns());
    }

    private static ChangeRecord asOp(ChangeRecord update, String op) {
        return op.equals(update.op()) ? update
                : new ChangeRecord(update.position(), update.txid(), update.txEnd(), update.table(), op, false, update.key(), update.row(),
                        update.loggedAt(), update.mac(), update.fingerprint());
    }
}
