package io.oneway.replication;

import org.junit.jupiter.api.BeforeAll;

/** Partitioned tables (PartitionedTableCases), captured by triggers. */
class PartitionedTableIT extends PartitionedTableCases {

    @BeforeAll
    static void start() {
        start(false);
    }
}
