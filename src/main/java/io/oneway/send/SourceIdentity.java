package io.oneway.send;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import io.oneway.support.SqlScript;

/** Who this remote is: the configured source id and the incarnation of its database, read once. */
public final class SourceIdentity {

    private final String source;
    private final DataSource remote;
    private volatile String incarnation;

    public SourceIdentity(String source, DataSource remote) {
        if (source == null || !source.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new IllegalArgumentException("oneway.source.id must be 1-64 letters, digits, '_' or '-', got '" + source + "'");
        }
        this.source = source;
        this.remote = remote;
    }

    public String source() {
        return source;
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
