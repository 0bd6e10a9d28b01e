package io.oneway.send;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import io.oneway.support.SqlScript;

/**
 * Who this remote is: the configured source id and the incarnation of its database, read once. The id is set as a
 * property ({@code .source}), not a constructor argument: Camel cannot pass an id of digits alone, a valid one, to a
 * constructor's String parameter.
 */
public final class SourceIdentity {

    private final DataSource remote;
    private volatile String source;
    private volatile String incarnation;

    public SourceIdentity(DataSource remote) {
        this.remote = remote;
    }

    /** oneway.source.id */
    public void setSource(String source) {
        if (source == null || !source.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new IllegalArgumentException("oneway.source.id must be 1-64 letters, digits, '_' or '-', got '" + source + "'");
        }
        this.source = source;
    }

    public String source() {
        String s = source;
        if (s == null) {
            throw new IllegalStateException("oneway.source.id is not set");
        }
        return s;
    }

    public String incarnation() {
        String i = incarnation;
        if (i == null) {
            try (Connection c = remote.getConnection(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery(SqlScript.load("remote/queries/read-identity.sql"))) {
                if (!rs.next()) {
                    throw new IllegalStateException("oneway.node is empty: install sql/remote on the remote database");
                }
                i = rs.getString(1);
                incarnation = i;
            } catch (SQLException e) {
                throw new IllegalStateException("cannot read this remote's incarnation: " + e.getMessage(), e);
            }
        }
        return i;
    }
}
