package io.oneway.support;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.net.Socket;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.PGStream;
import org.postgresql.core.QueryExecutorBase;

import io.oneway.capture.WalReader;
import io.oneway.testing.ReplicationFixture;

import jdk.net.ExtendedSocketOptions;

/**
 * The replicator's connections to both databases, as application.properties makes them, the WAL reader's included, probe
 * their peer after oneway.database.keepalive-idle seconds without traffic (read back from the
 * driver's own socket): a statement whose database host went away without closing the connection
 * fails after about twice that instead of waiting for ever, while a long statement on a live
 * connection goes on. A setting that is not a number of seconds is refused by name.
 */
class KeepAliveIT {

    private static ReplicationFixture fixture;

    @BeforeAll
    static void start() throws Exception {
        fixture = new ReplicationFixture("branch1").with("oneway.database.keepalive-idle", "12").fromWal();
        fixture.startCentral();
        fixture.startRemote("branch1");
    }

    @AfterAll
    static void stop() throws Exception {
        fixture.close();
    }

    @Test
    void both_sides_connections_probe_their_database_after_the_idle_seconds() throws Exception {
        for (DataSource dataSource : List.of(fixture.remoteBean("branch1", "remoteDataSource", DataSource.class),
                fixture.centralBean("centralDataSource", DataSource.class))) {
            try (Connection c = dataSource.getConnection()) {
                assertProbes(socketOf(c));
            }
        }
    }

    @Test
    void the_wal_readers_replication_connection_probes_its_database_too() throws Exception {
        WalReader reader = fixture.remoteBean("branch1", "walReader", WalReader.class);
        Field replication = WalReader.class.getDeclaredField("replication");
        replication.setAccessible(true);
        Connection c = await().atMost(Duration.ofSeconds(60)).until(() -> (Connection) replication.get(reader), Objects::nonNull);
        assertProbes(socketOf(c));
    }

    private static void assertProbes(Socket socket) throws Exception {
        assertTrue(socket.getKeepAlive(), "probes on");
        assertEquals(12, socket.getOption(ExtendedSocketOptions.TCP_KEEPIDLE));
        assertEquals(4, socket.getOption(ExtendedSocketOptions.TCP_KEEPINTERVAL));
        assertEquals(3, socket.getOption(ExtendedSocketOptions.TCP_KEEPCOUNT));
    }

    @Test
    void an_idle_time_that_is_not_whole_seconds_is_refused_by_name() {
        for (String wrong : List.of("0", "half a minute", "")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new KeepAliveSocketFactory(wrong));
            assertTrue(e.getMessage().contains("oneway.database.keepalive-idle") && e.getMessage().contains("'" + wrong + "'"), e.getMessage());
        }
    }

    /** The driver's socket of a pooled connection: its stream is a protected field of the query executor. */
    private static Socket socketOf(Connection c) throws Exception {
        Field stream = QueryExecutorBase.class.getDeclaredField("pgStream");
        stream.setAccessible(true);
        return ((PGStream) stream.get(c.unwrap(BaseConnection.class).getQueryExecutor())).getSocket();
    }
}
