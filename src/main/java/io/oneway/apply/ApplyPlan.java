package io.oneway.apply;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;


import io.oneway.wire.ChangeRecord;

/**
 * Orders a run's net changes ({@link NetChanges}) for few round trips: every change of a row
 * keeps its place after the row's earlier changes (an update that changes a key counts for both
 * keys), and within that, changes with the same statement are batched together. A run commits
 * as one transaction, with triggers and foreign-key actions off (replica role), so the order of
 * changes of different rows inside it, and a row's images between its changes, are not visible
 * to anyone.
 */
final class ApplyPlan {

    /** Changes that share one statement, executed as one JDBC batch. */
    record Batch(String sql, List<ChangeRecord> changes) {
    }

    private ApplyPlan() {
    }

    /** @return the batches, in an order that keeps every row's changes in position order */
    static List<Batch> of(List<ChangeRecord> run, Statements catalog) throws SQLException, ApplyHaltException {
        Map<String, Integer> lastLayerOfRow = new HashMap<>();
        List<Map<String, List<ChangeRecord>>> layers = new ArrayList<>();
        for (NetChanges.Change net : NetChanges.of(run)) {
            ChangeRecord change = net.change();
            RowShape shape = net.shape();
            List<String> rows = shape.rowsTouched();
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
            layers.get(layer).computeIfAbsent(catalog.statement(change, shape), s -> new ArrayList<>()).add(change);
        }
        List<Batch> batches = new ArrayList<>();
        for (Map<String, List<ChangeRecord>> layer : layers) {
            layer.forEach((sql, changes) -> batches.add(new Batch(sql, changes)));
        }
        return batches;
    }

}
