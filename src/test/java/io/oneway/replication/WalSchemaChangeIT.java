package io.oneway.replication;

import org.junit.jupiter.api.BeforeAll;

/**
 * SPEC §5 schema changes (SchemaChangeCases) of tables captured from the WAL (issue 15): the DDL's
 * change-log row comes through the slot in its transaction, so it keeps its place between the
 * data changes read from the WAL; a renamed key is read from the stream's own description of the
 * table.
 */
class WalSchemaChangeIT extends SchemaChangeCases {

    @BeforeAll
    static void start() {
        start(true);
    }
}
