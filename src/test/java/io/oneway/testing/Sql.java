package io.oneway.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

/** Small JDBC helpers for tests: run a statement, read rows as maps. */
public final class Sql {

    private Sql() {
    }

    public static void exec(DataSource ds, String sql, Object... args) {
        try (Connection c = ds.getConnection()) {
            exec(c, sql, args);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    public static void exec(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            ps.execute();
        }
    }

    /** Runs statements in one database session with a repair session open, as an operator mending the central database would. */
    public static void repair(DataSource ds, String reason, String... statements) {
        try (Connection c = ds.getConnection()) {
            exec(c, "select oneway.begin_repair(?)", reason);
            for (String statement : statements) {
                exec(c, statement);
            }
            exec(c, "select oneway.end_repair()");
        } catch (SQLException e) {
            throw new IllegalStateException(String.join("; ", statements) + ": " + e.getMessage(), e);
        }
    }

    public static List<Map<String, Object>> rows(DataSource ds, String sql, Object... args) {
        try (Connection c = ds.getConnection()) {
            return rows(c, sql, args);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    public static List<Map<String, Object>> rows(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                List<Map<String, Object>> out = new ArrayList<>();
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 1; i <= n; i++) {
                        row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
                    }
                    out.add(row);
                }
                return out;
            }
        }
    }

    public static Object value(DataSource ds, String sql, Object... args) {
        List<Map<String, Object>> rows = rows(ds, sql, args);
        if (rows.size() != 1) {
            throw new IllegalStateException(sql + " returned " + rows.size() + " rows, expected 1");
        }
        return rows.get(0).values().iterator().next();
    }

    public static long number(DataSource ds, String sql, Object... args) {
        return ((Number) value(ds, sql, args)).longValue();
    }

    /** The server process of a session: how PostgreSQL names it in pg_stat_activity and in lock waits. */
    public static int backendPid(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select pg_backend_pid()"); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static void bind(PreparedStatement ps, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            ps.setObject(i + 1, args[i]);
        }
    }
}
