-- A snapshot's end mark applied: the table's changes are strict again.
delete from oneway.snapshot_state where source_id = ? and table_name = ?
