package io.oneway.ops;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import javax.sql.DataSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.oneway.support.SqlScript;

/**
 * Compares replicated tables between a remote and the central database (SPEC §7 verify): row
 * counts and per-bucket digests of the rows' exact text forms in key order; where a bucket
 * differs, the rows are compared and the first differing keys named, with the differing columns.
 */
public final class Verifier {

    /** How many buckets of the key's hash a table is compared in; a repair reloads the buckets that differ. */
    public static final int BUCKETS = 64;
    private static final ObjectMapper JSON = new ObjectMapper();
    private final DataSource remote;
    private final DataSource central;
    private final int keysToName;

    public Verifier(DataSource remote, DataSource central, int keysToName) {
        this.remote = remote;
        this.central = central;
        this.keysToName = keysToName;
    }

    /**
     * The result for one table: equal when no bucket differs. {@code differingKeys} names the first
     * differing keys, {@code differingBuckets} all buckets that differ.
     */
    public record TableResult(String table, long remoteRows, long centralRows, List<String> differingKeys, List<Integer> differingBuckets) {
        public boolean equal() {
            return differingBuckets.isEmpty();
        }

        @Override
        public String toString() {
            return table + ": " + (equal() ? "equal" : "DIFFERENT") + " (remote " + remoteRows + " rows, central " + centralRows + " rows"
                    + (differingKeys.isEmpty() ? "" : "; first differing keys " + differingKeys) + ")";
        }
    }

    public List<TableResult> verify(List<String> tables) throws SQLException {
        List<TableResult> results = new ArrayList<>();
        for (String table : tables) {
            results.add(verify(table));
        }
        return results;
    }

    public TableResult verify(String table) throws SQLException {
        Map<Integer, Bucket> r = buckets(remote, table);
        Map<Integer, Bucket> c = buckets(central, table);
        Set<Integer> differing = new TreeSet<>();
        Set<Integer> all = new HashSet<>(r.keySet());
        all.addAll(c.keySet());
        for (Integer b : all) {
            Bucket rb = r.get(b);
            Bucket cb = c.get(b);
            if (rb == null || cb == null || !rb.equals(cb)) {
                differing.add(b);
            }
        }
        List<String> keys = differing.isEmpty() ? List.of() : differingKeys(table, differing);
        return new TableResult(table, count(r), count(c), keys, List.copyOf(differing));
    }

    private List<String> differingKeys(String table, Set<Integer> buckets) throws SQLException {
        Map<String, String> r = rows(remote, table, buckets);
        Map<String, String> c = rows(central, table, buckets);
        TreeSet<String> keys = new TreeSet<>(r.keySet());
        keys.addAll(c.keySet());
        List<String> out = new ArrayList<>();
        for (String k : keys) {
            if (!java.util.Objects.equals(r.get(k), c.get(k))) {
                out.add(k + (r.containsKey(k) ? c.containsKey(k) ? " (differs in " + differingColumns(r.get(k), c.get(k)) + ")" : " (missing on central)"
                        : " (only on central)"));
                if (out.size() == keysToName) {
                    break;
                }
            }
        }
        return out;
    }

    /** The columns whose text forms differ between two images of a row, or that only one has. */
    static String differingColumns(String remoteImage, String centralImage) {
        try {
            JsonNode r = JSON.readTree(remoteImage);
            JsonNode c = JSON.readTree(centralImage);
            Set<String> names = new TreeSet<>();
            r.fieldNames().forEachRemaining(names::add);
            c.fieldNames().forEachRemaining(names::add);
            List<String> differing = new ArrayList<>();
            for (String name : names) {
                if (!r.has(name)) {
                    differing.add(name + " only on central");
                } else if (!c.has(name)) {
                    differing.add(name + " missing on central");
                } else if (!r.get(name).equals(c.get(name))) {
                    differing.add(name);
                }
            }
            return String.join(", ", differing);
        } catch (IOException e) {
            throw new UncheckedIOException("a row image is not JSON", e);
        }
    }

    private record Bucket(long rows, String digest) {
    }

    private static Map<Integer, Bucket> buckets(DataSource ds, String table) throws SQLException {
        Map<Integer, Bucket> out = new HashMap<>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("shared/queries/verify-buckets.sql"))) {
            ps.setString(1, table);
            ps.setInt(2, BUCKETS);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getInt(1), new Bucket(rs.getLong(2), rs.getString(3)));
                }
            }
        }
        return out;
    }

    private static Map<String, String> rows(DataSource ds, String table, Set<Integer> buckets) throws SQLException {
        Map<String, String> out = new TreeMap<>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("shared/queries/verify-rows.sql"))) {
            Array wanted = c.createArrayOf("int4", buckets.toArray());
            ps.setString(1, table);
            ps.setInt(2, BUCKETS);
            ps.setArray(3, wanted);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return out;
    }

    private static long count(Map<Integer, Bucket> buckets) {
        return buckets.values().stream().mapToLong(Bucket::rows).sum();
    }
}
