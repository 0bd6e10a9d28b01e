package io.oneway.apply;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.oneway.support.SqlScript;
import io.oneway.wire.ChangeRecord;

/**
 * Moves a central sequence to a remote sequence's value (op Q, logged by
 * sql/remote/10-sequences.sql), never backwards: the sequence of the same column (serial or
 * identity), or else the sequence of the same name. A column without one here is told once.
 */
public final class SequenceValues {

    private static final Logger LOG = LoggerFactory.getLogger(SequenceValues.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final TableCatalog catalog;
    private final Set<String> missing = ConcurrentHashMap.newKeySet();

    public SequenceValues(TableCatalog catalog) {
        this.catalog = catalog;
    }

    public void apply(Connection c, ChangeRecord change) throws SQLException, ApplyHaltException {
        JsonNode value;
        try {
            value = JSON.readTree(change.row());
        } catch (IOException e) {
            throw new ApplyHaltException(change, "the sequence value is not readable: " + e.getMessage());
        }
        String column = value.path("column").asText();
        String sequence = value.path("sequence").asText();
        long last;
        try {
            last = Long.parseLong(value.path("value").asText());
        } catch (NumberFormatException e) {
            throw new ApplyHaltException(change, "the sequence value is not a number: " + value.path("value"));
        }
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/advance-sequence.sql"))) {
            ps.setString(1, catalog.quotedName(c, change));
            ps.setString(2, column);
            ps.setString(3, sequence);
            ps.setLong(4, last);
            ps.setLong(5, last);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getString(1) == null && missing.add(change.table() + "." + column)) {
                    LOG.warn("Source table {}: column {} takes its values from sequence {} on the remote; this central database has no "
                            + "sequence for it, so a promoted central database would not continue it", change.table(), column, sequence);
                }
            }
        }
    }
}
