package io.oneway.capture;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads the messages of PostgreSQL's pgoutput plugin (protocol version 1, text values), as the
 * replication stream hands them over one at a time. It keeps the relations the stream described
 * (a Relation message comes before a table's first change in a session and after its columns
 * changed), so that each change comes out with its table's column names. Messages the reader
 * does not need (Relation, Type, Origin) come out as {@link Ignored}.
 */
final class PgOutputDecoder {

    /** A column value unchanged and not sent (a TOASTed value an update left alone); SQL NULL comes as null. */
    static final TextValue UNCHANGED = new TextValue(new byte[0], 0, 0);

    sealed interface Message permits Begin, Commit, RowChange, Ignored {
    }

    /** A transaction begins; finalLsn is the LSN of its commit, commitMicros its commit time (µs since 2000-01-01). */
    record Begin(long finalLsn, long commitMicros, long xid) implements Message {
    }

    record Commit(long commitLsn, long endLsn) implements Message {
    }

    /**
     * A row inserted (op I), updated (U) or deleted (D). oldRow: the old key (or the whole old row
     * under REPLICA IDENTITY FULL) when the stream sent it, else null; newRow: null for a delete.
     */
    record RowChange(Relation relation, char op, TextValue[] oldRow, TextValue[] newRow) implements Message {
    }

    record Ignored(char type) implements Message {
    }

    /** A table as the stream described it: its OID, schema, name, columns, and which of them form its replica identity (its primary key). */
    record Relation(int oid, String schema, String name, String[] columns, boolean[] key) {
    }

    private final Map<Integer, Relation> relations = new HashMap<>();

    Message decode(ByteBuffer b) {
        char type = (char) b.get();
        return switch (type) {
            case 'B' -> new Begin(b.getLong(), b.getLong(), Integer.toUnsignedLong(b.getInt()));
            case 'C' -> {
                b.get(); // flags, unused
                yield new Commit(b.getLong(), b.getLong());
            }
            case 'R' -> {
                Relation r = relation(b);
                relations.put(r.oid(), r);
                yield new Ignored(type);
            }
            case 'I' -> {
                Relation r = known(b.getInt());
                expect(b, 'N');
                yield new RowChange(r, 'I', null, tuple(b, r));
            }
            case 'U' -> {
                Relation r = known(b.getInt());
                char kind = (char) b.get();
                TextValue[] old = null;
                if (kind == 'K' || kind == 'O') {
                    old = tuple(b, r);
                    kind = (char) b.get();
                }
                if (kind != 'N') {
                    throw new IllegalStateException("pgoutput update of " + r.name() + " without a new row (got '" + kind + "')");
                }
                yield new RowChange(r, 'U', old, tuple(b, r));
            }
            case 'D' -> {
                Relation r = known(b.getInt());
                char kind = (char) b.get();
                if (kind != 'K' && kind != 'O') {
                    throw new IllegalStateException("pgoutput delete of " + r.name() + " without its key (got '" + kind + "')");
                }
                yield new RowChange(r, 'D', tuple(b, r), null);
            }
            default -> new Ignored(type);
        };
    }

    private Relation known(int oid) {
        Relation r = relations.get(oid);
        if (r == null) {
            throw new IllegalStateException("pgoutput sent a change of relation " + oid + " before describing it");
        }
        return r;
    }

    private static Relation relation(ByteBuffer b) {
        int oid = b.getInt();
        String schema = string(b);
        String name = string(b);
        b.get(); // replica identity setting: the default (the primary key), as enable_capture(t, 'wal') makes sure
        String[] columns = new String[b.getShort()];
        boolean[] key = new boolean[columns.length];
        for (int i = 0; i < columns.length; i++) {
            key[i] = (b.get() & 1) != 0;
            columns[i] = string(b);
            b.getInt(); // type OID: values are text forms, cast by the central database by its own column types
            b.getInt(); // type modifier
        }
        return new Relation(oid, schema, name, columns, key);
    }

    private static TextValue[] tuple(ByteBuffer b, Relation r) {
        int n = b.getShort();
        if (n != r.columns().length) {
            throw new IllegalStateException("pgoutput sent " + n + " values for " + r.name() + ", which has " + r.columns().length + " columns");
        }
        TextValue[] values = new TextValue[n];
        for (int i = 0; i < n; i++) {
            char kind = (char) b.get();
            values[i] = switch (kind) {
                case 'n' -> null;
                case 'u' -> UNCHANGED;
                case 't' -> {
                    int length = b.getInt();
                    TextValue text = new TextValue(b.array(), b.arrayOffset() + b.position(), length);
                    b.position(b.position() + length);
                    yield text;
                }
                default -> throw new IllegalStateException("pgoutput value kind '" + kind + "' is not text (binary mode is not asked for)");
            };
        }
        return values;
    }

    private static void expect(ByteBuffer b, char wanted) {
        char got = (char) b.get();
        if (got != wanted) {
            throw new IllegalStateException("pgoutput message: expected '" + wanted + "', got '" + got + "'");
        }
    }

    private static String string(ByteBuffer b) {
        int start = b.position();
        while (b.get() != 0) {
            // to the terminating zero byte
        }
        return new String(b.array(), b.arrayOffset() + start, b.position() - start - 1, StandardCharsets.UTF_8);
    }
}
