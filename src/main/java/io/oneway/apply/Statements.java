package io.oneway.apply;

import java.sql.SQLException;

import io.oneway.wire.ChangeRecord;

/** Where apply statements come from (the {@link TableCatalog}). */
interface Statements {

    String statement(ChangeRecord change) throws SQLException, ApplyHaltException;
}
