package io.oneway.apply;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.oneway.wire.ChangeRecord;

/**
 * What the applier needs of a change's key and row, read in one pass over each: the row's
 * columns and the key's columns (which choose the statement), and the identities of the rows
 * the change touches (which order it within a run): its key, and for an update also the key
 * in its new image.
 */
record RowShape(List<String> columns, List<String> keyColumns, List<String> rowsTouched) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static RowShape of(ChangeRecord change) throws ApplyHaltException {
        try {
            Map<String, JsonNode> keyValues = new LinkedHashMap<>();
            List<String> keyColumns = read(change, change.key(), null, keyValues);
            String before = identity(change, keyColumns, keyValues);
            if (change.row() == null) {
                return new RowShape(List.of(), keyColumns, List.of(before));
            }
            boolean update = "U".equals(change.op());
            Map<String, JsonNode> newKeyValues = new HashMap<>();
            List<String> columns = read(change, change.row(), update ? keyColumns : List.of(), newKeyValues);
            if (!update) {
                return new RowShape(columns, keyColumns, List.of(before));
            }
            String after = identity(change, keyColumns, newKeyValues);
            return new RowShape(columns, keyColumns, after.equals(before) ? List.of(before) : List.of(before, after));
        } catch (IOException e) {
            throw new ApplyHaltException(change, "key or row is not valid JSON: " + e.getMessage());
        }
    }

    /** The table and the key values, in the key's column order, as one comparable string. */
    private static String identity(ChangeRecord change, List<String> keyColumns, Map<String, JsonNode> values) {
        ObjectNode key = JSON.createObjectNode();
        keyColumns.forEach(k -> key.set(k, values.get(k)));
        return change.table() + '\u0000' + key;
    }

    /**
     * The field names of a JSON object, in order; the values of the {@code wanted} fields (all,
     * when null) go into {@code values}, the others are skipped unread.
     */
    private static List<String> read(ChangeRecord change, String json, List<String> wanted, Map<String, JsonNode> values)
            throws IOException, ApplyHaltException {
        List<String> names = new ArrayList<>();
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new ApplyHaltException(change, "row or key is not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                names.add(name);
                p.nextToken();
                if (wanted == null || wanted.contains(name)) {
                    values.put(name, JSON.readTree(p));
                } else {
                    p.skipChildren();
                }
            }
        }
        if (names.isEmpty()) {
            throw new ApplyHaltException(change, "row or key has no columns");
        }
        return names;
    }
}
