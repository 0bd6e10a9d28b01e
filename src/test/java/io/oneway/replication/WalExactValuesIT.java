package io.oneway.replication;

import static io.oneway.testing.Sql.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import io.oneway.testing.ReplicationFixture;

/**
 * ExactValuesCases with shop.everything captured from the WAL (issue 15, SPEC §5): the text forms
 * pgoutput sends, under the WAL reader's pinned settings, equal the capture trigger's for every
 * type and edge value, JSON null included; snapshots (chunks inserted into the change log) and
 * sequence values (logged by the replicator) are numbered by the WAL reader in their place.
 */
class WalExactValuesIT extends ExactValuesCases {

    @BeforeAll
    static void start() throws Exception {
        start(new ReplicationFixture("branch1").fromWal(), "wal");
    }

    @Test
    @Order(4)
    void the_rows_came_from_the_wal_and_the_table_has_no_capture_trigger() {
        assertTrue(number(remote, "select count(*) from oneway.change_log where object_type = 'shop.everything' and capture_mode = 'W'") > 50);
        assertEquals(0, number(remote, "select count(*) from oneway.change_log where object_type = 'shop.everything' and op in ('I', 'U', 'D') "
                + "and capture_mode <> 'W'"));
        assertEquals(0, number(remote, "select count(*) from pg_trigger where tgrelid = 'shop.everything'::regclass and tgname = 'oneway_capture'"));
        assertEquals(1, number(remote, "select count(*) from pg_publication_tables where pubname = 'oneway_tables' and tablename = 'everything'"));
    }
}
