-- Oneway remote side, part 2: the capture trigger and the calls that switch capture
-- on and off per table.

-- Capture goes through a trigger function made for each table by enable_capture: the table name
-- and the columns are written into its code, so a change costs one image of the new row (text
-- forms, shared/text-forms.sql), a key built straight from the key columns (OLD for updates and
-- deletes: the key before the change) and one insert. A generic function reading its arguments
-- (TG_ARGV) and the key back out of the image cost the writer about 14 % more tps. The text
-- forms are made under the settings they depend on (oneway.text_form_settings(tbl)).
create or replace function oneway.capture_function(tbl regclass) returns text
language sql stable as $$
select format('oneway.%I', 'capture_' || tbl::oid::text)
$$;

-- TRUNCATE fires no row triggers, so it would be lost silently: refuse it.
create or replace function oneway.refuse_truncate() returns trigger
language plpgsql as $$
begin
  raise exception 'TRUNCATE of %.% is not replicated while capture is on', TG_TABLE_SCHEMA, TG_TABLE_NAME
    using errcode = '0A000',
          hint = 'delete the rows instead, or call oneway.disable_capture() first and re-onboard the table';
end $$;

create or replace function oneway.drop_capture_triggers(tbl regclass, qualified text) returns void
language plpgsql as $$
begin
  execute format('drop trigger if exists oneway_capture on %s', qualified);
  execute format('drop function if exists %s()', oneway.capture_function(tbl));
  execute format('drop function if exists %s_pinned(text, record, record)', oneway.capture_function(tbl));
end $$;

-- The statements of a capture function that log one change of the table, its rows read from
-- new_row and old_row (NEW and OLD, or the pinned function's arguments) and its operation from
-- op (TG_OP): each in a branch of its own, so that only the row the operation has is read.
create or replace function oneway.capture_statements(tbl regclass, qualified text, mode text, new_row text, old_row text, op text)
returns text language plpgsql stable as $$
declare
  keys text[] := oneway.key_columns(tbl);
begin
  if mode = 'reference' then
    return format($s$
        if %2$s = 'INSERT' then
          perform oneway.capture_reference(%1$L, %3$s, 'I');
        else
          perform oneway.capture_reference(%1$L, %4$s, left(%2$s, 1));
        end if;$s$, qualified, op, oneway.image_expression(keys, new_row), oneway.image_expression(keys, old_row));
  end if;
  return format($s$
        if %2$s = 'INSERT' then
          insert into oneway.change_log(object_type, object_id, op, row_image) values (%1$L, %3$s, 'I', %5$s);
        elsif %2$s = 'UPDATE' then
          insert into oneway.change_log(object_type, object_id, op, row_image) values (%1$L, %4$s, 'U', %5$s);
        else
          insert into oneway.change_log(object_type, object_id, op) values (%1$L, %4$s, 'D');
        end if;$s$, qualified, op, oneway.image_expression(keys, new_row), oneway.image_expression(keys, old_row),
        oneway.image_expression(array(select c.name from oneway.stored_columns(tbl) c), new_row));
end $$;

-- Puts the TRUNCATE guard on a table and on every partition under it, or takes it off them. A
-- TRUNCATE of a partition fires only that partition's statement triggers (row triggers are
-- cloned to partitions, statement triggers are not); a partition made later gets its guard from
-- the event trigger of 09-schema.sql. Always enabled, as the capture trigger. A guard already in
-- place is left alone, so that calling enable_capture again locks no partition for it. Returns
-- the tables it guarded anew.
drop function if exists oneway.guard_truncate(regclass, boolean);
create function oneway.guard_truncate(tbl regclass, wanted boolean) returns setof text
language plpgsql as $$
declare
  m record;
begin
  for m in select t.qualified, (select g.tgenabled from pg_trigger g where g.tgrelid = t.relid and g.tgname = 'oneway_refuse_truncate') as enabled
             from oneway.table_tree(tbl) t
  loop
    if m.enabled is not null and (not wanted or m.enabled <> 'A') then
      execute format('drop trigger oneway_refuse_truncate on %s', m.qualified);
    end if;
    if wanted and m.enabled is distinct from 'A' then
      execute format('create trigger oneway_refuse_truncate before truncate on %s '
                     'for each statement execute function oneway.refuse_truncate()', m.qualified);
      execute format('alter table %s enable always trigger oneway_refuse_truncate', m.qualified);
      return next m.qualified;
    end if;
  end loop;
end $$;

-- Whether a table is in the publication the WAL reader reads (12-wal.sql).
create or replace function oneway.published_for_wal(tbl regclass) returns boolean
language sql stable as $$
select exists (select from pg_publication_rel r join pg_publication p on p.oid = r.prpubid
                where p.pubname = 'oneway_tables' and r.prrelid = tbl)
$$;

-- Puts a table into the publication the WAL reader reads, or takes it out. In the same
-- transaction as the trigger is dropped or made, so that every change is captured once.
create or replace function oneway.publish_for_wal(tbl regclass, qualified text, wanted boolean) returns void
language plpgsql as $$
declare
  published boolean := oneway.published_for_wal(tbl);
begin
  if wanted and not published then
    execute format('alter publication oneway_tables add table %s', qualified);
  elsif published and not wanted then
    execute format('alter publication oneway_tables drop table %s', qualified);
  end if;
end $$;

-- The code of a table's capture functions in image or reference mode, as this version makes them.
-- A change is logged in the writer's session when the session already makes the pinned text
-- forms (text_form_settings), else through a second function that pins them (pinned_source, null
-- when the table's text forms depend on no setting): PostgreSQL sets and resets a function's
-- settings at every call, and the six took 8 % of a writer's rate.
create or replace function oneway.capture_code(tbl regclass, qualified text, mode text,
                                               out trigger_source text, out pinned_source text, out pinned_clauses text)
language plpgsql stable as $$
declare
  pinned text;
  body text := oneway.capture_statements(tbl, qualified, mode, 'NEW', 'OLD', 'TG_OP');
begin
  select coalesce(string_agg(s.clause, ' ' order by s.n), ''), string_agg(s.pinned, ' and ' order by s.n)
    into pinned_clauses, pinned from oneway.text_form_settings(tbl) s;
  if pinned is not null then
    pinned_source := format('begin %s end', oneway.capture_statements(tbl, qualified, mode, 'new_row', 'old_row', 'change_op'));
    body := format('if %s then %s else perform %s_pinned(TG_OP, NEW, OLD); end if;', pinned, body, oneway.capture_function(tbl));
  end if;
  trigger_source := format('begin %s return null; end', body);
end $$;

-- Whether a table's capture trigger and functions are in place as this version makes them, by
-- their code, with the trigger's function setting nothing itself: an upgrade makes anew only
-- those that are not (13-upgrade.sql).
create or replace function oneway.capture_current(tbl regclass, qualified text, mode text) returns boolean
language sql stable as $$
select exists (select from pg_trigger t join pg_proc f on f.oid = t.tgfoid
                where t.tgrelid = tbl and t.tgname = 'oneway_capture' and not t.tgisinternal
                  and f.oid = to_regprocedure(oneway.capture_function(tbl) || '()')
                  and f.prosrc = c.trigger_source and f.proconfig is null)
   and c.pinned_source is not distinct from
       (select f.prosrc from pg_proc f where f.oid = to_regprocedure(oneway.capture_function(tbl) || '_pinned(text, record, record)'))
  from oneway.capture_code(tbl, qualified, mode) c
$$;

-- A DEFERRABLE primary key lets two rows share a key until the transaction ends (a swap of two
-- keys in one statement passes through that state), so a change named by its key could find two
-- rows on the central database, or the wrong one; PostgreSQL itself gives such a table no replica
-- identity (its updates are refused once it is published). Refused, with the statement that makes
-- the key immediate: no foreign key can reference a deferrable key, so it can be made anew at once.
create or replace function oneway.refuse_deferrable_key(tbl regclass, qualified text) returns void
language plpgsql stable as $$
declare
  k record;
begin
  select x.conname, pg_get_constraintdef(x.oid) as definition into k
    from pg_constraint x where x.conrelid = tbl and x.contype = 'p' and x.condeferrable;
  if found then
    raise exception 'table %''s primary key % is DEFERRABLE: two rows may share a key inside a transaction, so a change could not name its row',
                    qualified, k.conname
      using errcode = '55000',
            hint = format('make it immediate: alter table %s drop constraint %I, add constraint %I %s; then call oneway.enable_capture again',
                          qualified, k.conname, k.conname, regexp_replace(k.definition, '\s+DEFERRABLE.*$', ''));
  end if;
end $$;

-- Switch capture on for one table. mode: 'image' (default: the log holds the row image),
-- 'reference' (the log holds the key; the row is read when sent; see 05-reference.sql) or 'wal'
-- (the log holds the row image, read from the WAL by the replicator instead of made by a trigger;
-- see 12-wal.sql: the replicator must run with oneway.capture.from-wal = true).
-- Any table with a primary key is accepted, composite keys included; calling it again is
-- harmless, switches the mode, and takes in columns added or dropped since.
create or replace function oneway.enable_capture(tbl regclass, mode text default 'image') returns text
language plpgsql as $$
declare
  qualified text;
  keys text[];
  code record;
begin
  if mode is null or mode not in ('image', 'reference', 'wal') then
    raise exception 'capture mode "%" is not known; use ''image'', ''reference'' or ''wal''', mode
      using errcode = '22023';
  end if;
  if mode = 'wal' and (select c.wal_slot from oneway.position_counter c) is null then
    raise exception 'capture from the WAL is not started on this database'
      using errcode = '55000',
            hint = 'run its replicator with oneway.capture.from-wal = true (README "Capture from the WAL"), then call oneway.enable_capture again';
  end if;
  select format('%I.%I', n.nspname, c.relname) into qualified
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where c.oid = tbl and c.relkind in ('r', 'p');
  if qualified is null then
    raise exception '% is not a table', tbl using errcode = '42809';
  end if;
  if mode = 'wal' and (select c.relpersistence from pg_class c where c.oid = tbl) <> 'p' then
    raise exception 'table % is unlogged or temporary: its changes are not in the WAL, so they cannot be captured from it', qualified
      using errcode = '55000', hint = format('capture it by trigger: select oneway.enable_capture(%L)', qualified);
  end if;
  if mode = 'wal' and (select c.relreplident from pg_class c where c.oid = tbl) <> 'd' then
    raise exception 'table % must keep the default replica identity (its primary key) to be captured from the WAL', qualified
      using errcode = '55000', hint = format('alter table %s replica identity default', qualified);
  end if;
  if exists (select from pg_inherits i join pg_class k on k.oid = i.inhrelid where i.inhparent = tbl and not k.relispartition) then
    raise exception 'table % has child tables (INHERITS): their rows are read through it but their changes would not be captured', qualified
      using errcode = '0A000', hint = 'capture each child table on its own, or make the table a partitioned one';
  end if;
  keys := oneway.key_columns(tbl);
  if keys is null then
    raise exception 'table % has no primary key; capture needs one to identify rows', qualified
      using errcode = '42P10', hint = 'add a primary key, then call oneway.enable_capture again';
  end if;
  perform oneway.refuse_deferrable_key(tbl, qualified);
  -- its own ALTER TABLE (enable always) is not a schema change to log: the event trigger of
  -- 09-schema.sql passes over the commands made while this is on
  perform set_config('oneway.enabling_capture', 'on', true);
  perform oneway.drop_capture_triggers(tbl, qualified);
  if exists (select from pg_publication where pubname = 'oneway_tables') then
    perform oneway.publish_for_wal(tbl, qualified, mode = 'wal');
  end if;
  if mode <> 'wal' then
    -- Each runs with its owner's rights (see 06-roles.sql); every name in them is schema-qualified
    -- or in pg_catalog; a body is passed as a quoted literal, so no name can end it early.
    select * into code from oneway.capture_code(tbl, qualified, mode);
    if code.pinned_source is not null then
      execute format('create function %s_pinned(change_op text, new_row record, old_row record) returns void '
                     'language plpgsql security definer %s as %L', oneway.capture_function(tbl), code.pinned_clauses, code.pinned_source);
    end if;
    execute format('create function %s() returns trigger language plpgsql security definer as %L',
                   oneway.capture_function(tbl), code.trigger_source);
    execute format('create trigger oneway_capture after insert or update or delete on %s for each row execute function %s()',
                   qualified, oneway.capture_function(tbl));
    -- always: a session running as a replica (session_replication_role, as bulk loaders and
    -- native logical replication's apply do) fires no other trigger, and its changes would go
    -- uncaptured without a word
    execute format('alter table %s enable always trigger oneway_capture', qualified);
  end if;
  perform oneway.guard_truncate(tbl, true);
  perform set_config('oneway.enabling_capture', '', true);
  -- what the central database compares its table with: the columns as they are now (09-schema.sql)
  if not exists (select from oneway.captured_table c where c.relid = tbl and c.table_name = qualified
                    and c.columns = oneway.table_columns(tbl) and c.key_columns = keys) then
    perform oneway.log_schema('enable_capture', format('select oneway.enable_capture(%L, %L)', qualified, mode), qualified,
                              oneway.table_columns(tbl), keys, '[]');
  end if;
  insert into oneway.captured_table(table_name, relid, key_columns, capture_mode, columns)
  values (qualified, tbl, keys, case mode when 'image' then 'I' when 'wal' then 'W' else 'R' end, oneway.table_columns(tbl))
  on conflict (relid) do update set table_name = excluded.table_name, key_columns = excluded.key_columns,
                                    capture_mode = excluded.capture_mode, columns = excluded.columns, enabled_at = now();
  return qualified;
end $$;

-- Switch capture off for one table. Changes already logged stay in the log and are
-- still sent.
create or replace function oneway.disable_capture(tbl regclass) returns text
language plpgsql as $$
declare
  qualified text;
begin
  select table_name into qualified from oneway.captured_table where relid = tbl;
  if qualified is null then
    raise exception 'capture is not enabled for %', tbl using errcode = '22023';
  end if;
  perform oneway.drop_capture_triggers(tbl, qualified);
  if exists (select from pg_publication where pubname = 'oneway_tables') then
    perform oneway.publish_for_wal(tbl, qualified, false);
  end if;
  perform oneway.guard_truncate(tbl, false);
  delete from oneway.captured_table where relid = tbl;
  return qualified;
end $$;
