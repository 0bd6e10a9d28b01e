-- Oneway central side, part 4: purge. Receive-log runs applied before the retention are deleted,
-- oldest first, whole runs of about max_rows changes per call (the runs that start within the
-- first max_rows changes); returns how many changes they held. The applied position of each
-- source stays in oneway.source_progress, so exactly-once does not depend on them.
create or replace function oneway.purge_receive_log(retention interval, max_rows int) returns bigint
language plpgsql as $$
declare
  n bigint;
begin
  with oldest as (
    select g.source_id, g.first_position,
           sum(g.last_position - g.first_position + 1) over (order by g.source_id, g.first_position)
             - (g.last_position - g.first_position + 1) as changes_before
      from oneway.receive_run g
     where g.applied_at < now() - retention
     order by g.source_id, g.first_position
     limit max_rows
  ), gone as (
    delete from oneway.receive_run r
     using oldest d
     where d.changes_before < max_rows and r.source_id = d.source_id and r.first_position = d.first_position
    returning r.last_position - r.first_position + 1 as changes
  )
  select coalesce(sum(changes), 0) into n from gone;
  return n;
end $$;
grant execute on function oneway.purge_receive_log(interval, int) to oneway_applier;
grant delete on oneway.receive_run to oneway_applier;
