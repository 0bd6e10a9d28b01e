-- A replicator's check: the stalls in force (or 'none'), backlog and lag of a component, and for a
-- source on the central database how far its clock is behind this replicator's (null: they agree).
insert into oneway.monitor_state(component, stalls, backlog, lag_seconds, source_clock_behind_seconds, checked_at) values (?, ?, ?, ?, ?, now())
on conflict (component) do update set stalls = excluded.stalls, backlog = excluded.backlog, lag_seconds = excluded.lag_seconds,
                                      source_clock_behind_seconds = excluded.source_clock_behind_seconds, checked_at = excluded.checked_at
