package io.oneway.replication;

import static io.oneway.testing.Sql.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ShopWriter;
import io.oneway.testing.Transport;

/**
 * SPEC §4 and §8: through a link that drops, duplicates, reorders and corrupts in both
 * directions, every change is applied once, in order; the same over each shipped transport
 * (LossyLinkIT, AmqpTransportIT, FileTransportIT). Frames travel compressed, with LZ4 as by
 * default over JMS and with zlib over AMQP, except over files (FileTransportIT): there a corrupted
 * byte lands in one change's JSON, whose code then fails while the rest of its frame is taken; in
 * a compressed frame it fails the whole frame.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LossyLinkScenario {

    private final Transport transport;
    private final String compression;
    private ReplicationFixture fixture;

    LossyLinkScenario(Transport transport, String compression) {
        this.transport = transport;
        this.compression = compression;
    }

    @BeforeAll
    void start() {
        fixture = ReplicationFixture.running("branch1", new ReplicationFixture("branch1").transport(transport).lossy(0.20, 0.20, 0.05, 50)
                .with("oneway.wire.compression", compression));
    }

    @AfterAll
    void stop() {
        fixture.close();
    }

    @Test
    void ten_thousand_changes_of_two_concurrent_writers_converge_exactly_once_through_a_bad_link() throws Exception {
        ExecutorService writers = Executors.newFixedThreadPool(2);
        try {
            Future<Integer> w1 = writers.submit(() -> new ShopWriter(fixture.remote("branch1"), 1_000_000, 11).write(5_200));
            Future<Integer> w2 = writers.submit(() -> new ShopWriter(fixture.remote("branch1"), 2_000_000, 22).write(5_200));
            int committed = w1.get(5, TimeUnit.MINUTES) + w2.get(5, TimeUnit.MINUTES);
            assertTrue(committed >= 10_000, "committed " + committed);
        } finally {
            writers.shutdownNow();
        }

        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(5));

        for (TableResult r : fixture.verify("branch1")) {
            assertTrue(r.equal(), r.toString());
        }
        long positions = number(fixture.remote("branch1"), "select max(position) from oneway.change_log_status");
        assertTrue(positions >= 10_000, "positions " + positions);
        assertEquals(positions, number(fixture.central(), "select count(*) from oneway.receive_log where source_id = 'branch1'"));
        assertEquals(positions, number(fixture.central(), "select count(distinct position) from oneway.receive_log where source_id = 'branch1'"));
        assertEquals(positions, number(fixture.central(), "select max(position) from oneway.receive_log where source_id = 'branch1'"));
    }
}
