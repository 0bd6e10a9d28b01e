-- The tables of a source whose snapshot runs (their changes are applied leniently; SnapshotLoader).
select table_name from oneway.snapshot_state where source_id = ?
