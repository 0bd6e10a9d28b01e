package io.oneway.wire;

import java.util.Objects;

/**
 * One captured change as it travels: its position, its transaction, the table, the key and
 * row image as JSON text exactly as the remote database wrote them, and its integrity code.
 *
 * @param position    gapless per-source number (SPEC §3)
 * @param txid        source transaction id
 * @param txEnd       true on the last change of the transaction
 * @param table       schema-qualified table name as logged (quoted where needed)
 * @param op          I, U, D, or S for a schema change (the row then describes it, sql/remote/09-schema.sql), Q for a
 *                    sequence's value (sql/remote/10-sequences.sql), B, C, E for a snapshot's begin mark, chunk and end
 *                    mark (sql/remote/11-snapshot.sql)
 * @param reference   true when the table is captured in reference mode: the row is the current
 *                    one, read when the message was built, and null when the row is gone since
 * @param key         primary key values, a JSON object (for U and D the key before the change)
 * @param row         the new row as a JSON object; null for D
 * @param loggedAt    when the change was made on the remote, ISO-8601
 * @param mac         HMAC-SHA256 over its fingerprint with the source and incarnation, Base64 ({@link MessageSigner})
 * @param fingerprint its {@link Fingerprint}, once computed from the fields above by {@link #fingerprinted()}, else
 *                    null: not a field of the change but the hash of its fields, kept so that the integrity code and
 *                    the digest share one hash of a change (never read from a message: each side computes its own)
 */
public record ChangeRecord(long position, long txid, boolean txEnd, String table, String op, boolean reference, String key,
        String row, String loggedAt, String mac, byte[] fingerprint) {

    private static final int HELD_OVERHEAD = 200;

    /** A change whose fingerprint is not computed yet. */
    public ChangeRecord(long position, long txid, boolean txEnd, String table, String op, boolean reference, String key,
            String row, String loggedAt, String mac) {
        this(position, txid, txEnd, table, op, reference, key, row, loggedAt, mac, null);
    }

    /**
     * Bytes the central side holds for it until it is applied: its key and row text and the objects around them. The
     * sender's window counts them and the receiver's parked changes are bounded by them, so a window of at most
     * oneway.apply.max-parked-bytes is held whole.
     */
    public long heldBytes() {
        return HELD_OVERHEAD + (key == null ? 0 : key.length()) + (row == null ? 0 : row.length());
    }

    public ChangeRecord withMac(String newMac) {
        return new ChangeRecord(position, txid, txEnd, table, op, reference, key, row, loggedAt, newMac, fingerprint);
    }

    /** The same change with its fingerprint computed (this one when it already has it). */
    public ChangeRecord fingerprinted() {
        return fingerprint != null ? this
                : new ChangeRecord(position, txid, txEnd, table, op, reference, key, row, loggedAt, mac, Fingerprint.compute(this));
    }

    /** A schema change of the table, not a change of a row. */
    public boolean schemaChange() {
        return "S".equals(op);
    }

    /** An insert, update or delete of one row. */
    public boolean rowChange() {
        return "I".equals(op) || "U".equals(op) || "D".equals(op);
    }

    /** A sequence's value, not a change of a row. */
    public boolean sequenceValue() {
        return "Q".equals(op);
    }

    /** How operators see a change in log lines: position, operation, table and key. */
    public String describe() {
        return "position " + position + " (" + op + " " + table + " " + key + ", transaction " + txid + ")";
    }

    /** Equal when the fields of the change are: the fingerprint is derived from them, computed or not. */
    @Override
    public boolean equals(Object o) {
        return o instanceof ChangeRecord c && position == c.position && txid == c.txid && txEnd == c.txEnd && reference == c.reference
                && Objects.equals(table, c.table) && Objects.equals(op, c.op) && Objects.equals(key, c.key) && Objects.equals(row, c.row)
                && Objects.equals(loggedAt, c.loggedAt) && Objects.equals(mac, c.mac);
    }

    @Override
    public int hashCode() {
        return Objects.hash(position, txid, txEnd, table, op, reference, key, row, loggedAt, mac);
    }
}
