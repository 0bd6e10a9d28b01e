package io.oneway.apply;

import static io.oneway.testing.Sql.exec;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.oneway.ops.SchemaInstaller.Part;
import io.oneway.support.SqlScript;
import io.oneway.testing.PostgresFixture;

/**
 * The batch statements find their rows by the key's index inside an apply transaction. Without
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
