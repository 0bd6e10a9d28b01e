package io.oneway.send;

import java.sql.ResultSet;
import java.sql.SQLException;

import org.apache.camel.component.sql.RowMapperFactory;
import org.springframework.jdbc.core.RowMapper;

import io.oneway.wire.ChangeRecord;

/**
 * Maps the rows of {@code oneway.sendable_changes} straight to {@link OutgoingChange}s with
 * unsigned {@link ChangeRecord}s, instead of a case-insensitive map per row (a fifth of the
 * sender's CPU in the catch-up profile). Set per endpoint ({@code rowMapperFactory=#class:...}),
 * never as a registry bean, which camel-sql would autowire into every other query.
 */
public final class ChangeRows implements RowMapperFactory {

    /**
     * Rows of a change over this many bytes are read as the bytes the driver received, not as a
     * String: the driver decodes into a buffer of two bytes per byte and copies it, three times the
     * row at once.
     */
    static final long WIDE_BYTES = 1 << 20;

    @Override
    public RowMapper<OutgoingChange> newColumnRowMapper() {
        Columns[] read = {null};
        return (rs, rowNum) -> {
            // the columns are found by name once per result set: by name per row, the driver's map lookups were a tenth of the sender's CPU
            Columns k = read[0] != null && read[0].of() == rs ? read[0] : (read[0] = Columns.of(rs));
            long bytes = rs.getLong(k.rowBytes());
            boolean wide = bytes > WIDE_BYTES;
            // getBytes of a text column hands over the driver's own array of its UTF-8, without a copy
            return new OutgoingChange(new ChangeRecord(rs.getLong(k.position()), Long.parseLong(rs.getString(k.txid())),
                    rs.getBoolean(k.txEnd()), rs.getString(k.objectType()), rs.getString(k.op()), "R".equals(rs.getString(k.captureMode())),
                    rs.getString(k.objectId()), wide ? null : rs.getString(k.rowImage()), rs.getString(k.loggedAt()), null), bytes,
                    wide ? rs.getBytes(k.rowImage()) : null);
        };
    }

    /** Where each column of {@code oneway.sendable_changes} is in one result set. */
    private record Columns(ResultSet of, int position, int txid, int txEnd, int objectType, int op, int captureMode, int objectId,
            int rowImage, int loggedAt, int rowBytes) {
        static Columns of(ResultSet rs) throws SQLException {
            return new Columns(rs, rs.findColumn("position"), rs.findColumn("txid"), rs.findColumn("tx_end"), rs.findColumn("object_type"),
                    rs.findColumn("op"), rs.findColumn("capture_mode"), rs.findColumn("object_id"), rs.findColumn("row_image"),
                    rs.findColumn("logged_at"), rs.findColumn("row_bytes"));
        }
    }

    @Override
    public RowMapper<?> newBeanRowMapper(Class<?> type) {
        throw new UnsupportedOperationException("change rows map to OutgoingChange only, not to " + type.getName());
    }
}
