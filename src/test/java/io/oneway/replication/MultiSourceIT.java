package io.oneway.replication;

import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.oneway.testing.ReplicationFixture;
import io.oneway.testing.ShopWriter;

/** SPEC §5: many remotes feed one central, each with its own expected position, at the same time. */
class MultiSourceIT {

    private static ReplicationFixture fixture;

    @BeforeAll
    static void start() {
        fixture = new ReplicationFixture("branch1", "branch2");
        ShopWriter.createSharedCustomer(fixture.remote("branch1"), 1);
        ShopWriter.createSharedCustomer(fixture.remote("branch2"), 2);
        fixture.startCentral();
        fixture.startRemote("branch1");
        fixture.startRemote("branch2");
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    void two_remotes_writing_at_once_both_arrive_complete_and_each_in_its_own_order() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Integer> w1 = pool.submit(() -> new ShopWriter(fixture.remote("branch1"), 1_000_000, 1, 1).write(3_000));
            Future<Integer> w2 = pool.submit(() -> new ShopWriter(fixture.remote("branch2"), 2_000_000, 2, 2).write(3_000));
            w1.get(3, TimeUnit.MINUTES);
            w2.get(3, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));
        fixture.awaitCaughtUp("branch2", Duration.ofMinutes(2));

        for (String table : ReplicationFixture.TABLES) {
            List<String> union = new ArrayList<>(rowsOf(fixture.remote("branch1"), table));
            union.addAll(rowsOf(fixture.remote("branch2"), table));
            union.sort(null);
            assertEquals(union, rowsOf(fixture.central(), table), table + " on the central database is the union of both remotes");
        }
        for (String source : List.of("branch1", "branch2")) {
            long positions = number(fixture.remote(source), "select max(position) from oneway.change_log_status");
            assertEquals(positions, number(fixture.central(), "select count(distinct position) from oneway.receive_log where source_id = ?", source));
            assertEquals(positions, number(fixture.central(), "select applied_position from oneway.source_progress where source_id = ?", source));
        }
    }

    private static List<String> rowsOf(DataSource db, String table) {
        List<String> out = new ArrayList<>();
        for (var row : rows(db, "select to_jsonb(t)::text as r from " + table + " t")) {
            out.add((String) row.get("r"));
        }
        out.sort(null);
        return out;
    }
}
