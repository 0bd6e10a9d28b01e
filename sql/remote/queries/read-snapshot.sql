-- ./oneway verify --repair: how the snapshot of a table stands, and the last position captured.
select s.state, s.rows_done, s.rows_total, s.chunks_done, (select last_position from oneway.position_counter) as captured
  from oneway.snapshot s where s.relid = ?::regclass
