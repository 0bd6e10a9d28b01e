-- bench: one lag sample on the remote database, given the central applied position (:applied).
-- captured changes (positioned or not) and the age of the oldest change not yet applied.
select (select last_position from oneway.position_counter) + (select count(*) from oneway.unpositioned_changes()) as captured,
       coalesce((select extract(epoch from clock_timestamp() - l.logged_at)
                   from oneway.change_position p join oneway.change_log l on l.log_id = p.log_id where p.position = :applied + 1),
                (select extract(epoch from clock_timestamp() - min(u.logged_at)) from oneway.unpositioned_changes() u),
                0) as lag_seconds
