-- Oneway remote side, part 13: what an upgrade remakes once every function is in place.

-- Capture functions are made by enable_capture and kept as made: a table captured by an earlier
-- version would go on logging through that version's code (before 2026-12-05, a capture function
-- that set six settings at every call cost writers 8 % of their rate). Those whose trigger or code
-- differs from what this version makes are made anew, in their mode; the others are left alone, so
-- installing the same version again locks no captured table. A row whose table is gone (dropped
-- while the drop was not seen, 09-schema.sql) is passed over: making capture for it would fail
-- the whole install.
select oneway.enable_capture(c.relid, case c.capture_mode when 'R' then 'reference' else 'image' end)
  from oneway.captured_table c
 where c.capture_mode in ('I', 'R')
   and case when exists (select from pg_class t where t.oid = c.relid)  -- a case: the table's code is made only for a table
            then not oneway.capture_current(c.relid, c.table_name, case c.capture_mode when 'R' then 'reference' else 'image' end)
            else false end;

-- Capture triggers made before 2026-12-06 fire only outside replica sessions
-- (session_replication_role), whose changes went uncaptured: they are made to fire always. A
-- capture trigger disabled by hand is left so (the transfer monitor reports it as the stall
-- capture-off). The TRUNCATE guards are put where they lack, on the partitions of a captured
-- partitioned table too (a TRUNCATE of a partition was not refused before).
do $$
declare
  r record;
begin
  for r in select m.qualified
             from oneway.captured_table c join pg_class k on k.oid = c.relid cross join oneway.table_tree(c.relid) m
             join pg_trigger t on t.tgrelid = m.relid and t.tgname = 'oneway_capture' and t.tgenabled = 'O'
  loop
    execute format('alter table %s enable always trigger oneway_capture', r.qualified);
  end loop;
  perform oneway.guard_truncate(c.relid, true) from oneway.captured_table c join pg_class k on k.oid = c.relid;
end $$;
