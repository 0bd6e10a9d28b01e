package io.oneway.replication;

import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.value;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import javax.sql.DataSource;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.ReplicationFixture;

/**
 * A crash of the database server (kill -9 of one backend: PostgreSQL ends every other and recovers from its WAL)
 * under live replication, five times, captured by trigger and from the WAL. The test server runs with
 * synchronous_commit off, as many tuned servers do, so each crash takes back the last commits it had already
 * shown: the writer's (which it finds gone when it reads back), and the replicator's own unless they are durable.
 * Before the replicator's sessions raised it to local, the first crash left the central side holding changes the
 * remote no longer had (its numbering taken back and given to other changes): the transfer halted on a digest
 * mismatch and an ack beyond what was sent raised an integrity alarm. Now nothing halts, no alarm is raised, every
 * position is numbered once and applied once, and every table verifies equal.
 */
class DatabaseCrashIT {

    private static final int CRASHES = 5;

    @ParameterizedTest
    @ValueSource(strings = {"trigger", "wal"})
    void crashes_of_the_database_server_under_live_replication_lose_and_duplicate_nothing(String capture) throws Exception {
        ReplicationFixture setup = new ReplicationFixture("branch1");
        try (ReplicationFixture fixture = capture.equals("wal") ? ReplicationFixture.running("branch1", setup.fromWal())
                : ReplicationFixture.running("branch1", setup)) {
            DataSource remote = fixture.remote("branch1");
            if (capture.equals("wal")) {
                fixture.captureFromWal("branch1", "shop.tags");
            }
            assertEquals("off", value(remote, "select current_setting('synchronous_commit')"), "the test server's setting");
            try (Writer writer = new Writer(remote)) {
                for (int crash = 1; crash <= CRASHES; crash++) {
                    long target = applied(fixture) + 200;
                    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> applied(fixture) > target);
                    crash(remote);
                    await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> number(remote, "select count(*) from shop.tags") > 0);
                }
                assertTrue(writer.stop() >= CRASHES * 200);
            }
            fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));

            for (TableResult r : fixture.verify("branch1")) {
                assertTrue(r.equal(), r.toString());
            }
            assertEquals(0, number(remote, "select count(*) from oneway.integrity_alarm"));
            assertEquals(0, number(remote, "select count(*) from oneway.sender_state where diverged_at is not null"));
            assertEquals(0, number(fixture.central(), "select count(*) from oneway.source_progress where halted"));
            long last = number(remote, "select last_position from oneway.position_counter");
            assertEquals(last, number(remote, "select count(*) from oneway.change_position"));
            assertEquals(last, number(remote, "select count(*) from oneway.change_log"));
            assertEquals(last, number(fixture.central(), "select count(distinct position) from oneway.receive_log where source_id = 'branch1'"));
        }
    }

    /** kill -9 of one backend: the postmaster ends every other and recovers the whole server from its WAL. */
    private static void crash(DataSource db) throws SQLException {
        try (Connection c = db.getConnection(); ResultSet rs = c.createStatement().executeQuery("select pg_backend_pid()")) {
            rs.next();
            ProcessHandle.of(rs.getLong(1)).orElseThrow().destroyForcibly();
        }
    }

    private static long applied(ReplicationFixture fixture) {
        return number(fixture.central(), "select coalesce(max(applied_position), 0) from oneway.source_progress where source_id = 'branch1'");
    }

    /**
     * Tags inserted one by one, fifty a second (the replicators keep up, a few tens of ms behind); after a crash it
     * goes on after the last tag the database still has, as a writer that reads back what it committed.
     */
    private static final class Writer implements AutoCloseable {
        private final AtomicBoolean writing = new AtomicBoolean(true);
        private final ExecutorService thread = Executors.newSingleThreadExecutor();
        private final Future<Long> written;

        Writer(DataSource db) {
            written = thread.submit(() -> {
                long n = 0;
                while (writing.get()) {
                    try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement("insert into shop.tags values (?, ?)")) {
                        while (writing.get()) {
                            ps.setLong(1, n + 1);
                            ps.setString(2, "tag " + (n + 1));
                            ps.executeUpdate();
                            n++;
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                        }
                    } catch (SQLException e) {
                        n = await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                                .until(() -> number(db, "select coalesce(max(id), 0) from shop.tags"), x -> true);
                    }
                }
                return n;
            });
        }

        long stop() throws Exception {
            writing.set(false);
            return written.get(1, TimeUnit.MINUTES);
        }

        @Override
        public void close() {
            writing.set(false);
            thread.shutdown();
        }
    }
}
