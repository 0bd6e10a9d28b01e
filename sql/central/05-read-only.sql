-- Oneway central side, part 5: replicated tables are read-only on the central database, as the
-- founding document says (database B "works in read-only mode: all changes are made on
-- database A"), for everyone but the applier and an operator's recorded repair session.
--
-- How: each replicated table gets a statement trigger that refuses INSERT, UPDATE, DELETE and
-- TRUNCATE with SQLSTATE 25006 naming the table and its source. The applier runs its
-- transactions with session_replication_role = replica (as native logical replication does),
-- in which ordinary triggers do not fire, and only it may set that (a superuser, or on
-- PostgreSQL 15+ a role granted SET on the parameter: oneway_applier, 03-roles.sql). Privileges
-- alone would not do: the table owner and superusers hold every privilege, and a repair must
-- be possible without re-granting anything. A repair session (oneway.begin_repair) is tied to
-- one backend (process id and start time, which nobody can forge) and recorded, and every row
-- it writes is logged with its old and new image in oneway.repair_log.

-- The central tables Oneway applies to, and the source each is replicated from (when known).
create table if not exists oneway.replicated_table (
  relid      oid primary key,
  table_name text not null,
  source_id  text,
  enabled_at timestamptz not null default now()
);

-- Repair sessions: who, why, when; open while ended_at is null and the backend lives.
create table if not exists oneway.repair_session (
  id            bigint generated always as identity primary key,
  pid           int not null,
  backend_start timestamptz not null,
  who           text not null,
  reason        text not null,
  started_at    timestamptz not null default now(),
  ended_at      timestamptz
);

-- What each repair session wrote: one row per changed row, with its images before and after.
create table if not exists oneway.repair_log (
  id         bigint generated always as identity primary key,
  session_id bigint not null references oneway.repair_session(id),
  at         timestamptz not null default now(),
  table_name text not null,
  op         text not null,
  old_row    jsonb,
  new_row    jsonb
);

-- The open repair session of the calling backend, or null.
create or replace function oneway.current_repair() returns bigint
language sql stable security definer set search_path = pg_catalog, pg_temp as $$
select r.id
  from oneway.repair_session r
  join pg_stat_activity a on a.pid = r.pid and a.backend_start = r.backend_start
 where r.pid = pg_backend_pid() and r.ended_at is null
 order by r.id desc
 limit 1
$$;

-- Starts a repair session in this database session: writes to replicated tables are allowed
-- in it, and recorded, until oneway.end_repair() or the end of the session. Returns its id.
create or replace function oneway.begin_repair(reason text) returns bigint
language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
declare
  session_id bigint := oneway.current_repair();
begin
  if reason is null or length(trim(reason)) = 0 then
    raise exception 'a repair session needs a reason: select oneway.begin_repair(''what is repaired and why'')' using errcode = '22023';
  end if;
  if session_id is null then
    insert into oneway.repair_session(pid, backend_start, who, reason)
    select pg_backend_pid(), a.backend_start, session_user, reason from pg_stat_activity a where a.pid = pg_backend_pid()
    returning id into session_id;
  end if;
  raise notice 'repair session % is open: writes to replicated tables are allowed in this session and recorded in oneway.repair_log until select oneway.end_repair()', session_id;
  return session_id;
end $$;

-- Ends this database session's repair session. Returns its id.
create or replace function oneway.end_repair() returns bigint
language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
declare
  session_id bigint := oneway.current_repair();
begin
  if session_id is null then
    raise exception 'there is no open repair session in this database session' using errcode = '55000';
  end if;
  update oneway.repair_session set ended_at = now() where id = session_id;
  return session_id;
end $$;

-- Statement trigger of every replicated table: refuses the write unless a repair session is open.
create or replace function oneway.refuse_write() returns trigger
language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
declare
  session_id bigint := oneway.current_repair();
  source text;
begin
  if session_id is null then
    -- a partition's write: the table it is a partition of is the one enabled
    select r.source_id into source from oneway.replicated_table r where r.relid = coalesce(pg_partition_root(TG_RELID), TG_RELID);
    raise exception '%.% is replicated from %: it is read-only on the central database', TG_TABLE_SCHEMA, TG_TABLE_NAME,
        coalesce('source ' || source, 'a remote database')
      using errcode = '25006',
            hint = 'change it on the remote database; to repair it here, first select oneway.begin_repair(''why'') '
                   '(recorded in oneway.repair_log)';
  end if;
  if TG_OP = 'TRUNCATE' then
    insert into oneway.repair_log(session_id, table_name, op) values (session_id, format('%I.%I', TG_TABLE_SCHEMA, TG_TABLE_NAME), TG_OP);
  end if;
  return null;
end $$;

-- Row trigger of every replicated table: fires only in a repair session (other writers are
-- refused before any row, the applier runs as a replica), and records the row.
create or replace function oneway.log_repair() returns trigger
language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
begin
  insert into oneway.repair_log(session_id, table_name, op, old_row, new_row)
  values (oneway.current_repair(), format('%I.%I', TG_TABLE_SCHEMA, TG_TABLE_NAME), TG_OP,
          case when TG_OP <> 'INSERT' then to_jsonb(OLD) end, case when TG_OP <> 'DELETE' then to_jsonb(NEW) end);
  return null;
end $$;

-- Lets the applier read and move a sequence.
create or replace function oneway.grant_sequence(seq regclass) returns void
language plpgsql as $$
begin
  execute format('grant usage on schema %I to oneway_applier', (select n.nspname from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.oid = seq));
  execute format('grant select, update on sequence %s to oneway_applier', seq);
end $$;

-- Puts the read-only statement trigger on each member of a table's tree that lacks it.
create or replace function oneway.guard_tree(tbl regclass) returns void
language plpgsql as $$
declare
  member text;
begin
  for member in select t.qualified from oneway.table_tree(tbl) t
                 where not exists (select from pg_trigger g where g.tgrelid = t.relid and g.tgname = 'oneway_read_only') loop
    execute format('create trigger oneway_read_only before insert or update or delete or truncate on %s '
                   'for each statement execute function oneway.refuse_write()', member);
  end loop;
end $$;

-- Enables a central table for replication: the applier may write it, everyone else may not
-- (the protection above), and it is recorded as replicated from the source, when given. Each
-- partition of a partitioned table gets the statement trigger too, since a write straight into
-- a partition fires only the partition's (row triggers are cloned to partitions, statement
-- triggers are not); a partition made or attached later gets it from the event trigger below.
create or replace function oneway.enable_apply(tbl regclass, source text default null) returns text
language plpgsql as $$
declare
  schema_name text;
  qualified text;
  member text;
begin
  select n.nspname, format('%I.%I', n.nspname, c.relname) into schema_name, qualified
    from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.oid = tbl and c.relkind in ('r', 'p');
  if qualified is null then
    raise exception '% is not a table', tbl using errcode = '42809';
  end if;
  -- the lock its triggers need (drop trigger takes this one), before anything here changes the table's catalog
  -- row: taken only at the triggers, after the grants had changed that row, it deadlocked with a session holding
  -- the table that then changed the row too (autovacuum's analyze of a freshly loaded table does); taken first,
  -- it waits for such a session, and the server cancels an autovacuum that keeps it waiting
  execute format('lock table %s in access exclusive mode', qualified);
  execute format('grant usage on schema %I to oneway_applier', schema_name);
  execute format('grant select, insert, update, delete on %s to oneway_applier', qualified);
  -- its serial and identity sequences, which the remote's sequence values move (remote 10-sequences.sql)
  perform oneway.grant_sequence(d.objid::regclass)
     from pg_depend d
    where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.refobjid = tbl and d.deptype in ('a', 'i')
      and (select c.relkind from pg_class c where c.oid = d.objid) = 'S';
  for member in select t.qualified from oneway.table_tree(tbl) t loop
    execute format('drop trigger if exists oneway_read_only on %s', member);
  end loop;
  perform oneway.guard_tree(tbl);
  execute format('drop trigger if exists oneway_repair_log on %s', qualified);
  execute format('create trigger oneway_repair_log after insert or update or delete on %s '
                 'for each row execute function oneway.log_repair()', qualified);
  insert into oneway.replicated_table(relid, table_name, source_id) values (tbl, qualified, source)
  on conflict (relid) do update set table_name = excluded.table_name, source_id = excluded.source_id, enabled_at = now();
  return qualified;
end $$;

-- The event trigger at the end of CREATE TABLE and ALTER TABLE: a partition made (PARTITION OF)
-- or attached (ATTACH PARTITION, an ALTER TABLE of its table) under a replicated table is
-- read-only as the table's other partitions are. Without it, a write straight into the new
-- partition would change the central copy unseen.
create or replace function oneway.guard_new_partitions() returns event_trigger
language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
declare
  root regclass;
begin
  for root in select distinct r.relid::regclass
                from pg_event_trigger_ddl_commands() cmd
                join oneway.replicated_table r on r.relid = pg_partition_root(cmd.objid)
               where cmd.classid = 'pg_class'::regclass loop
    perform oneway.guard_tree(root);
  end loop;
end $$;
-- Only a superuser may make an event trigger; an install by the database owner (PostgreSQL 14 and
-- before) says what is left to do by hand instead.
do $$ begin
  if (select r.rolsuper from pg_roles r where r.rolname = current_user) then
    drop event trigger if exists oneway_guard_new_partitions;
    create event trigger oneway_guard_new_partitions on ddl_command_end when tag in ('CREATE TABLE', 'ALTER TABLE')
      execute function oneway.guard_new_partitions();
  else
    raise warning 'not installed as a superuser: a partition made or attached later under a replicated table is not read-only '
                  'until select oneway.enable_apply(its table) is run again';
  end if;
end $$;

-- Takes a central table out of replication: the protection goes, and the applier's rights.
create or replace function oneway.disable_apply(tbl regclass) returns text
language plpgsql as $$
declare
  qualified text;
  member text;
begin
  select r.table_name into qualified from oneway.replicated_table r where r.relid = tbl;
  if qualified is null then
    raise exception '% is not enabled for apply', tbl using errcode = '22023';
  end if;
  for member in select t.qualified from oneway.table_tree(tbl) t loop
    execute format('drop trigger if exists oneway_read_only on %s', member);
  end loop;
  execute format('drop trigger if exists oneway_repair_log on %s', qualified);
  execute format('revoke insert, update, delete on %s from oneway_applier', qualified);
  delete from oneway.replicated_table where relid = tbl;
  return qualified;
end $$;

-- Operators who may open repair sessions: members of oneway_repairer, e.g.
--   grant oneway_repairer to alice;
do $$ begin
  if not exists (select from pg_roles where rolname = 'oneway_repairer') then
    create role oneway_repairer nologin;
  end if;
end $$;
revoke execute on function oneway.begin_repair(text), oneway.end_repair() from public;
grant execute on function oneway.begin_repair(text), oneway.end_repair() to oneway_repairer;
grant usage on schema oneway to oneway_repairer;
grant select on oneway.repair_session, oneway.repair_log, oneway.replicated_table to oneway_repairer;
