package io.oneway.replication;

import org.junit.jupiter.api.BeforeAll;

/** Partitioned tables (PartitionedTableCases), captured from the WAL: changes of a partition are read as its table's. */
class WalPartitionedTableIT extends PartitionedTableCases {

    @BeforeAll
    static void start() {
        start(true);
    }
}
