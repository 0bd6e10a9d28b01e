package io.oneway.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.postgresql.ds.PGSimpleDataSource;

import io.oneway.ops.SchemaInstaller;

/**
 * One real PostgreSQL server for the whole test JVM (started on first use, stopped at exit),
 * and a fresh database for every caller, so test classes never see each other's rows.
 */
public final class PostgresFixture {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static EmbeddedPostgres server;

    private PostgresFixture() {
    }

    public static synchronized EmbeddedPostgres server() {
        if (server == null) {
            try {
                // wal_level logical: the tests of capture from the WAL read replication slots
                server = EmbeddedPostgres.builder().setServerConfig("max_connections", "300").setServerConfig("wal_level", "logical").start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the embedded PostgreSQL for tests", e);
            }
            EmbeddedPostgres started = server;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }));
        }
        return server;
    }

    /** Creates an empty database on the shared server. */
    public static TestDatabase newDatabase(String purpose) {
        return newDatabase(purpose, "");
    }

    /** Creates an empty database on the shared server, with these options of CREATE DATABASE (a locale, say). */
    public static TestDatabase newDatabase(String purpose, String options) {
        String name = purpose.toLowerCase().replaceAll("[^a-z0-9]", "_") + "_" + DATABASES.incrementAndGet();
        try (Connection c = server().getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("create database " + name + " " + options);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database " + name, e);
        }
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setServerNames(new String[] {"localhost"});
        ds.setPortNumbers(new int[] {server().getPort()});
        ds.setDatabaseName(name);
        ds.setUser("postgres");
        return new TestDatabase(name, server().getPort(), ds);
    }

    /** Creates a database on the shared server with one side of Oneway's SQL installed. */
    public static TestDatabase newDatabase(String purpose, SchemaInstaller.Part part) {
        return newDatabase(purpose, "", part);
    }

    /** Creates a database on the shared server with these options of CREATE DATABASE and one side of Oneway's SQL installed. */
    public static TestDatabase newDatabase(String purpose, String options, SchemaInstaller.Part part) {
        TestDatabase db = newDatabase(purpose, options);
        SchemaInstaller.install(db.dataSource(), part);
        return db;
    }

    /** A database on the shared server. */
    public record TestDatabase(String name, int port, DataSource dataSource) {
        public String jdbcUrl() {
            return "jdbc:postgresql://localhost:" + port + "/" + name;
        }
    }
}
