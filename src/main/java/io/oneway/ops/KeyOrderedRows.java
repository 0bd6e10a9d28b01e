package io.oneway.ops;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.Set;

import javax.sql.DataSource;

import io.oneway.support.SqlScript;

/**
 * The keys and the digests of the text-form images of a table's rows in some buckets of verify's hash, read a page
 * at a time in the order of {@link #KEY_ORDER}, so that two databases' rows can be matched side by side in constant
 * memory, however large the table, however wide its rows and however many of them differ.
 */
final class KeyOrderedRows implements AutoCloseable {

    /**
     * The order of the keys' text by Unicode code point, as the rows are read: the query sorts by the keys' UTF-8 bytes,
     * which is the same order whatever either database's encoding and collation (a linguistic collation, or Java's
     * UTF-16 order, would put the same keys in different orders on the two sides).
     */
    static final Comparator<String> KEY_ORDER = KeyOrderedRows::byCodePoint;
    private static final int PAGE_ROWS = 1000;
    private final Connection connection;
    private final PreparedStatement statement;
    private final ResultSet rows;
    private String key;
    private String digest;

    KeyOrderedRows(DataSource db, String table, int buckets, Set<Integer> wanted) throws SQLException {
        connection = db.getConnection();
        try {
            // a cursor fetches a page at a time only inside a transaction
            connection.setAutoCommit(false);
            connection.setReadOnly(true);
            statement = connection.prepareStatement(SqlScript.load("shared/queries/verify-rows.sql"));
            statement.setFetchSize(PAGE_ROWS);
            statement.setString(1, table);
            statement.setInt(2, buckets);
            statement.setArray(3, connection.createArrayOf("int4", wanted.toArray()));
            rows = statement.executeQuery();
            next();
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** The current row's key, or null after the last row. */
    String key() {
        return key;
    }

    /** The digest of the current row's text-form image. */
    String digest() {
        return digest;
    }

    void next() throws SQLException {
        boolean more = rows.next();
        key = more ? rows.getString(1) : null;
        digest = more ? rows.getString(2) : null;
    }

    @Override
    public void close() throws SQLException {
        try (connection; statement; rows) {
            connection.rollback();
        }
    }

    private static int byCodePoint(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
