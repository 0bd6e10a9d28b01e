-- ./oneway status, remote side: snapshots running, and those ended in the last day.
select s.table_name as snapshot, s.state,
       case when s.buckets is null then 'whole table' else 'buckets ' || array_to_string(s.wanted, ',') || ' of ' || s.buckets end as scope,
       s.rows_done || ' of ' || s.rows_total || ' rows (' || case when s.rows_total = 0 then 100 else least(100, s.rows_done * 100 / s.rows_total) end
         || ' %), ' || s.chunks_done || ' chunks' as progress,
       round(s.rows_done / greatest(extract(epoch from coalesce(s.finished_at, now()) - s.started_at), 0.001)) as rows_per_second,
       case when s.state = 'running' and s.rows_done > 0
            then round(greatest(s.rows_total - s.rows_done, 0) / (s.rows_done / greatest(extract(epoch from now() - s.started_at), 0.001)))
       end as seconds_left,
       case when s.state = 'running' and s.lock_wait_since is not null
            then 'for the table''s SHARE lock for ' || round(extract(epoch from now() - s.lock_wait_since)) || ' s: writers hold it (pid '
                 || coalesce((select string_agg(distinct l.pid::text, ', ') from pg_locks l
                               where l.relation = s.relid and l.granted and l.mode in ('RowExclusiveLock', 'ShareUpdateExclusiveLock',
                                     'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock')), 'none now') || ')'
       end as waiting,
       s.started_at, s.finished_at
  from oneway.snapshot s
 where s.state = 'running' or s.finished_at > now() - interval '1 day'
 order by s.started_at
