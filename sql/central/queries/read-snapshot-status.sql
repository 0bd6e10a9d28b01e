-- ./oneway status, central side: tables whose snapshot is being applied (their changes are applied leniently until it ends).
select source_id || ' ' || table_name as snapshot_applying, rows_loaded || ' of ' || rows_total || ' rows, ' || chunks || ' chunks' as loaded,
       begun_at as begun_at_position
  from oneway.snapshot_state order by source_id, table_name
