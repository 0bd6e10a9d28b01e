package io.oneway.ops;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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

    /**
     * What an operator must know before reading verify's results, or empty: when the databases' encodings differ, rows
     * are still compared by their UTF-8 text, but a key holding text outside ASCII has its bucket (the hash of its text
     * in the database's encoding) differ between the sides.
     */
    public Optional<String> encodingNote() throws SQLException {
        String r = encoding(remote);
        String c = encoding(central);
        return r.equals(c) ? Optional.empty() : Optional.of("note: the databases' encodings differ (remote " + r + ", central " + c
                + "): rows are compared by their UTF-8 text, but a row whose key holds text outside ASCII falls in another bucket on "
                + "each side, so its buckets show as differing without a differing key named, and --repair reloads them every time");
    }

    private static String encoding(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("shared/queries/read-encoding.sql"));
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getString(1);
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

    /**
     * The first differing keys in the buckets that differ, both sides' rows read side by side in key order (a table that
     * differs in every row costs no more memory than one that differs in one), then the images of those that differ in
     * content, to name their columns.
     */
    private List<String> differingKeys(String table, Set<Integer> buckets) throws SQLException {
        Map<String, String> found = new LinkedHashMap<>();
        try (KeyOrderedRows r = new KeyOrderedRows(remote, table, BUCKETS, buckets);
                KeyOrderedRows c = new KeyOrderedRows(central, table, BUCKETS, buckets)) {
            while (found.size() < keysToName && (r.key() != null || c.key() != null)) {
                int order = r.key() == null ? 1 : c.key() == null ? -1 : KeyOrderedRows.KEY_ORDER.compare(r.key(), c.key());
                if (order < 0) {
                    found.put(r.key(), "missing on central");
                    r.next();
                } else if (order > 0) {
                    found.put(c.key(), "only on central");
                    c.next();
                } else {
                    if (!r.digest().equals(c.digest())) {
                        found.put(r.key(), null);
                    }
                    r.next();
                    c.next();
                }
            }
        }
        List<String> differ = found.keySet().stream().filter(k -> found.get(k) == null).toList();
        Map<String, String> r = differ.isEmpty() ? Map.of() : images(remote, table, differ);
        Map<String, String> c = differ.isEmpty() ? Map.of() : images(central, table, differ);
        List<String> out = new ArrayList<>();
        found.forEach((key, note) -> out.add(key + " (" + (note != null ? note : differsIn(r.get(key), c.get(key))) + ")"));
        return out;
    }

    /** What differs in a row that both sides hold, read again to name its columns (written meanwhile: gone from a side). */
    private static String differsIn(String remoteImage, String centralImage) {
        return remoteImage == null || centralImage == null ? "differs, and changed while verify read it"
                : "differs in " + differingColumns(remoteImage, centralImage);
    }

    private static Map<String, String> images(DataSource ds, String table, List<String> keys) throws SQLException {
        Map<String, String> out = new HashMap<>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(SqlScript.load("shared/queries/verify-images.sql"))) {
            ps.setArray(1, c.createArrayOf("text", keys.toArray()));
            ps.setString(2, table);
            ps.setInt(3, BUCKETS);
            ps.setInt(4, BUCKETS);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getString(2));
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

    private static long count(Map<Integer, Bucket> buckets) {
        return buckets.values().stream().mapToLong(Bucket::rows).sum();
    }
}
