package io.oneway.wire;

/**
 * One captured change as it travels: its position, its transaction, the table, the key and
 * row image as JSON text exactly as the remote database wrote them, and its integrity code.
 *
 * @param position  gapless per-source number (SPEC §3)
 * @param txid      source transaction id
 * @param txEnd     true on the last change of the transaction
 * @param table     schema-qualified table name as logged (quoted where needed)
 * @param op        I, U, D, or S for a schema change (the row then describes it, sql/remote/09-schema.sql), Q for a
 *                  sequence's value (sql/remote/10-sequences.sql), B, C, E for a snapshot's begin mark, chunk and end
 *                  mark (sql/remote/11-snapshot.sql)
 * @param reference true when the table is captured in reference mode: the row is the current
 *                  one, read when the message was built, and null when the row is gone since
 * @param key       primary key values, a JSON object (for U and D the key before the change)
 * @param row       the new row as a JSON object; null for D
 * @param loggedAt  when the change was made on the remote, ISO-8601
 * @param mac       HMAC-SHA256 of all the above with the source and incarnation, Base64
 */
public record ChangeRecord(long position, long txid, boolean txEnd, String table, String op, boolean reference, String key,
        String row, String loggedAt, String mac) {

    public ChangeRecord withMac(String newMac) {
        return new ChangeRecord(position, txid, txEnd, table, op, reference, key, row, loggedAt, newMac);
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
}
