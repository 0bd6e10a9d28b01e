package io.oneway.replication;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Savepoint;
import java.time.Duration;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.oneway.ops.Verifier;
import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.ReplicationFixture;

/**
 * SPEC §2, captured by trigger and from the WAL: what a transaction rolled back to a savepoint, or a PL/pgSQL block
 * rolled back by the exception it caught, never reaches the central database; what a released savepoint or a block
 * that ended well did, arrives with the rest of its transaction.
 */
class SavepointIT {

    @ParameterizedTest
    @ValueSource(strings = {"image", "wal"})
    void only_the_changes_a_transaction_kept_arrive(String mode) throws Exception {
        ReplicationFixture fixture = new ReplicationFixture("branch1").with("oneway.apply.tables", String.join(",", ReplicationFixture.TABLES));
        if (mode.equals("wal")) {
            fixture.fromWal();
        }
        try (fixture) {
            DataSource remote = fixture.remote("branch1");
            ReplicationFixture.running("branch1", fixture);
            if (mode.equals("wal")) {
                fixture.captureFromWal("branch1", ReplicationFixture.TABLES.toArray(String[]::new));
            }
            try (Connection c = remote.getConnection()) {
                c.setAutoCommit(false);
                exec(c, "insert into shop.tags values (1, 'one')");
                Savepoint s1 = c.setSavepoint();
                exec(c, "insert into shop.tags values (2, 'two')");
                exec(c, "update shop.tags set label = 'uno' where id = 1");
                c.rollback(s1);
                exec(c, "insert into shop.tags values (3, 'three')");
                Savepoint s2 = c.setSavepoint();
                exec(c, "update shop.tags set label = 'tres' where id = 3");
                c.releaseSavepoint(s2);
                exec(c, "do $$ begin insert into shop.tags values (4, 'four'); perform 1/0; exception when division_by_zero then null; end $$");
                exec(c, "do $$ begin insert into shop.tags values (5, 'five'); exception when division_by_zero then null; end $$");
                c.commit();
            }
            fixture.awaitCaughtUp("branch1", Duration.ofMinutes(1));
            for (TableResult r : fixture.verify("branch1")) {
                assertTrue(r.equal(), r.toString());
            }
            assertEquals("[{id=1, label=one}, {id=3, label=tres}, {id=5, label=five}]",
                    rows(fixture.central(), "select * from shop.tags order by id").toString());
        }
    }
}
