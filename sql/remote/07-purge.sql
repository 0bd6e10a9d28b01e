-- Oneway remote side, part 7: purge. Changes the central database acknowledged (position at or
-- below the ack) and older than the retention are deleted, oldest first, at most max_rows per
-- call: short transactions, no long locks. Nothing unacknowledged is ever purged.
create or replace function oneway.purge_delivered(retention interval, max_rows int) returns bigint
language plpgsql as $$
declare
  n bigint;
begin
  with purged as (
    delete from oneway.change_position p
     using (select c.position
              from oneway.change_position c
              join oneway.change_log l on l.log_id = c.log_id
              cross join oneway.sender_state s
             where c.position <= s.acked_position and l.logged_at < now() - retention
             order by c.position
             limit max_rows) d
     where p.position = d.position
    returning p.log_id
  )
  delete from oneway.change_log l using purged d where l.log_id = d.log_id;
  get diagnostics n = row_count;
  return n;
end $$;
grant execute on function oneway.purge_delivered(interval, int) to oneway_sender;
grant delete on oneway.change_log, oneway.change_position to oneway_sender;
