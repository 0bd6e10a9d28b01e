-- bench: one lag sample on the remote database, given the central applied position (:applied).
-- captured changes (positioned or not) and the age of the oldest change not yet applied.
select (select last_position from oneway.position_counter) + (select count(*) from oneway.change_log where position is null) as captured,
       coalesce((select extract(epoch from clock_timestamp() - logged_at) from oneway.change_log where position = :applied + 1),
                (select extract(epoch from clock_timestamp() - min(logged_at)) from oneway.change_log where position is null),
                0) as lag_seconds
