package io.oneway.ops;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Properties;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.oneway.testing.ReplicationFixture;

/**
 * SPEC §10 with capture from the WAL (issue 15): the remote replicator reads the slot and records
 * what it reads (COPY into the change log and positions) as a member of oneway_sender with the
 * REPLICATION attribute, and nothing more.
 */
class WalLeastPrivilegeIT {

    private static ReplicationFixture fixture;

    @BeforeAll
    static void start() {
        fixture = new ReplicationFixture("branch1").fromWal();
        exec(fixture.remote("branch1"), "do $$ begin if not exists (select from pg_roles where rolname = 'oneway_wal_branch1') then "
                + "create user oneway_wal_branch1 password 'sender-pw' replication in role oneway_sender; end if; end $$");
        fixture.startCentral();
        Properties sender = new Properties();
        sender.setProperty("oneway.remote.user", "oneway_wal_branch1");
        sender.setProperty("oneway.remote.password", "sender-pw");
        fixture.startRemote("branch1", sender);
        fixture.captureFromWal("branch1", "shop.customers");
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    void a_sender_with_only_its_role_and_replication_records_and_replicates_changes_read_from_the_wal() {
        exec(fixture.remote("branch1"), "insert into shop.customers(id, name) select g, 'from the WAL ' || g from generate_series(1, 500) g");
        exec(fixture.remote("branch1"), "update shop.customers set balance = id where id <= 250");
        fixture.awaitCaughtUp("branch1", Duration.ofSeconds(60));
        assertEquals(750, number(fixture.remote("branch1"), "select count(*) from oneway.change_log where object_type = 'shop.customers' and capture_mode = 'W'"));
        assertEquals(250 * 251 / 2, number(fixture.central(), "select sum(balance) from shop.customers"));
        assertEquals(500, number(fixture.central(), "select count(*) from shop.customers"));
    }
}
