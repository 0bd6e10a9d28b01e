package io.oneway.replication;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.oneway.ops.Verifier;
import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.ReplicationFixture;

/**
 * SPEC §5, captured by trigger and from the WAL: values that move between rows under unique constraints arrive as the
 * remote left them. Keys moved by one statement; two rows swapping the values of a DEFERRABLE unique constraint in one
 * statement and, checked only at commit, in several; a key deleted and inserted again in one transaction; and a rotation
 * of 30,000 rows' values of a unique constraint checked at the end of each statement, in one statement on the remote,
 * which the central side applies in several (a statement there holds at most 4 MB of changes). The tables' names, their
 * columns' and an enum's need quoting.
 */
class UniqueConstraintsIT {

    private static final String SCHEMA = """
            create schema "Odd Schema";
            create type "Odd Schema"."Mood" as enum ('sad', 'ok', 'happy');
            create table "Odd Schema"."Mixed Table" ("Id" int primary key, "my col" text, "select" int, m "Odd Schema"."Mood");
            create table "Odd Schema".swaps (id int primary key, v text, u text unique deferrable initially immediate,
                                             w text unique deferrable initially deferred);
            create table "Odd Schema".rotation (id int primary key, pos int unique deferrable initially immediate, pad text);
            """;
    private static final List<String> TABLES = List.of("\"Odd Schema\".\"Mixed Table\"", "\"Odd Schema\".swaps", "\"Odd Schema\".rotation");
    private static final int ROTATED = 30_000;

    @ParameterizedTest
    @ValueSource(strings = {"image", "wal"})
    void values_moved_between_rows_under_unique_constraints_arrive_as_the_remote_left_them(String mode) throws Exception {
        ReplicationFixture fixture = new ReplicationFixture("branch1")
                .with("oneway.apply.tables", String.join(",", ReplicationFixture.TABLES) + "," + String.join(",", TABLES));
        if (mode.equals("wal")) {
            fixture.fromWal();
        }
        try (fixture) {
            DataSource remote = fixture.remote("branch1");
            exec(remote, SCHEMA);
            exec(fixture.central(), SCHEMA);
            for (String table : TABLES) {
                exec(fixture.central(), "select oneway.enable_apply(?::regclass, 'branch1')", table);
            }
            ReplicationFixture.running("branch1", fixture);
            if (mode.equals("wal")) {
                fixture.captureFromWal("branch1", TABLES.toArray(String[]::new));
            } else {
                for (String table : TABLES) {
                    exec(remote, "select oneway.enable_capture(?::regclass)", table);
                }
            }

            exec(remote, "insert into \"Odd Schema\".\"Mixed Table\" values (1, 'a\tb\\\\c', 5, 'ok'), (2, null, null, 'happy')");
            exec(remote, "update \"Odd Schema\".\"Mixed Table\" set \"Id\" = \"Id\" + 10");
            exec(remote, "insert into \"Odd Schema\".swaps values (1, 'one', 'x', 'a'), (2, 'two', 'y', 'b'), (3, 'three', 'z', 'c')");
            exec(remote, "update \"Odd Schema\".swaps set u = case u when 'x' then 'y' when 'y' then 'x' else u end");
            try (Connection c = remote.getConnection()) {
                c.setAutoCommit(false);
                exec(c, "update \"Odd Schema\".swaps set w = 'b' where id = 1");
                exec(c, "update \"Odd Schema\".swaps set w = 'a' where id = 2");
                exec(c, "delete from \"Odd Schema\".swaps where id = 3");
                exec(c, "insert into \"Odd Schema\".swaps values (3, 'three again', 'z', 'c')");
                c.commit();
            }
            exec(remote, "insert into \"Odd Schema\".rotation select i, i, repeat('p', 150) from generate_series(1, ?) i", ROTATED);
            exec(remote, "update \"Odd Schema\".rotation set pos = pos % ? + 1", ROTATED);
            fixture.awaitCaughtUp("branch1", Duration.ofMinutes(2));

            for (TableResult result : new Verifier(remote, fixture.central(), 10).verify(TABLES)) {
                assertTrue(result.equal(), result.toString());
            }
            assertEquals(List.of(11, 12), rows(fixture.central(), "select \"Id\" from \"Odd Schema\".\"Mixed Table\" order by 1").stream()
                    .map(r -> r.get("Id")).toList());
            assertEquals("[{id=1, u=y, w=b}, {id=2, u=x, w=a}, {id=3, u=z, w=c}]",
                    rows(fixture.central(), "select id, u, w from \"Odd Schema\".swaps order by id").toString());
            assertEquals(List.of(ROTATED), rows(fixture.central(), "select pos from \"Odd Schema\".rotation where id = ?", ROTATED - 1).stream()
                    .map(r -> r.get("pos")).toList());
        }
    }
}
