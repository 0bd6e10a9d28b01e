-- ./oneway verify --repair: how the snapshot of a table stands and, once it is done, the position
-- its last chunk took. Positions are given after the chunk commits (by the position assigner or
-- the WAL reader), so a snapshot can be done while its last chunk has none yet: then captured is
-- null and the wait goes on; a last chunk already purged was positioned and acknowledged long ago.
select s.state, s.rows_done, s.rows_total, s.chunks_done,
       case when s.state = 'done' then
         coalesce((select p.position from oneway.change_position p where p.log_id = s.recent_chunks[cardinality(s.recent_chunks)]),
                  case when not exists (select from oneway.change_log l where l.log_id = s.recent_chunks[cardinality(s.recent_chunks)])
                       then (select last_position from oneway.position_counter) end)
       end as captured
  from oneway.snapshot s where s.relid = ?::regclass
