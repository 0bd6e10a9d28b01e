-- Oneway, both sides: schema changes made only where the installed schema differs, installed
-- first. An upgrade (install run again) happens while the replicator and the application
-- write, and the install is one transaction that keeps every lock it took until it commits.
-- ALTER TABLE, ALTER SEQUENCE, CREATE INDEX and DROP VIEW lock their object even when there
-- is nothing to change (ADD COLUMN IF NOT EXISTS takes ACCESS EXCLUSIVE before it looks), so a
-- writer in the middle of a transaction would wait for the install while the install waits
-- for the writer: a deadlock. These helpers look in the catalog first and lock nothing when
-- the object is already as wanted.

create schema if not exists oneway;

-- Adds a column unless the table has it.
create or replace function oneway.ensure_column(tbl regclass, col name, definition text) returns void
language plpgsql as $$
begin
  if not exists (select from pg_attribute where attrelid = tbl and attname = col and not attisdropped) then
    execute format('alter table %s add column %I %s', tbl, col, definition);
  end if;
end $$;

-- Makes a check constraint hold exactly this expression. The wanted definition is compared in
-- PostgreSQL's own normalised form, made on a scratch copy of the table's columns.
create or replace function oneway.ensure_check(tbl regclass, constraint_name name, expression text) returns void
language plpgsql as $$
declare
  present text;
  wanted text;
begin
  select pg_get_constraintdef(oid) into present from pg_constraint where conrelid = tbl and conname = constraint_name;
  execute format('create temp table oneway_check_probe (like %s)', tbl);
  execute format('alter table oneway_check_probe add constraint probe check (%s)', expression);
  select pg_get_constraintdef(oid) into wanted from pg_constraint
   where conrelid = 'oneway_check_probe'::regclass and conname = 'probe';
  drop table oneway_check_probe;
  if present is distinct from wanted then
    execute format('alter table %s drop constraint if exists %I', tbl, constraint_name);
    execute format('alter table %s add constraint %I check (%s)', tbl, constraint_name, expression);
  end if;
end $$;

-- Drops a constraint an earlier version made, when the table still has it.
create or replace function oneway.ensure_no_constraint(tbl regclass, constraint_name name) returns void
language plpgsql as $$
begin
  if exists (select from pg_constraint where conrelid = tbl and conname = constraint_name) then
    execute format('alter table %s drop constraint %I', tbl, constraint_name);
  end if;
end $$;

-- Creates an index unless one of that name exists (statement: the whole CREATE INDEX).
create or replace function oneway.ensure_index(index_name text, statement text) returns void
language plpgsql as $$
begin
  if to_regclass(index_name) is null then
    execute statement;
  end if;
end $$;

-- Makes a view hold exactly this query: compared in PostgreSQL's own form (pg_get_viewdef of a
-- scratch view), dropped and created again only when it differs. Grants on it are made after.
create or replace function oneway.ensure_view(view_name text, query text) returns void
language plpgsql as $$
declare
  wanted text;
begin
  execute format('create temp view oneway_view_probe as %s', query);
  wanted := pg_get_viewdef('oneway_view_probe'::regclass);
  drop view oneway_view_probe;
  if to_regclass(view_name) is null or pg_get_viewdef(to_regclass(view_name)) is distinct from wanted then
    execute format('drop view if exists %s', view_name);
    execute format('create view %s as %s', view_name, query);
  end if;
end $$;

-- Makes a sequence belong to a column (dropped with it) unless it does.
create or replace function oneway.ensure_owned_by(seq regclass, tbl regclass, col name) returns void
language plpgsql as $$
begin
  if not exists (select from pg_depend d
                   join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
                  where d.classid = 'pg_class'::regclass and d.objid = seq and d.deptype = 'a'
                    and d.refobjid = tbl and a.attname = col) then
    execute format('alter sequence %s owned by %s.%I', seq, tbl, col);
  end if;
end $$;

revoke execute on function oneway.ensure_column(regclass, name, text), oneway.ensure_check(regclass, name, text),
  oneway.ensure_no_constraint(regclass, name),
  oneway.ensure_index(text, text), oneway.ensure_view(text, text), oneway.ensure_owned_by(regclass, regclass, name) from public;

-- A table and, when it is partitioned, every partition under it (level 1 and deeper), by
-- qualified name: each has triggers of its own. pg_partition_tree alone lists nothing for a
-- table that is not partitioned.
create or replace function oneway.table_tree(tbl regclass) returns table (relid regclass, level int, qualified text)
language sql stable as $$
select t.relid, t.level, format('%I.%I', n.nspname, k.relname)
  from (select tbl as relid, 0 as level
        union all
        select p.relid, p.level from pg_partition_tree(tbl) p where p.relid <> tbl) t
  join pg_class k on k.oid = t.relid join pg_namespace n on n.oid = k.relnamespace
 order by t.level, 3
$$;
