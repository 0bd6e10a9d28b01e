package io.oneway.apply;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.oneway.wire.ChangeRecord;

/**
 * Orders a run of changes for few round trips: every change of a row keeps its place after
 * the row's earlier changes (an update that changes a key counts for both keys), and within
 * that, changes with the same statement are batched together. A run commits as one
 * transaction, with triggers and foreign-key actions off (replica role), so the order of
 * changes of different rows inside it is not visible to anyone.
 */
final class ApplyPlan {

    /** Changes that share one statement, executed as one JDBC batch. */
    record Batch(String sql, List<ChangeRecord> changes) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private ApplyPlan() {
    }

    /** @return the batches, in an order that keeps every row's changes in position order */
    static List<Batch> of(List<ChangeRecord> run, Statements catalog) throws SQLException, ApplyHaltException {
        Map<String, Integer> lastLayerOfRow = new HashMap<>();
        List<Map<String, List<ChangeRecord>>> layers = new ArrayList<>();
        for (ChangeRecord change : run) {
            List<String> rows = rowsTouched(change);
            int layer = 0;
            for (String row : rows) {
                layer = Math.max(layer, lastLayerOfRow.getOrDefault(row, -1) + 1);
            }
            for (String row : rows) {
                lastLayerOfRow.put(row, layer);
            }
            while (layers.size() <= layer) {
                layers.add(new LinkedHashMap<>());
            }
            layers.get(layer).computeIfAbsent(catalog.statement(change), s -> new ArrayList<>()).add(change);
        }
        List<Batch> batches = new ArrayList<>();
        for (Map<String, List<ChangeRecord>> layer : layers) {
            layer.forEach((sql, changes) -> batches.add(new Batch(sql, changes)));
        }
        return batches;
    }

    /** The row identities a change touches: its key, and for an update also the key in its new image. */
    private static List<String> rowsTouched(ChangeRecord change) throws ApplyHaltException {
        try {
            JsonNode key = JSON.readTree(change.key());
            String before = change.table() + '\u0000' + key;
            if (!"U".equals(change.op()) || change.row() == null) {
                return List.of(before);
            }
            JsonNode row = JSON.readTree(change.row());
            ObjectNode newKey = JSON.createObjectNode();
            key.fieldNames().forEachRemaining(f -> newKey.set(f, row.get(f)));
            String after = change.table() + '\u0000' + newKey;
            return after.equals(before) ? List.of(before) : List.of(before, after);
        } catch (IOException e) {
            throw new ApplyHaltException(change, "key or row is not valid JSON: " + e.getMessage());
        }
    }
}
