-- A replicator's check: the stalls in force (or 'none'), backlog and lag of a component.
insert into oneway.monitor_state(component, stalls, backlog, lag_seconds, checked_at) values (?, ?, ?, ?, now())
on conflict (component) do update set stalls = excluded.stalls, backlog = excluded.backlog, lag_seconds = excluded.lag_seconds,
                                      checked_at = excluded.checked_at
