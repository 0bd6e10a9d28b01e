-- Captured tables whose capture is not in force, for the transfer monitor: nothing else would
-- tell, since a table whose changes are not captured simply has no changes to send. A capture
-- trigger dropped or disabled by hand, or left to fire only outside replica sessions
-- (session_replication_role: bulk loaders and native logical replication's apply run as
-- replicas); a table captured from the WAL taken out of the publication the reader reads; a
-- TRUNCATE guard gone, so that a TRUNCATE would empty the table on the remote only (which by
-- itself loses no change: changes_missed is false).
select table_name, mode, problem, changes_missed from (
  select c.table_name, case c.capture_mode when 'I' then 'image' when 'R' then 'reference' else 'wal' end as mode,
         case
           when c.capture_mode = 'W' and not m.published then 'it is not in publication oneway_tables, which the WAL reader reads'
           when c.capture_mode <> 'W' and t.tgenabled is null then 'its capture trigger oneway_capture is gone'
           when c.capture_mode <> 'W' and t.tgenabled = 'D' then 'its capture trigger oneway_capture is disabled'
           when c.capture_mode <> 'W' and t.tgenabled <> 'A'
             then 'its capture trigger oneway_capture does not fire in replica sessions (session_replication_role)'
           when g.tgenabled is null then 'its TRUNCATE guard (trigger oneway_refuse_truncate) is gone: a TRUNCATE would not be replicated'
           when g.tgenabled <> 'A'
             then 'its TRUNCATE guard (trigger oneway_refuse_truncate) is disabled or skips replica sessions: a TRUNCATE would not be replicated'
         end as problem,
         case when c.capture_mode = 'W' then not m.published else t.tgenabled is distinct from 'A' end as changes_missed
    from oneway.captured_table c
    join pg_class r on r.oid = c.relid
    left join pg_trigger t on t.tgrelid = c.relid and t.tgname = 'oneway_capture'
    left join pg_trigger g on g.tgrelid = c.relid and g.tgname = 'oneway_refuse_truncate'
   cross join lateral (select exists (select from pg_publication_rel pr join pg_publication p on p.oid = pr.prpubid
                                       where p.pubname = 'oneway_tables' and pr.prrelid = c.relid) as published) m
) gaps
 where problem is not null
 order by table_name collate "C"
