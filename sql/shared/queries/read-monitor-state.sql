-- ./oneway status: what the replicator found at its last check, and how long ago that was (a
-- check more than a few intervals old means it is not running, or cannot reach this database).
select component, stalls, backlog, round(lag_seconds::numeric, 1) as lag_seconds,
       round(source_clock_behind_seconds::numeric, 1) as source_clock_behind_seconds, checked_at,
       round(extract(epoch from now() - checked_at)::numeric, 1) as seconds_since_check
  from oneway.monitor_state order by component
