package io.oneway.ops;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import javax.sql.DataSource;

import io.oneway.support.SqlScript;

/** Installs (or re-installs, the scripts are idempotent) Oneway's SQL on a remote or central database. */
public final class SchemaInstaller {

    /** A set of install scripts, run in order. */
    public enum Part {
        REMOTE("shared/text-forms.sql", "shared/monitor.sql", "remote/01-schema.sql", "remote/02-capture.sql", "remote/03-positions.sql", "remote/04-blocking.sql", "remote/05-reference.sql", "remote/06-roles.sql", "remote/07-purge.sql", "remote/08-integrity.sql", "remote/09-schema.sql", "remote/10-sequences.sql", "remote/11-snapshot.sql", "shared/verify.sql"),
        CENTRAL("shared/text-forms.sql", "shared/monitor.sql", "central/01-schema.sql", "central/02-operations.sql", "central/03-roles.sql", "central/04-purge.sql", "central/05-read-only.sql", "shared/verify.sql"),
        DEMO_SCHEMA("demo/01-demo-schema.sql", "demo/02-demo-writer.sql"),
        DEMO_CAPTURE("demo/03-demo-capture.sql"),
        DEMO_APPLY("demo/04-demo-apply.sql");

        private final List<String> scripts;

        Part(String... scripts) {
            this.scripts = List.of(scripts);
        }
    }

    private SchemaInstaller() {
    }

    public static void install(DataSource dataSource, Part part) {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            // concurrent installs (two replicators starting at once) would race on CREATE ... IF NOT EXISTS
            s.execute("select pg_advisory_xact_lock(7957688980429220969)");
            for (String script : part.scripts) {
                s.execute(SqlScript.load(script));
            }
            c.commit();
        } catch (SQLException e) {
            throw new IllegalStateException("installing the " + part.name().toLowerCase() + " SQL failed: " + e.getMessage(), e);
        }
    }
}
