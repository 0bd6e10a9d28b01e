package io.oneway.replication;

import org.junit.jupiter.api.BeforeAll;

import io.oneway.testing.ReplicationFixture;

/** SPEC §5, values round-trip exactly (ExactValuesCases), with shop.everything captured by its trigger. */
class ExactValuesIT extends ExactValuesCases {

    @BeforeAll
    static void start() throws Exception {
        start(new ReplicationFixture("branch1"), "image");
    }
}
