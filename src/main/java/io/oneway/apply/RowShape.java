package io.oneway.apply;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.oneway.wire.ChangeRecord;

/**
 * What the applier needs of a change's key and row, read in one pass over each: the row's
 * columns and the key's columns (which choose the statement), and the identities of the rows
 * the change touches (which order it within a run): its key, and for an update also the key
 * in its new image.
 */
record RowShape(List<String> columns, List<String> keyColumns, List<String> rowsTouched) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NULL = "n";

    static RowShape of(ChangeRecord change) throws ApplyHaltException {
        try {
            Map<String, String> keyValues = new LinkedHashMap<>();
            List<String> keyColumns = read(change, change.key(), null, keyValues);
            String before = identity(change, keyColumns, keyValues);
            if (change.row() == null) {
                return new RowShape(List.of(), keyColumns, List.of(before));
            }
            boolean update = "U".equals(change.op());
            Map<String, String> newKeyValues = new HashMap<>();
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

    /**
     * The table and the key values, in the key's column order, as one comparable string: each
     * name and value with its length before it, so that no two different keys read the same.
     */
    private static String identity(ChangeRecord change, List<String> keyColumns, Map<String, String> values) {
        StringBuilder id = new StringBuilder(change.table()).append('\u0000');
        for (String k : keyColumns) {
            id.append(k.length()).append(':').append(k).append(values.getOrDefault(k, NULL));
        }
        return id.toString();
    }

    /** A value as {@link #identity} compares it: a string's text (as the JSON decodes it), or another value's JSON. */
    private static String value(JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case VALUE_STRING -> {
                String text = p.getText();
                yield "s" + text.length() + ':' + text;
            }
            case VALUE_NULL -> NULL;
            default -> {
                String json = JSON.readTree(p).toString();
                yield "j" + json.length() + ':' + json;
            }
        };
    }

    /**
     * The field names of a JSON object, in order; the values of the {@code wanted} fields (all,
     * when null) go into {@code values}, the others are skipped unread.
     */
    private static List<String> read(ChangeRecord change, String json, List<String> wanted, Map<String, String> values)
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
                    values.put(name, value(p));
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
