package io.oneway.apply;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;



import io.oneway.support.SqlScript;
import io.oneway.wire.ChangeRecord;

/**
 * Generates the apply statement of a change: only for tables the configuration lists, with
 * table and column names taken from the central catalogue and quoted, and every value bound.
 * The row and key travel as one JSON parameter each, of text forms (shared/text-forms.sql):
 * each is cast back by the central column's own type, so a value round-trips exactly and a JSON
 * null stays distinct from SQL NULL. Generated columns are computed by the central database; an
 * identity column GENERATED ALWAYS keeps the remote's value (OVERRIDING SYSTEM VALUE).
 */
public final class TableCatalog {

    private final List<String> configuredTables;
    private final Map<String, Table> byLoggedName = new ConcurrentHashMap<>();
    /** By table, operation and columns: a list of them, not their text (made per change, that was a twentieth of the applier's CPU). */
    private final Map<List<Object>, String> statements = new ConcurrentHashMap<>();
    private final Map<String, String> batchStatements = new ConcurrentHashMap<>();
    private volatile Set<Long> allowed;

    /** A column of a central table as the applier needs it. */
    /** @param collation the collation the column sorts by, quoted and qualified; null for a type that has none */
    record Column(String name, String type, boolean generated, boolean identityAlways, String collation) {
        Column(String name, String type, boolean generated, boolean identityAlways) {
            this(name, type, generated, identityAlways, null);
        }

        /** The text form in JSON object {@code alias}, cast to this column's type. */
        String cast(String alias) {
            return "(" + alias + " ->> " + literal(name) + ")::" + type;
        }

        /** As {@link #cast}, sorting as the column does (a cast alone sorts by the database's collation). */
        String sortable(String alias) {
            return collation == null ? cast(alias) : "(" + cast(alias) + " collate " + collation + ")";
        }
    }

    /** @param configuredTables oneway.apply.tables: comma-separated, schema-qualified names of the tables that may be written */
    public TableCatalog(String configuredTables) {
        this(java.util.Arrays.stream(configuredTables.split(",")).map(String::trim).filter(t -> !t.isEmpty()).toList());
    }

    /** @param configuredTables the tables that may be written, schema-qualified */
    public TableCatalog(List<String> configuredTables) {
        this.configuredTables = List.copyOf(configuredTables);
    }

    /** Forget what was read from the catalogue (after a schema change, or a resume once an operator fixed one). */
    public void forget() {
        byLoggedName.clear();
        statements.clear();
        batchStatements.clear();
        allowed = null;
    }

    /**
     * The statement text for a change; its parameters are {@link #parameters(ChangeRecord)}. The
     * catalogue is read through {@code c}, the apply transaction's connection, so that a schema
     * change applied earlier in the same transaction is seen.
     */
    public String statement(Connection c, ChangeRecord change) throws ApplyHaltException, SQLException {
        return statement(c, change, RowShape.of(change));
    }

    /** The statement text for a change whose key and row read as {@code shape}. */
    public String statement(Connection c, ChangeRecord change, RowShape shape) throws ApplyHaltException, SQLException {
        Table table = table(c, change);
        List<Object> cacheKey = List.of(table.quotedName, change.op(), shape.columns(), shape.keyColumns());
        String sql = statements.get(cacheKey);
        if (sql == null) {
            List<Column> columns = new ArrayList<>();
            for (String name : shape.columns()) {
                Column column = table.columns.get(name);
                if (column == null) {
                    throw new ApplyHaltException(change, "column \"" + name + "\" of the row image does not exist in " + table.quotedName
                            + " on the central database: the remote table has a column this one lacks");
                }
                if (column.generated()) {
                    throw new ApplyHaltException(change, "column \"" + name + "\" of " + table.quotedName + " is generated on the central "
                            + "database but not on the remote: define it the same way on both sides");
                }
                columns.add(column);
            }
            List<Column> keys = new ArrayList<>();
            for (String name : shape.keyColumns()) {
                Column column = table.columns.get(name);
                if (column == null) {
                    throw new ApplyHaltException(change, "key column \"" + name + "\" does not exist in " + table.quotedName);
                }
                keys.add(column);
            }
            sql = generate(table.quotedName, change.op(), columns, keys);
            batchStatements.put(sql, generateBatch(table.quotedName, change.op(), columns, keys));
            statements.put(cacheKey, sql);
        }
        return sql;
    }

    /**
     * The statement that applies, in one execution, a batch of changes of different rows that all
     * have {@code statement} as their {@link #statement(ChangeRecord)}; its parameters are
     * {@link #batchParameters(List)}. It reports one row per change when the databases agree.
     */
    public String batchStatement(String statement) {
        return batchStatements.get(statement);
    }

    /**
     * The statement that deletes a snapshot chunk's scope (sql/remote/11-snapshot.sql): the rows
     * whose key is above {@code after} and at most {@code through}, and when {@code bucket}, in
     * one bucket of verify's hash of the key's text form (sql/shared/verify.sql), and when
     * {@code kept}, not among the given keys. Its parameters, in order and only those asked for:
     * the after key and the through key (a JSON key image each, bound once per key column: each
     * column's bound is a parameter of its own, so that the bounds are index conditions and a
     * range scan of the key's index does the work, not a scan of the table per chunk), the bucket
     * count and the bucket (integers), the kept keys (a JSON array of key images).
     */
    public String scopeDelete(Connection c, ChangeRecord change, List<String> keyColumns, boolean bucket, boolean after, boolean through,
            boolean kept) throws ApplyHaltException, SQLException {
        Table table = table(c, change);
        List<Object> cacheKey = List.of(table.quotedName, "scope", keyColumns, bucket, after, through, kept);
        String sql = statements.get(cacheKey);
        if (sql == null) {
            List<Column> keys = keyColumns(table, change, keyColumns);
            StringBuilder where = new StringBuilder("true");
            if (after) {
                where.append(" and (").append(names(keys, "t.")).append(") > (").append(casts(keys, "(?::jsonb)")).append(")");
            }
            if (through) {
                where.append(" and (").append(names(keys, "t.")).append(") <= (").append(casts(keys, "(?::jsonb)")).append(")");
            }
            // after the bounds, as the parameters come (a bucket's condition first took the bounds' parameters: a repair whose
            // bucket needed more than one chunk halted the source with "cannot cast type integer to jsonb")
            if (bucket) {
                where.append(" and (abs(hashtext(").append(keyImage(keys)).append("::text)::bigint) % ?::int)::int = ?::int");
            }
            if (kept) {
                where.append(" and not exists (select from jsonb_array_elements(?::jsonb) as x(k) where (").append(names(keys, "t."))
                        .append(") = (").append(casts(keys, "x.k")).append("))");
            }
            sql = "delete from " + table.quotedName + " t where " + where;
            statements.put(cacheKey, sql);
        }
        return sql;
    }

    /**
     * The statement that finds a key of a snapshot chunk that this database does not sort inside the chunk's range (above
     * {@code after}, at most {@code through}) as the remote did, by the key columns' own types and collations; its
     * parameters: the keys (a JSON array of objects holding at least the key columns), then the bounds as in
     * {@link #scopeDelete}. It returns the first such key and each key column's collation, or no row.
     */
    public String scopeOutsider(Connection c, ChangeRecord change, List<String> keyColumns, boolean after, boolean through)
            throws ApplyHaltException, SQLException {
        Table table = table(c, change);
        List<Object> cacheKey = List.of(table.quotedName, "outsider", keyColumns, after, through);
        String sql = statements.get(cacheKey);
        if (sql == null) {
            List<Column> keys = keyColumns(table, change, keyColumns);
            List<String> outside = new ArrayList<>();
            if (after) {
                outside.add("not ((" + sortables(keys, "x.k") + ") > (" + sortables(keys, "(?::jsonb)") + "))");
            }
            if (through) {
                outside.add("not ((" + sortables(keys, "x.k") + ") <= (" + sortables(keys, "(?::jsonb)") + "))");
            }
            sql = "select x.k::text from jsonb_array_elements(?::jsonb) as x(k) where " + (outside.isEmpty() ? "false" : String.join(" or ", outside))
                    + " limit 1";
            statements.put(cacheKey, sql);
        }
        return sql;
    }

    /** The collations the key columns sort by here, for a message ("id: none, name: pg_catalog.\"en-x-icu\""). */
    public String keyCollations(Connection c, ChangeRecord change, List<String> keyColumns) throws ApplyHaltException, SQLException {
        List<String> out = new ArrayList<>();
        for (Column k : keyColumns(table(c, change), change, keyColumns)) {
            out.add(k.name() + ": " + (k.collation() == null ? "none" : k.collation()));
        }
        return String.join(", ", out);
    }

    private static List<Column> keyColumns(Table table, ChangeRecord change, List<String> names) throws ApplyHaltException {
        List<Column> keys = new ArrayList<>();
        for (String name : names) {
            Column column = table.columns.get(name);
            if (column == null) {
                throw new ApplyHaltException(change, "key column \"" + name + "\" of the snapshot does not exist in " + table.quotedName);
            }
            keys.add(column);
        }
        return keys;
    }

    /** The text-form image of the key, made as the remote makes it (sql/shared/text-forms.sql, image_expression). */
    private static String keyImage(List<Column> keys) {
        List<String> parts = new ArrayList<>();
        for (int from = 0; from < keys.size(); from += 50) {
            List<String> pairs = new ArrayList<>();
            for (Column k : keys.subList(from, Math.min(keys.size(), from + 50))) {
                pairs.add(literal(k.name()) + ", t." + quote(k.name()) + "::text");
            }
            parts.add("jsonb_build_object(" + String.join(", ", pairs) + ")");
        }
        return "(" + String.join(" || ", parts) + ")";
    }

    /** The bound values of {@link #batchStatement(String)}: JSON arrays of the rows and keys of the batch. */
    public static List<String> batchParameters(List<ChangeRecord> batch) {
        String op = batch.get(0).op();
        StringBuilder rows = new StringBuilder("[");
        StringBuilder keys = new StringBuilder("[");
        for (ChangeRecord change : batch) {
            if (!"D".equals(op)) {
                rows.append(rows.length() > 1 ? "," : "").append(change.row());
            }
            if (!"I".equals(op)) {
                keys.append(keys.length() > 1 ? "," : "").append(change.key());
            }
        }
        rows.append(']');
        keys.append(']');
        return switch (op) {
            case "I" -> List.of(rows.toString());
            case "U" -> List.of(rows.toString(), keys.toString());
            default -> List.of(keys.toString());
        };
    }

    /** The bound values of {@link #statement(ChangeRecord)}, in order. */
    public static List<String> parameters(ChangeRecord change) {
        return switch (change.op()) {
            case "I" -> List.of(change.row());
            case "U" -> List.of(change.row(), change.key());
            default -> List.of(change.key());
        };
    }

    static String generate(String table, String op, List<Column> columns, List<Column> keys) {
        return switch (op) {
            case "I" -> insert(table, columns) + " from (select ?::jsonb as r) n";
            case "U" -> update(table, columns) + " from (select ?::jsonb as r, ?::jsonb as k) n where " + keysMatch(keys);
            case "D" -> "delete from " + table + " t using (select ?::jsonb as k) n where " + keysMatch(keys);
            default -> throw new IllegalArgumentException("operation " + op);
        };
    }

    /**
     * The arrays come as json and each element is made jsonb on its own (offset 0: once, not once
     * per column read from it): jsonb input of a whole array took three times as long as of its
     * elements one by one.
     */
    static String generateBatch(String table, String op, List<Column> columns, List<Column> keys) {
        return switch (op) {
            case "I" -> insert(table, columns) + " from (select x.r::jsonb as r from json_array_elements(?::json) as x(r) offset 0) n";
            case "U" -> update(table, columns) + " from (select x.r::jsonb as r, x.k::jsonb as k"
                    + " from rows from (json_array_elements(?::json), json_array_elements(?::json)) as x(r, k) offset 0) n"
                    + " where " + keysMatch(keys);
            case "D" -> "delete from " + table + " t using (select x.k::jsonb as k from json_array_elements(?::json) as x(k) offset 0) n"
                    + " where " + keysMatch(keys);
            default -> throw new IllegalArgumentException("operation " + op);
        };
    }

    private static String insert(String table, List<Column> columns) {
        boolean overriding = columns.stream().anyMatch(Column::identityAlways);
        return "insert into " + table + " (" + names(columns, "") + ")" + (overriding ? " overriding system value" : "") + " select "
                + casts(columns, "n.r");
    }

    /** An identity column GENERATED ALWAYS cannot be set by an update (nor could the remote have changed it). */
    private static String update(String table, List<Column> columns) {
        List<Column> set = columns.stream().filter(c -> !c.identityAlways()).toList();
        return "update " + table + " t set (" + names(set, "") + ") = row(" + casts(set, "n.r") + ")";
    }

    private static String keysMatch(List<Column> keys) {
        return "(" + names(keys, "t.") + ") = (" + casts(keys, "n.k") + ")";
    }

    private static String names(List<Column> columns, String prefix) {
        List<String> q = new ArrayList<>(columns.size());
        for (Column c : columns) {
            q.add(prefix + quote(c.name()));
        }
        return String.join(", ", q);
    }

    private static String sortables(List<Column> columns, String alias) {
        List<String> q = new ArrayList<>(columns.size());
        for (Column c : columns) {
            q.add(c.sortable(alias));
        }
        return String.join(", ", q);
    }

    private static String casts(List<Column> columns, String alias) {
        List<String> q = new ArrayList<>(columns.size());
        for (Column c : columns) {
            q.add(c.cast(alias));
        }
        return String.join(", ", q);
    }

    /** A double-quoted SQL identifier; embedded quotes are doubled. */
    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /** A single-quoted SQL string literal; embedded quotes are doubled (standard_conforming_strings is on since PostgreSQL 9.1). */
    static String literal(String text) {
        return '\'' + text.replace("'", "''") + '\'';
    }

    /**
     * The quoted name of a replicated table, as the central catalogue knows it through {@code c}.
     * @throws ApplyHaltException when it is not listed in oneway.apply.tables, or missing
     */
    public String quotedName(Connection c, ChangeRecord change) throws ApplyHaltException, SQLException {
        return table(c, change).quotedName;
    }

    private Table table(Connection c, ChangeRecord change) throws ApplyHaltException, SQLException {
        Table t = byLoggedName.get(change.table());
        if (t == null) {
            t = load(c, change);
            byLoggedName.put(change.table(), t);
        }
        return t;
    }

    private Table load(Connection c, ChangeRecord change) throws ApplyHaltException, SQLException {
        Set<Long> allowedOids = allowed(c);
        Long oid = oid(c, change.table());
        if (oid == null || !allowedOids.contains(oid)) {
            throw new ApplyHaltException(change, "table " + change.table() + " is not replicated to this central database "
                    + "(not listed in oneway.apply.tables, or missing)");
        }
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/table-columns.sql"))) {
            ps.setLong(1, oid);
            try (ResultSet rs = ps.executeQuery()) {
                String name = null;
                Map<String, Column> columns = new LinkedHashMap<>();
                while (rs.next()) {
                    name = quote(rs.getString("schema_name")) + "." + quote(rs.getString("table_name"));
                    columns.put(rs.getString("column_name"), new Column(rs.getString("column_name"), rs.getString("type_name"),
                            rs.getBoolean("generated"), rs.getBoolean("identity_always"), rs.getString("collation_name")));
                }
                return new Table(name, Map.copyOf(columns));
            }
        }
    }

    private Set<Long> allowed(Connection c) throws SQLException {
        Set<Long> a = allowed;
        if (a == null) {
            Set<Long> oids = new HashSet<>();
            for (String name : configuredTables) {
                Long oid = oid(c, name);
                if (oid == null) {
                    throw new SQLException("table " + name + " of oneway.apply.tables does not exist on the central database", "42P01");
                }
                oids.add(oid);
            }
            a = Set.copyOf(oids);
            allowed = a;
        }
        return a;
    }

    private static Long oid(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/resolve-table.sql"))) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? (Long) rs.getObject(1) : null;
            }
        } catch (SQLException e) {
            // 42602 invalid name, 3F000 unknown schema, 22xxx: not a name that can denote a table
            String state = String.valueOf(e.getSQLState());
            if (state.startsWith("42") || state.startsWith("3F") || state.startsWith("22")) {
                return null;
            }
            throw e;
        }
    }

    private record Table(String quotedName, Map<String, Column> columns) {
    }
}
