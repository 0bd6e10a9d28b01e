-- Oneway central side, part 4: purge. Receive-log rows older than the retention are deleted,
-- oldest first, at most max_rows per call. The applied position of each source stays in
-- oneway.source_progress, so exactly-once does not depend on these rows.
create or replace function oneway.purge_receive_log(retention interval, max_rows int) returns bigint
language plpgsql as $$
declare
  n bigint;
begin
  delete from oneway.receive_log r
   using (select g.source_id, g.position from oneway.receive_log g
           where g.applied_at < now() - retention
           order by g.source_id, g.position
           limit max_rows) d
   where r.source_id = d.source_id and r.position = d.position;
  get diagnostics n = row_count;
  return n;
end $$;
grant execute on function oneway.purge_receive_log(interval, int) to oneway_applier;
grant delete on oneway.receive_log to oneway_applier;
