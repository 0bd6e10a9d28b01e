package io.oneway.apply;

import static io.oneway.testing.Sql.exec;
import static io.oneway.testing.Sql.number;
import static io.oneway.testing.Sql.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.oneway.ops.SchemaInstaller.Part;
import io.oneway.support.SqlScript;
import io.oneway.testing.PostgresFixture;
import io.oneway.wire.ChangeRecord;
import io.oneway.wire.Fingerprint;

/**
 * What a run's plan does on a real database: its net changes leave the rows as the changes one
 * by one would. And the batch statements find their rows by the key's index inside an apply transaction. Without
 * begin-apply's settings the planner's costs pick a hash join over a scan of the whole table for
 * a table of some thousand rows, once per batch: the catch-up's customers updates cost twice as
 * much per row.
 */
class ApplyPlanIT {

    private static final TableCatalog.Column ID = new TableCatalog.Column("id", "bigint", false, false);
    private static final TableCatalog.Column NAME = new TableCatalog.Column("name", "text", false, false);
    private static DataSource central;

    @BeforeAll
    static void table() {
        central = PostgresFixture.newDatabase("apply_plan", Part.CENTRAL).dataSource();
        exec(central, "create table public.accounts(id bigint primary key, name text not null)");
        exec(central, "insert into public.accounts select g, 'a' || g from generate_series(1, 10000) g");
        exec(central, "analyze public.accounts");
    }

    @Test
    void batch_updates_and_deletes_find_rows_by_the_key_index_in_an_apply_transaction() throws SQLException {
        String keys = IntStream.rangeClosed(1, 120).map(i -> i * 80).mapToObj(i -> "{\"id\": \"" + i + "\"}")
                .collect(Collectors.joining(",", "[", "]"));
        String rows = IntStream.rangeClosed(1, 120).map(i -> i * 80).mapToObj(i -> "{\"id\": \"" + i + "\", \"name\": \"b\"}")
                .collect(Collectors.joining(",", "[", "]"));
        String update = TableCatalog.generateBatch("\"public\".\"accounts\"", "U", List.of(ID, NAME), List.of(ID));
        String delete = TableCatalog.generateBatch("\"public\".\"accounts\"", "D", List.of(), List.of(ID));

        String updateBefore = plan(false, update, rows, keys);
        String deleteBefore = plan(false, delete, keys);
        assertTrue(updateBefore.contains("Seq Scan on accounts"), "this test's table is one the planner scans by default:\n" + updateBefore);
        assertTrue(deleteBefore.contains("Seq Scan on accounts"), "this test's table is one the planner scans by default:\n" + deleteBefore);

        String updatePlan = plan(true, update, rows, keys);
        String deletePlan = plan(true, delete, keys);
        assertFalse(updatePlan.contains("Seq Scan"), updatePlan);
        assertTrue(updatePlan.contains("Index Scan using accounts_pkey"), updatePlan);
        assertFalse(deletePlan.contains("Seq Scan"), deletePlan);
        assertTrue(deletePlan.contains("Index Scan using accounts_pkey"), deletePlan);
    }

    @Test
    void runs_applied_by_their_net_changes_leave_the_rows_the_changes_one_by_one_leave_and_log_every_change() throws Exception {
        exec(central, "create table public.items(id int primary key, v int not null, doc text)");
        TableCatalog catalog = new TableCatalog("public.items");
        ChangeApplier applier = new ChangeApplier(central, catalog, new SchemaChanges(catalog, "additive"), new SequenceValues(catalog),
                new SnapshotLoader(catalog), 100);
        applier.recordIncarnation("net", UUID.randomUUID().toString());
        Random random = new Random(20261204);
        Map<Integer, String> oneByOne = new TreeMap<>();
        byte[] digest = Fingerprint.START;
        long position = 0;
        for (int run = 1; run <= 60; run++) {
            List<ChangeRecord> changes = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                changes.add(randomChange(random, ++position, run, i == 39, oneByOne));
            }
            digest = applier.apply("net", changes, Instant.now(), Set.of(), digest);
            Map<Integer, String> applied = new TreeMap<>();
            for (Map<String, Object> row : rows(central, "select id, v || '/' || coalesce(doc, 'null') as image from public.items")) {
                applied.put((Integer) row.get("id"), (String) row.get("image"));
            }
            assertEquals(oneByOne, applied, "after run " + run + ": " + changes.stream().map(ChangeRecord::describe).toList());
        }
        assertEquals(position, number(central, "select count(*) from oneway.receive_log where source_id = 'net'"));
    }

    /**
     * A change valid on the rows as the changes before it left them (kept in {@code rows}, id to
     * "v/doc"): an insert of an absent id, or of a present one an update of both columns, of v
     * alone (as an update read from the WAL leaves an unchanged TOASTed doc out), of the id, or a delete.
     */
    private static ChangeRecord randomChange(Random random, long position, long txid, boolean last, Map<Integer, String> rows) {
        int id = random.nextInt(6);
        String key = "{\"id\": " + id + "}";
        String doc = "\"d" + position + "\"";
        if (!rows.containsKey(id)) {
            rows.put(id, position + "/d" + position);
            return new ChangeRecord(position, txid, last, "public.items", "I", false, key, "{\"id\": " + id + ", \"v\": " + position + ", \"doc\": " + doc + "}",
                    "2026-12-04T10:00:00Z", null);
        }
        int free = IntStream.range(0, 6).filter(k -> !rows.containsKey(k)).findFirst().orElse(-1);
        int kind = random.nextInt(free < 0 ? 3 : 4);
        String row = switch (kind) {
            case 0 -> null;
            case 1 -> "{\"id\": " + id + ", \"v\": " + position + "}";
            case 3 -> "{\"id\": " + free + ", \"v\": " + position + ", \"doc\": " + doc + "}";
            default -> "{\"id\": " + id + ", \"v\": " + position + ", \"doc\": " + doc + "}";
        };
        String before = rows.remove(id);
        switch (kind) {
            case 0 -> {
            }
            case 1 -> rows.put(id, position + before.substring(before.indexOf('/')));
            case 3 -> rows.put(free, position + "/d" + position);
            default -> rows.put(id, position + "/d" + position);
        }
        return new ChangeRecord(position, txid, last, "public.items", kind == 0 ? "D" : "U", false, key, row, "2026-12-04T10:00:00Z", null);
    }

    /** The plan of a statement, in a transaction begun as the applier begins one (or not) and rolled back. */
    private static String plan(boolean asApplier, String statement, String... parameters) throws SQLException {
        try (Connection c = central.getConnection()) {
            c.setAutoCommit(false);
            try {
                if (asApplier) {
                    try (PreparedStatement begin = c.prepareStatement(SqlScript.load("central/queries/begin-apply.sql"))) {
                        begin.execute();
                    }
                }
                try (PreparedStatement ps = c.prepareStatement("explain " + statement)) {
                    for (int i = 0; i < parameters.length; i++) {
                        ps.setString(i + 1, parameters[i]);
                    }
                    StringBuilder plan = new StringBuilder();
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            plan.append(rs.getString(1)).append('\n');
                        }
                    }
                    return plan.toString();
                }
            } finally {
                c.rollback();
            }
        }
    }
}
