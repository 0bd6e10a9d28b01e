package io.oneway.replication;

import java.util.Properties;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ReplicatorProcess;

/**
 * WideRowsIT's rows of 5 MB (ten in one transaction, over oneway.capture.wal-batch-bytes) and of
 * 40 MB captured from the WAL, through the same lossy link, by a remote replicator in a process
 * of its own with a heap of 256 MB: the WAL reader holds such a row several times over while it
 * decodes and records it.
 */
class WalWideRowsIT {

    private static ReplicationFixture fixture;
    private static ReplicatorProcess remote;

    @BeforeAll
    static void start() {
        fixture = new ReplicationFixture("branch1").fromWal().lossy(0.05, 0.05, 0.02, 5);
        WideRowsIT.customers(fixture.remote("branch1"), 1);
        fixture.startCentral();
        remote = fixture.watch(ReplicatorProcess.start("remote", "256m", fixture.remoteProperties("branch1", new Properties()), "wal-wide-rows-remote"));
        fixture.captureFromWal("branch1", "shop.customers");
    }

    @AfterAll
    static void stop() {
        remote.close();
        fixture.close();
    }

    @Test
    void rows_of_5_mb_in_one_transaction_and_a_row_of_40_mb_arrive_exactly_from_the_wal_in_a_256_mb_heap() {
        WideRowsIT.wideRowsArriveExactly(fixture, "branch1");
    }
}
