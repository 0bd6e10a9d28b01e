-- Oneway remote side, part 10: sequences (SPEC §5 identity values). The values a captured
-- table's columns take from sequences are replicated row by row, but the sequences themselves
-- are not: a central database promoted after the loss of a remote would hand out ids again.
-- So every oneway.capture.sequence-interval ms the sequence of each such column (owned: serial
-- and identity columns; or named in a column default) is looked at, and when it advanced since
-- it was last logged, its value is logged as a change of its own (op Q). The central database
-- moves its own sequence to it, never backwards. Ascending sequences only.

create table if not exists oneway.sequence_state (
  seq         oid primary key,
  table_name  text not null,
  column_name text not null,
  last_logged bigint not null
);

-- The sequences a table's columns take values from: owned by a column (serial, identity), or
-- named in a column's default.
create or replace function oneway.table_sequences(tbl regclass) returns table (seq oid, column_name text)
language sql stable as $$
select d.objid, a.attname::text
  from pg_depend d
  join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
 where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.refobjid = tbl
   and d.deptype in ('a', 'i') and (select c.relkind from pg_class c where c.oid = d.objid) = 'S'
union
select d.refobjid, a.attname::text
  from pg_attrdef ad
  join pg_depend d on d.classid = 'pg_attrdef'::regclass and d.objid = ad.oid and d.refclassid = 'pg_class'::regclass
  join pg_attribute a on a.attrelid = ad.adrelid and a.attnum = ad.adnum
 where ad.adrelid = tbl and (select c.relkind from pg_class c where c.oid = d.refobjid) = 'S'
$$;

-- Logs the sequences of captured tables that advanced since they were last logged. Returns how
-- many. Runs with its owner's rights: reading a sequence needs rights the sender has no need of.
create or replace function oneway.log_sequences() returns int
language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
declare
  r record;
  v bigint;
  n int := 0;
begin
  for r in select t.table_name, s.seq, s.column_name, format('%I.%I', sn.nspname, sc.relname) as seq_name
             from oneway.captured_table t
             cross join lateral oneway.table_sequences(t.relid) s
             join pg_class sc on sc.oid = s.seq
             join pg_namespace sn on sn.oid = sc.relnamespace loop
    v := pg_sequence_last_value(r.seq);
    continue when v is null or exists (select from oneway.sequence_state x where x.seq = r.seq and x.last_logged >= v);
    insert into oneway.change_log(object_type, object_id, op, row_image)
    values (r.table_name, '{}', 'Q', jsonb_build_object('column', r.column_name, 'sequence', r.seq_name, 'value', v::text));
    insert into oneway.sequence_state(seq, table_name, column_name, last_logged) values (r.seq, r.table_name, r.column_name, v)
    on conflict (seq) do update set last_logged = excluded.last_logged, table_name = excluded.table_name, column_name = excluded.column_name;
    n := n + 1;
  end loop;
  return n;
end $$;
revoke execute on function oneway.log_sequences() from public;
grant execute on function oneway.log_sequences() to oneway_sender;
