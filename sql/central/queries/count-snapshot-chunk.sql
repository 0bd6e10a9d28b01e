-- A snapshot chunk applied: its rows count towards the snapshot's progress.
update oneway.snapshot_state set rows_loaded = rows_loaded + ?, chunks = chunks + 1 where source_id = ? and table_name = ?
