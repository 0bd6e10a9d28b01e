-- A snapshot's begin mark applied: the table's changes are lenient from here (a repeated snapshot starts again).
insert into oneway.snapshot_state(source_id, table_name, begun_at, rows_total) values (?, ?, ?, ?)
on conflict (source_id, table_name) do update
   set begun_at = excluded.begun_at, rows_total = excluded.rows_total, rows_loaded = 0, chunks = 0
