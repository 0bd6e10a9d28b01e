package io.oneway.apply;

import java.sql.SQLException;

import io.oneway.wire.ChangeRecord;

/** Where apply statements come from (the {@link TableCatalog}). */
interface Statements {

    /** The statement text for a change whose key and row read as {@code shape}. */
    String statement(ChangeRecord change, RowShape shape) throws SQLException, ApplyHaltException;
}
