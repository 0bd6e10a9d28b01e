package io.oneway.replication;

import org.junit.jupiter.api.BeforeAll;

/** SPEC §5 schema changes (SchemaChangeCases), captured by triggers. */
class SchemaChangeIT extends SchemaChangeCases {

    @BeforeAll
    static void start() {
        start(false);
    }
}
