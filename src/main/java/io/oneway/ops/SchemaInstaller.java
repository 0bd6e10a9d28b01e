package io.oneway.ops;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.oneway.support.SqlScript;

/** Installs (or re-installs, the scripts are idempotent) Oneway's SQL on a remote or central database. */
public final class SchemaInstaller {

    /** A set of install scripts, run in order. */
    public enum Part {
        REMOTE("shared/ddl.sql", "shared/text-forms.sql", "shared/monitor.sql", "remote/01-schema.sql", "remote/02-capture.sql", "remote/03-positions.sql", "remote/04-blocking.sql", "remote/05-reference.sql", "remote/06-roles.sql", "remote/07-purge.sql", "remote/08-integrity.sql", "remote/09-schema.sql", "remote/10-sequences.sql", "remote/11-snapshot.sql", "remote/12-wal.sql", "remote/13-upgrade.sql", "shared/verify.sql"),
        CENTRAL("shared/ddl.sql", "shared/text-forms.sql", "shared/monitor.sql", "central/01-schema.sql", "central/02-operations.sql", "central/03-roles.sql", "central/04-purge.sql", "central/05-read-only.sql", "shared/verify.sql"),
        DEMO_SCHEMA("demo/01-demo-schema.sql", "demo/02-demo-writer.sql"),
        DEMO_CAPTURE("demo/03-demo-capture.sql"),
        DEMO_APPLY("demo/04-demo-apply.sql");

        private final List<String> scripts;

        Part(String... scripts) {
            this.scripts = List.of(scripts);
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(SchemaInstaller.class);
    /** deadlock_detected, lock_not_available (lock_timeout) */
    private static final Set<String> LOCK_CONFLICTS = Set.of("40P01", "55P03");
    private static final Duration LOCK_WAIT = Duration.ofSeconds(5);
    private static final Duration RETRY_PAUSE = Duration.ofSeconds(1);
    private static final Duration GIVE_UP_AFTER = Duration.ofMinutes(5);

    private SchemaInstaller() {
    }

    /**
     * Runs the part's scripts in one transaction. An upgrade runs beside writers and a running
     * replicator: the scripts lock only what they change (shared/ddl.sql), and a lock that cannot
     * be had within {@link #LOCK_WAIT} (a long writer transaction holds it) or a deadlock rolls the
     * install back, so the writers queued behind it go on, and it is tried again until
     * {@link #GIVE_UP_AFTER}.
     */
    public static void install(DataSource dataSource, Part part) {
        install(dataSource, part, GIVE_UP_AFTER);
    }

    static void install(DataSource dataSource, Part part, Duration giveUpAfter) {
        long deadline = System.nanoTime() + giveUpAfter.toNanos();
        for (int attempt = 1; ; attempt++) {
            try {
                installOnce(dataSource, part);
                return;
            } catch (SQLException e) {
                boolean lockConflict = LOCK_CONFLICTS.contains(e.getSQLState());
                if (!lockConflict || System.nanoTime() > deadline) {
                    throw new IllegalStateException("installing the " + part.name().toLowerCase() + " SQL failed"
                            + (lockConflict ? " after " + attempt + " attempts in " + giveUpAfter.toSeconds() + " s" : "") + ": " + e.getMessage(), e);
                }
                LOG.warn("Installing the {} SQL: {} (running transactions hold what it must change); rolled back, trying again (attempt {})",
                        part.name().toLowerCase(), e.getMessage(), attempt + 1);
                pause();
            }
        }
    }

    private static void installOnce(DataSource dataSource, Part part) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            // concurrent installs (two replicators starting at once) would race on CREATE ... IF NOT EXISTS
            s.execute("select pg_advisory_xact_lock(7957688980429220969)");
            s.execute("set local lock_timeout = " + LOCK_WAIT.toMillis());
            for (String script : part.scripts) {
                s.execute(SqlScript.load(script));
            }
            c.commit();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(RETRY_PAUSE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("installing the SQL was interrupted", e);
        }
    }
}
