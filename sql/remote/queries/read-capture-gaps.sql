-- Captured tables whose capture is not in force, for the transfer monitor: nothing else would
-- tell, since a table whose changes are not captured simply has no changes to send. A capture
-- trigger dropped or disabled by hand, or left to fire only outside replica sessions
-- (session_replication_role: bulk loaders and native logical replication's apply run as
-- replicas), on the table or on one of its partitions (each has a clone of the table's); a
-- table captured from the WAL taken out of the publication the reader reads, made unlogged (its
-- changes, or a partition's, no longer reach the WAL) or given another replica identity (its
-- updates and deletes would be logged without their key, or fail); a TRUNCATE guard
-- gone, so that a TRUNCATE would empty the table or a partition on the remote only (which by
-- itself loses no change: changes_missed is false). One row per table or partition at fault,
-- with the statement that puts it right.
select table_name, problem, remedy, changes_missed from (
  select c.table_name, m.level, w.member,
         case when c.capture_mode = 'W' and r.relpersistence <> 'p' then format('alter table %s set logged', m.qualified)
              when c.capture_mode = 'W' and r.relreplident <> 'd' then format('alter table %s replica identity default', m.qualified)
              else format('select oneway.enable_capture(%L, %L)', c.table_name,
                          case c.capture_mode when 'I' then 'image' when 'R' then 'reference' else 'wal' end) end as remedy,
         case
           when c.capture_mode = 'W' and m.level = 0 and not p.published then 'it is not in publication oneway_tables, which the WAL reader reads'
           when c.capture_mode = 'W' and r.relpersistence <> 'p'
             then w.whose || 'changes are not written to the WAL (it was made unlogged), so they cannot be captured from it'
           when c.capture_mode = 'W' and r.relreplident <> 'd'
             then w.whose || 'replica identity is no longer its primary key, so the WAL does not name the rows it changes by their key'
           when c.capture_mode <> 'W' and t.tgenabled is null then w.whose || 'capture trigger oneway_capture is gone'
           when c.capture_mode <> 'W' and t.tgenabled = 'D' then w.whose || 'capture trigger oneway_capture is disabled'
           when c.capture_mode <> 'W' and t.tgenabled <> 'A'
             then w.whose || 'capture trigger oneway_capture does not fire in replica sessions (session_replication_role)'
           when g.tgenabled is null then w.whose || 'TRUNCATE guard (trigger oneway_refuse_truncate) is gone: a TRUNCATE would not be replicated'
           when g.tgenabled <> 'A'
             then w.whose || 'TRUNCATE guard (trigger oneway_refuse_truncate) is disabled or skips replica sessions: a TRUNCATE would not be replicated'
         end as problem,
         case when c.capture_mode = 'W' then m.level = 0 and not p.published or r.relpersistence <> 'p'
              else t.tgenabled is distinct from 'A' end as changes_missed
    from oneway.captured_table c
   cross join lateral oneway.table_tree(c.relid) m
    join pg_class r on r.oid = m.relid
   cross join lateral (select m.qualified as member, case when m.level = 0 then 'its ' else 'its partition ' || m.qualified || '''s ' end as whose) w
    left join pg_trigger t on t.tgrelid = m.relid and t.tgname = 'oneway_capture'
    left join pg_trigger g on g.tgrelid = m.relid and g.tgname = 'oneway_refuse_truncate'
   cross join lateral (select oneway.published_for_wal(c.relid) as published) p
) gaps
 where problem is not null
 order by table_name collate "C", level, member collate "C"
