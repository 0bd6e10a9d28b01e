package io.oneway.apply;

import java.io.IOException;
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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.oneway.support.SqlScript;
import io.oneway.wire.ChangeRecord;

/**
 * Applies a snapshot (sql/remote/11-snapshot.sql) at its place in the stream: the begin mark
 * makes the table's changes lenient, each chunk makes its key range (of its verify bucket) equal
 * its rows, leaving alone the rows it names as kept (those the remote has but a snapshot with a
 * condition does not reload); the end mark makes the table's changes strict again. Lenient: an insert or update
 * replaces whatever row has its key (or none), a delete of a missing row is nothing, because a
 * row no chunk has reloaded yet may be missing or stale here. The state is written in the apply
 * transaction, so it survives restarts exactly.
 */
public final class SnapshotLoader {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotLoader.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Rows or keys bound into one statement execution at most. */
    private static final int BATCH = 1000;
    private final TableCatalog catalog;

    public SnapshotLoader(TableCatalog catalog) {
        this.catalog = catalog;
    }

    /** The tables of this source whose snapshot runs, as logged (schema-qualified). */
    public Set<String> running(Connection c, String source) throws SQLException {
        Set<String> out = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/read-snapshots.sql"))) {
            ps.setString(1, source);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    /**
     * A change that is not applied as part of a batch: a snapshot mark or chunk, or a row change of
     * a table whose snapshot runs. {@code running} follows the marks.
     */
    public void apply(Connection c, String source, ChangeRecord change, Set<String> running) throws SQLException, ApplyHaltException {
        switch (change.op()) {
            case "B" -> begin(c, source, change, running);
            case "C" -> chunk(c, source, change);
            case "E" -> end(c, source, change, running);
            default -> applyLeniently(c, List.of(change));
        }
    }

    private void begin(Connection c, String source, ChangeRecord change, Set<String> running) throws SQLException, ApplyHaltException {
        catalog.quotedName(c, change);
        long rows = read(change).path("rows").asLong();
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/begin-snapshot.sql"))) {
            ps.setString(1, source);
            ps.setString(2, change.table());
            ps.setLong(3, change.position());
            ps.setLong(4, rows);
            ps.executeUpdate();
        }
        running.add(change.table());
        LOG.info("Source {}: snapshot of {} begins at position {} ({} rows): its changes are applied leniently until it ends",
                source, change.table(), change.position(), rows);
    }

    private void end(Connection c, String source, ChangeRecord change, Set<String> running) throws SQLException, ApplyHaltException {
        boolean cancelled = read(change).path("cancelled").asBoolean();
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/end-snapshot.sql"))) {
            ps.setString(1, source);
            ps.setString(2, change.table());
            ps.executeUpdate();
        }
        running.remove(change.table());
        if (cancelled) {
            LOG.warn("Source {}: snapshot of {} CANCELLED at position {}: rows not reloaded yet stay as they were; run verify", source,
                    change.table(), change.position());
        } else {
            LOG.info("Source {}: snapshot of {} complete at position {}", source, change.table(), change.position());
        }
    }

    private void chunk(Connection c, String source, ChangeRecord change) throws SQLException, ApplyHaltException {
        JsonNode chunk = read(change);
        List<String> keys = new ArrayList<>();
        chunk.path("keys").forEach(k -> keys.add(k.asText()));
        if (keys.isEmpty()) {
            throw new ApplyHaltException(change, "the snapshot chunk names no key columns");
        }
        JsonNode after = chunk.path("after");
        JsonNode through = chunk.path("through");
        boolean bucket = !chunk.path("buckets").isNull() && !chunk.path("buckets").isMissingNode();
        JsonNode kept = chunk.path("kept");
        JsonNode rows = chunk.path("rows");
        requireSortedAlike(c, change, keys, after, through, rows, kept);
        String delete = catalog.scopeDelete(c, change, keys, bucket, after.isObject(), through.isObject(), kept.isArray());
        int deleted;
        try (PreparedStatement ps = c.prepareStatement(delete)) {
            int p = 1;
            for (int k = 0; after.isObject() && k < keys.size(); k++) {
                ps.setString(p++, after.toString());
            }
            for (int k = 0; through.isObject() && k < keys.size(); k++) {
                ps.setString(p++, through.toString());
            }
            if (bucket) {
                ps.setInt(p++, chunk.path("buckets").asInt());
                ps.setInt(p++, chunk.path("bucket").asInt());
            }
            if (kept.isArray()) {
                ps.setString(p, kept.toString());
            }
            deleted = ps.executeUpdate();
        }
        if (rows.size() > 0) {
            ChangeRecord first = insertOf(change, keys, rows.get(0));
            try (PreparedStatement ps = c.prepareStatement(catalog.batchStatement(catalog.statement(c, first)))) {
                ps.setString(1, rows.toString());
                ps.executeUpdate();
            }
        }
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/count-snapshot-chunk.sql"))) {
            ps.setLong(1, rows.size());
            ps.setString(2, source);
            ps.setString(3, change.table());
            ps.executeUpdate();
        }
        LOG.debug("Source {}: snapshot chunk of {} at position {}: {} rows replaced {}", source, change.table(), change.position(),
                rows.size(), deleted);
    }

    /**
     * Row changes of tables whose snapshot runs, in position order: whatever row has a key they
     * touch goes, and the last image each key was given (if any) comes. Applied as one delete and
     * one insert per table (and row shape), as many changes as they are.
     */
    public void applyLeniently(Connection c, List<ChangeRecord> changes) throws SQLException, ApplyHaltException {
        Map<String, ChangeRecord> last = new LinkedHashMap<>();
        for (ChangeRecord change : changes) {
            String oldKey = normalized(change, change.key());
            last.put(change.table() + '\u0000' + oldKey, deletion(change, oldKey));
            if (change.row() != null && !"D".equals(change.op())) {
                JsonNode row = read(change);
                ObjectNode newKey = JSON.createObjectNode();
                RowShape.of(change).keyColumns().forEach(k -> newKey.set(k, row.get(k)));
                String key = change.table() + '\u0000' + newKey;
                last.remove(key);
                last.put(key, new ChangeRecord(change.position(), change.txid(), change.txEnd(), change.table(), "I", false,
                        newKey.toString(), change.row(), change.loggedAt(), null));
            }
        }
        Map<String, List<ChangeRecord>> deletes = new LinkedHashMap<>();
        Map<String, List<ChangeRecord>> inserts = new LinkedHashMap<>();
        for (ChangeRecord change : last.values()) {
            ChangeRecord delete = "D".equals(change.op()) ? change : deletion(change, change.key());
            deletes.computeIfAbsent(catalog.statement(c, delete), k -> new ArrayList<>()).add(delete);
            if ("I".equals(change.op())) {
                inserts.computeIfAbsent(catalog.statement(c, change), k -> new ArrayList<>()).add(change);
            }
        }
        execute(c, deletes);
        execute(c, inserts);
    }

    private void execute(Connection c, Map<String, List<ChangeRecord>> batches) throws SQLException {
        for (Map.Entry<String, List<ChangeRecord>> batch : batches.entrySet()) {
            List<ChangeRecord> all = batch.getValue();
            for (int from = 0; from < all.size(); from += BATCH) {
                List<ChangeRecord> part = all.subList(from, Math.min(all.size(), from + BATCH));
                try (PreparedStatement ps = c.prepareStatement(catalog.batchStatement(batch.getKey()))) {
                    List<String> params = TableCatalog.batchParameters(part);
                    for (int p = 0; p < params.size(); p++) {
                        ps.setString(p + 1, params.get(p));
                    }
                    ps.executeUpdate();
                }
            }
        }
    }

    private static ChangeRecord deletion(ChangeRecord change, String key) {
        return new ChangeRecord(change.position(), change.txid(), change.txEnd(), change.table(), "D", false, key, null, change.loggedAt(), null);
    }

    private static String normalized(ChangeRecord change, String json) throws ApplyHaltException {
        try {
            return JSON.readTree(json).toString();
        } catch (IOException e) {
            throw new ApplyHaltException(change, "the key is not valid JSON: " + e.getMessage());
        }
    }

    /**
     * The chunk's range is the remote's key order; the delete of its scope reads it in this database's order. Where the
     * two differ (a text key collated differently, an enum whose labels are ordered otherwise), a key of this chunk falls
     * outside the range here, and rows of other chunks inside it: the delete would remove rows other chunks brought. So
     * every key of the chunk must sort inside its range here, or the source halts before anything of it is applied.
     */
    private void requireSortedAlike(Connection c, ChangeRecord change, List<String> keys, JsonNode after, JsonNode through, JsonNode rows,
            JsonNode kept) throws SQLException, ApplyHaltException {
        ArrayNode chunkKeys = JSON.createArrayNode();
        rows.forEach(row -> {
            ObjectNode key = chunkKeys.addObject();
            keys.forEach(k -> key.set(k, row.get(k)));
        });
        kept.forEach(chunkKeys::add);
        if (chunkKeys.isEmpty() || !(after.isObject() || through.isObject())) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(catalog.scopeOutsider(c, change, keys, after.isObject(), through.isObject()))) {
            int p = 1;
            ps.setString(p++, chunkKeys.toString());
            for (JsonNode bound : List.of(after, through)) {
                for (int k = 0; bound.isObject() && k < keys.size(); k++) {
                    ps.setString(p++, bound.toString());
                }
            }
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    throw new ApplyHaltException(change, "the snapshot chunk of " + change.table() + " holds the key " + rs.getString(1)
                            + ", which this database does not sort " + (after.isObject() ? "after " + after : "")
                            + (after.isObject() && through.isObject() ? " and " : "") + (through.isObject() ? "at or before " + through : "")
                            + ", as the remote did: the key columns sort differently here (their collations here: "
                            + catalog.keyCollations(c, change, keys) + "), and the chunk's range would delete rows other chunks brought. "
                            + "Nothing of it is applied. Make the central key columns sort as the remote's (the same collation: "
                            + "alter table ... alter column ... type ... collate ...), then ./oneway resume");
                }
            }
        }
    }

    private static ChangeRecord insertOf(ChangeRecord chunk, List<String> keys, JsonNode row) {
        ObjectNode key = JSON.createObjectNode();
        keys.forEach(k -> key.set(k, row.get(k)));
        return new ChangeRecord(chunk.position(), chunk.txid(), chunk.txEnd(), chunk.table(), "I", false, key.toString(), row.toString(),
                chunk.loggedAt(), null);
    }

    private static JsonNode read(ChangeRecord change) throws ApplyHaltException {
        try {
            JsonNode node = change.row() == null ? null : JSON.readTree(change.row());
            if (node == null || !node.isObject()) {
                throw new ApplyHaltException(change, "the " + change.op() + " change carries no JSON object");
            }
            return node;
        } catch (IOException e) {
            throw new ApplyHaltException(change, "the " + change.op() + " change is not valid JSON: " + e.getMessage());
        }
    }
}
