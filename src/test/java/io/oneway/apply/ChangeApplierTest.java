package io.oneway.apply;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.BatchUpdateException;
import java.sql.SQLException;

import org.junit.jupiter.api.Test;

/**
 * Which refusals of the central database halt a source (they need an operator) and which pass and
 * are retried (told as the stall apply-failing while they last), by SQLSTATE, a batch's own error
 * read from its next exception.
 */
class ChangeApplierTest {

    @Test
    void data_and_schema_errors_halt_and_passing_ones_are_retried() {
        for (String permanent : new String[] {"23505", "23503", "42703", "42P01", "22P02", "42501"}) {
            assertTrue(ChangeApplier.isPermanent(new SQLException("refused", permanent)), permanent);
        }
        // connection, deadlock, disk full, lock timeout, statement timeout, I/O, internal, read-only for now
        for (String passing : new String[] {"08006", "40P01", "53100", "55P03", "57014", "58030", "XX000", "25006"}) {
            assertFalse(ChangeApplier.isPermanent(new SQLException("passes", passing)), passing);
        }
        assertFalse(ChangeApplier.isPermanent(new SQLException("no state")));
    }

    @Test
    void a_batch_is_judged_by_the_database_error_behind_it() {
        assertFalse(ChangeApplier.isPermanent(batch(new SQLException("cannot execute INSERT in a read-only transaction", "25006"))));
        assertTrue(ChangeApplier.isPermanent(batch(new SQLException("duplicate key", "23505"))));
    }

    private static BatchUpdateException batch(SQLException behind) {
        BatchUpdateException batch = new BatchUpdateException("Batch entry 0 insert ... was aborted", "22000", new int[0]);
        batch.setNextException(behind);
        return batch;
    }
}
