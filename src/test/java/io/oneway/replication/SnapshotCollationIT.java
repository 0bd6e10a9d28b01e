package io.oneway.replication;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.repair;
import static io.oneway.testing.Sql.value;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.oneway.ops.OnewayCommand;
import io.oneway.ops.Settings;
import io.oneway.ops.Verifier;
import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.ReplicationFixture;

/**
 * A snapshot's chunks are ranges of the remote's key order, and the central database replaces the rows of each range as
 * its own key order has it: a text key that collates differently on the two sides (C on the remote, ICU's English rules
 * on the central database) put rows of earlier chunks into a later chunk's range there, and that chunk deleted them.
 * The onboarding ended "done" with rows missing on the central database, told nowhere. Now the first chunk whose keys do
 * not fall inside its range on the central side halts the source with the cause, before anything of it is applied; a
 * repair whose chunk so halts the source ends with the halt's cause, where it waited for ever before.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SnapshotCollationIT {

    private static final int LABELS = 600;
    private static ReplicationFixture fixture;
    private static DataSource remote;
    private static Settings settings;

    @BeforeAll
    static void start() {
        ReplicationFixture f = new ReplicationFixture("branch1").with("oneway.snapshot.chunk-rows", "50")
                .with("oneway.apply.tables", String.join(",", ReplicationFixture.TABLES) + ",shop.labels");
        exec(f.remote("branch1"), "create table shop.labels (name text collate \"C\" primary key, n int not null)");
        // upper and lower case in turn: C sorts every capital before every small letter, ICU's English rules A a B b ...
        exec(f.remote("branch1"), "insert into shop.labels select chr((case when i % 2 = 0 then 65 else 97 end) + i % 26) || i, i "
                + "from generate_series(1, " + LABELS + ") i");
        exec(f.remote("branch1"), "select oneway.enable_capture('shop.labels')");
        exec(f.central(), "create table shop.labels (name text collate \"en-x-icu\" primary key, n int not null)");
        exec(f.central(), "select oneway.enable_apply('shop.labels')");
        fixture = ReplicationFixture.running("branch1", f);
        remote = fixture.remote("branch1");
        settings = Settings.load(Path.of(""), null).with(fixture.commandSettings("branch1")).with(Map.of("oneway.snapshot.chunk-rows", "50"));
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    @Order(1)
    void a_key_that_sorts_differently_on_the_central_side_halts_the_onboarding_and_once_it_sorts_alike_every_row_arrives() throws Exception {
        assertEquals(0, OnewayCommand.run(settings, "onboard", List.of("shop.labels")));

        await().atMost(Duration.ofMinutes(1)).until(() -> number(fixture.central(), "select count(halt_reason) from oneway.source_progress") == 1);
        String reason = (String) value(fixture.central(), "select halt_reason from oneway.source_progress");
        assertTrue(reason.contains("snapshot chunk of shop.labels") && reason.contains("sort") && reason.contains("en-x-icu"), reason);
        long applied = number(fixture.central(), "select count(*) from shop.labels");
        assertTrue(applied < LABELS && applied % 50 == 0, "the chunks before the one that halted, whole, and nothing of it: " + applied);

        exec(fixture.central(), "alter table shop.labels alter column name type text collate \"C\"");
        assertEquals(0, OnewayCommand.run(settings, "resume", List.of("branch1")));
        await().atMost(Duration.ofMinutes(1)).until(() -> "done".equals(value(remote, "select state from oneway.snapshot where table_name = 'shop.labels'")));
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(1));

        assertEquals(LABELS, number(fixture.central(), "select count(*) from shop.labels"));
        TableResult r = new Verifier(remote, fixture.central(), 10).verify("shop.labels");
        assertTrue(r.equal(), r.toString());
    }

    @Test
    @Order(2)
    void a_repair_whose_chunk_halts_the_source_ends_with_the_halt_instead_of_waiting_and_goes_on_once_resumed() throws Exception {
        exec(fixture.central(), "alter table shop.labels alter column name type text collate \"en-x-icu\"");
        repair(fixture.central(), "test: rows of a table whose key collates otherwise here, deleted by hand",
                "delete from shop.labels where n % 7 = 0");
        // chunks of 2 rows: several to a bucket, so their ranges' bounds are compared here
        Settings small = settings.with(Map.of("oneway.snapshot.chunk-rows", "2"));
        ExecutorService command = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> repaired = command.submit(() -> OnewayCommand.run(small, "verify", List.of("--repair", "shop.labels")));
            ExecutionException ended = assertThrows(ExecutionException.class, () -> repaired.get(2, TimeUnit.MINUTES),
                    "the repair ends once the source halts, instead of waiting for positions that do not come");
            assertTrue(ended.getCause() instanceof IllegalStateException && ended.getCause().getMessage().contains("halted source branch1")
                    && ended.getCause().getMessage().contains("does not sort"), String.valueOf(ended.getCause()));
        } finally {
            command.shutdownNow();
        }

        exec(fixture.central(), "alter table shop.labels alter column name type text collate \"C\"");
        assertEquals(0, OnewayCommand.run(settings, "resume", List.of("branch1")));
        await().atMost(Duration.ofMinutes(1)).until(() -> "done".equals(value(remote, "select state from oneway.snapshot where table_name = 'shop.labels'")));
        fixture.awaitCaughtUp("branch1", Duration.ofMinutes(1));
        TableResult r = new Verifier(remote, fixture.central(), 10).verify("shop.labels");
        assertTrue(r.equal(), r.toString());
    }
}
