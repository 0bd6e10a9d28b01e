package io.oneway.apply;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import javax.sql.DataSource;


import io.oneway.support.SqlScript;
import io.oneway.wire.ChangeRecord;

/**
 * Generates the apply statement of a change: only for tables the configuration lists, with
 * table and column names taken from the central catalogue and quoted, and every value bound
 * (the row and key travel as one JSON parameter that {@code jsonb_populate_record} turns into
 * typed columns of the target table).
 */
public final class TableCatalog implements Statements {

    private final DataSource central;
    private final List<String> configuredTables;
    private final Map<String, Table> byLoggedName = new ConcurrentHashMap<>();
    private final Map<String, String> statements = new ConcurrentHashMap<>();
    private final Map<String, String> batchStatements = new ConcurrentHashMap<>();
    private volatile Set<Long> allowed;

    /** @param configuredTables oneway.apply.tables: comma-separated, schema-qualified names of the tables that may be written */
    public TableCatalog(DataSource central, String configuredTables) {
        this(central, java.util.Arrays.stream(configuredTables.split(",")).map(String::trim).filter(t -> !t.isEmpty()).toList());
    }

    /** @param configuredTables the tables that may be written, schema-qualified */
    public TableCatalog(DataSource central, List<String> configuredTables) {
        this.central = central;
        this.configuredTables = List.copyOf(configuredTables);
    }

    /** The statement text for a change; its parameters are {@link #parameters(ChangeRecord)}. */
    public String statement(ChangeRecord change) throws ApplyHaltException, SQLException {
        return statement(change, RowShape.of(change));
    }

    @Override
    public String statement(ChangeRecord change, RowShape shape) throws ApplyHaltException, SQLException {
        Table table = table(change);
        List<String> columns = shape.columns();
        List<String> keys = shape.keyColumns();
        String cacheKey = table.quotedName + '\u0000' + change.op() + '\u0000' + columns + '\u0000' + keys;
        String sql = statements.get(cacheKey);
        if (sql == null) {
            for (String column : columns) {
                if (!table.columns.contains(column)) {
                    throw new ApplyHaltException(change, "column \"" + column + "\" of the row image is not a writable column of "
                            + table.quotedName + " on the central database");
                }
            }
            for (String key : keys) {
                if (!table.allColumns.contains(key)) {
                    throw new ApplyHaltException(change, "key column \"" + key + "\" does not exist in " + table.quotedName);
                }
            }
            sql = generate(table.quotedName, change.op(), quoted(columns), quoted(keys));
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

    static String generate(String table, String op, String columns, String keys) {
        String record = "jsonb_populate_record(null::" + table + ", ?::jsonb)";
        return switch (op) {
            case "I" -> "insert into " + table + " (" + columns + ") select " + columns + " from " + record;
            case "U" -> "update " + table + " set (" + columns + ") = (select " + columns + " from " + record + ") where ("
                    + keys + ") = (select " + keys + " from " + record + ")";
            case "D" -> "delete from " + table + " where (" + keys + ") = (select " + keys + " from " + record + ")";
            default -> throw new IllegalArgumentException("operation " + op);
        };
    }

    static String generateBatch(String table, String op, List<String> columns, List<String> keys) {
        String keysMatch = "(" + qualified("t", keys) + ") = (" + qualified("k", keys) + ")";
        return switch (op) {
            case "I" -> "insert into " + table + " (" + quoted(columns) + ") select " + quoted(columns)
                    + " from jsonb_populate_recordset(null::" + table + ", ?::jsonb)";
            case "U" -> "update " + table + " t set (" + quoted(columns) + ") = row(" + qualified("r", columns) + ")"
                    + " from rows from (jsonb_array_elements(?::jsonb), jsonb_array_elements(?::jsonb)) as x(new_row, old_key)"
                    + " cross join lateral jsonb_populate_record(null::" + table + ", x.new_row) r"
                    + " cross join lateral jsonb_populate_record(null::" + table + ", x.old_key) k where " + keysMatch;
            case "D" -> "delete from " + table + " t using jsonb_populate_recordset(null::" + table + ", ?::jsonb) k where " + keysMatch;
            default -> throw new IllegalArgumentException("operation " + op);
        };
    }

    private static String qualified(String alias, List<String> names) {
        List<String> q = new ArrayList<>(names.size());
        for (String n : names) {
            q.add(alias + "." + quote(n));
        }
        return String.join(", ", q);
    }

    /** A double-quoted SQL identifier; embedded quotes are doubled. */
    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    private static String quoted(List<String> names) {
        List<String> q = new ArrayList<>(names.size());
        for (String n : names) {
            q.add(quote(n));
        }
        return String.join(", ", q);
    }

    private Table table(ChangeRecord change) throws ApplyHaltException, SQLException {
        Table t = byLoggedName.get(change.table());
        if (t == null) {
            t = load(change);
            byLoggedName.put(change.table(), t);
        }
        return t;
    }

    private Table load(ChangeRecord change) throws ApplyHaltException, SQLException {
        try (Connection c = central.getConnection()) {
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
                    Set<String> writable = new HashSet<>();
                    Set<String> all = new HashSet<>();
                    while (rs.next()) {
                        name = quote(rs.getString("schema_name")) + "." + quote(rs.getString("table_name"));
                        all.add(rs.getString("column_name"));
                        if (!rs.getBoolean("generated")) {
                            writable.add(rs.getString("column_name"));
                        }
                    }
                    return new Table(name, Set.copyOf(writable), Set.copyOf(all));
                }
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

    private record Table(String quotedName, Set<String> columns, Set<String> allColumns) {
    }
}
