-- Oneway remote side, part 7: purge. Changes the central database acknowledged (position at or
-- below the ack) and older than the retention are deleted, oldest first, at most max_rows per
-- call: short transactions, no long locks. Nothing unacknowledged is ever purged.
create or replace function oneway.purge_delivered(retention interval, max_rows int) returns bigint
language plpgsql as $$
declare
  n bigint;
begin
  delete from oneway.change_log l
   using (select c.log_id
            from oneway.change_log c cross join oneway.sender_state s
           where c.position <= s.acked_position and c.logged_at < now() - retention
           order by c.position
           limit max_rows) d
   where l.log_id = d.log_id;
  get diagnostics n = row_count;
  return n;
end $$;
grant execute on function oneway.purge_delivered(interval, int) to oneway_sender;
grant delete on oneway.change_log to oneway_sender;
