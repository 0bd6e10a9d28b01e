package io.oneway.replication;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ReplicatorProcess;

/**
 * WideRowsIT's rows of 5 MB (ten in one transaction, over oneway.capture.wal-batch-bytes) and of
 * 40 MB captured from the WAL, through the same lossy link, by a remote replicator in a process
 * of its own with a heap of 256 MB: the WAL reader holds such a row several times over while it
 * decodes and records it. An update that leaves a TOASTed value alone does not carry it in the
 * WAL: the value stays whole on the central database whether the row changes, moves to another key,
 * or both in one transaction, and a row inserted and updated in one transaction arrives whole.
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

    @Test
    void a_toasted_value_an_update_leaves_out_of_the_wal_stays_whole_when_the_row_changes_or_moves_to_another_key() throws Exception {
        DataSource remote = fixture.remote("branch1");
        // 160 kB of bytes that do not compress: stored out of line, so an update that leaves it alone does not log it
        exec(remote, "insert into shop.customers (id, name, photo) select k, 'toasted ' || k, (select string_agg(decode(md5(g::text || k), 'hex'), ''::bytea) "
                + "from generate_series(1, 10000) g) from generate_series(501, 503) k");
        exec(remote, "update shop.customers set email = 'changed, photo left alone' where id = 501");
        exec(remote, "update shop.customers set id = 1502 where id = 502");
        try (Connection c = remote.getConnection()) {
            c.setAutoCommit(false);
            exec(c, "update shop.customers set balance = 7 where id = 503");
            exec(c, "update shop.customers set id = 1503, tags = '{moved}' where id = 503");
            exec(c, "update shop.customers set email = 'after the move' where id = 1503");
            c.commit();
            // a row inserted and updated in one transaction, the insert's image whole, the update's perhaps not
            exec(c, "insert into shop.customers (id, name, photo) select 504, 'toasted 504', photo from shop.customers where id = 501");
            exec(c, "update shop.customers set email = 'updated where it was inserted' where id = 504");
            c.commit();
        }
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));

        String photos = "select id, email, balance, tags::text as tags, octet_length(photo) as bytes, md5(photo) as photo "
                + "from shop.customers where id > 500 order by id";
        List<Map<String, Object>> expected = rows(remote, photos);
        assertEquals(List.of(501L, 504L, 1502L, 1503L), expected.stream().map(r -> ((Number) r.get("id")).longValue()).toList());
        assertEquals(4, expected.stream().filter(r -> ((Number) r.get("bytes")).longValue() == 160_000).count());
        assertEquals(expected, rows(fixture.central(), photos));
        String updates = "select count(*) from oneway.change_log where capture_mode = 'W' and object_type = 'shop.customers' and op = 'U' "
                + "and (object_id->>'id')::bigint > 500 and (object_id->>'id')::bigint <> 504";
        assertEquals(5, number(remote, updates));
        assertEquals(0, number(remote, updates + " and jsonb_exists(row_image, 'photo')"), "the updates' images left the photo out");
    }
}
