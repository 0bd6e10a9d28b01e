-- Oneway remote side, part 9: schema changes of captured tables travel in position order
-- (SPEC §5). An event trigger sees every ALTER TABLE (columns, types, defaults, not null, key,
-- renames), CREATE and DROP INDEX and DROP TABLE of a captured table (and CREATE TABLE, for a
-- partition made under one), and logs it in the change
-- log as a change of its own (op S), in the writer's transaction, between the data changes
-- logged before and after it: its row image says what changed (actions), the statement, and the
-- table's columns and key as they are now. When the columns or the key changed, the table's
-- capture function is made anew (so a key rename or a new column never breaks writes or goes
-- unlogged). The central database applies what its policy allows, or halts at that position
-- with the statement shown (oneway.apply.schema-changes).

-- Logs a schema change of a captured table.
create or replace function oneway.log_schema(command text, statement text, table_name text, columns jsonb, key_columns text[],
                                             actions jsonb) returns void
language sql as $$
insert into oneway.change_log(object_type, object_id, op, row_image)
values (table_name, '{}', 'S', jsonb_build_object('command', command, 'statement', statement, 'columns', columns,
                                                 'key', to_jsonb(key_columns), 'actions', actions))
$$;

-- What changed between two descriptions of a table (oneway.table_columns), as a list of
-- actions: add_column, drop_column, rename_column, alter_type, set_default, drop_default,
-- set_not_null, drop_not_null, alter_generated, set_key, rename_table. Columns are matched by
-- number, so a rename is a rename and not a drop and an add.
create or replace function oneway.schema_actions(old_columns jsonb, old_key text[], new_columns jsonb, new_key text[],
                                                 old_name text, new_name text) returns jsonb
language plpgsql immutable as $$
declare
  actions jsonb := '[]';
  o jsonb;
  n jsonb;
begin
  for o in select * from jsonb_array_elements(old_columns) loop
    if not exists (select from jsonb_array_elements(new_columns) x where x->'num' = o->'num') then
      actions := actions || jsonb_build_object('action', 'drop_column', 'column', o->>'name');
    end if;
  end loop;
  for n in select * from jsonb_array_elements(new_columns) loop
    select x into o from jsonb_array_elements(old_columns) x where x->'num' = n->'num';
    if o is null then
      actions := actions || jsonb_build_object('action', 'add_column', 'column', n->>'name', 'definition', n);
      continue;
    end if;
    if o->>'name' <> n->>'name' then
      actions := actions || jsonb_build_object('action', 'rename_column', 'from', o->>'name', 'column', n->>'name');
    end if;
    if o->>'type' <> n->>'type' then
      actions := actions || jsonb_build_object('action', 'alter_type', 'column', n->>'name', 'from', o->>'type', 'type', n->>'type');
    end if;
    if (o->>'default') is distinct from (n->>'default') then
      actions := actions || case when n->>'default' is null then jsonb_build_object('action', 'drop_default', 'column', n->>'name')
                                 else jsonb_build_object('action', 'set_default', 'column', n->>'name', 'default', n->>'default') end;
    end if;
    if o->'not_null' <> n->'not_null' then
      actions := actions || jsonb_build_object('action', case when (n->>'not_null')::boolean then 'set_not_null' else 'drop_not_null' end,
                                               'column', n->>'name');
    end if;
    if (o->>'generated') is distinct from (n->>'generated') then
      actions := actions || jsonb_build_object('action', 'alter_generated', 'column', n->>'name', 'generated', n->>'generated');
    end if;
  end loop;
  if old_key is distinct from new_key then
    actions := actions || jsonb_build_object('action', 'set_key', 'key', to_jsonb(new_key));
  end if;
  if old_name <> new_name then
    actions := actions || jsonb_build_object('action', 'rename_table', 'from', old_name, 'to', new_name);
  end if;
  return actions;
end $$;

-- The event trigger at the end of every DDL command: logs what it did to captured tables.
create or replace function oneway.capture_schema_change() returns event_trigger
language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
declare
  cmd record;
  t record;
  table_oid oid;
  new_name text;
  new_columns jsonb;
  new_key text[];
  actions jsonb;
  child text;
  partition text;
  filled boolean;
begin
  if current_setting('oneway.enabling_capture', true) = 'on' then
    return;
  end if;
  for cmd in select * from pg_event_trigger_ddl_commands() where classid = 'pg_class'::regclass loop
    table_oid := coalesce((select i.indrelid from pg_index i where i.indexrelid = cmd.objid), cmd.objid);
    -- a child table (INHERITS) of a captured table: its rows would be read through the table
    -- (snapshots, verify) while its changes are not captured
    select format('%I.%I', n.nspname, k.relname) into child
      from pg_inherits i join oneway.captured_table c on c.relid = i.inhparent
      join pg_class k on k.oid = i.inhrelid join pg_namespace n on n.oid = k.relnamespace
     where i.inhrelid = table_oid and not k.relispartition;
    if found then
      raise exception 'table % may not inherit from a captured table: its rows would be read through it, its changes not captured', child
        using errcode = '0A000', hint = 'capture the table on its own instead of inheriting, or make the captured table a partitioned one';
    end if;
    -- a partition made or attached under a captured table: its changes are captured through the
    -- table's cloned row trigger (or its publication), and it needs the table's TRUNCATE guard;
    -- rows it held when attached were never captured: the central database lacks them, which its
    -- writer is told and an alarm keeps in the transfer status (health check, notification)
    -- until an operator clears it
    if exists (select from oneway.captured_table c where c.relid = pg_partition_root(table_oid)) then
      for partition in select * from oneway.guard_truncate(pg_partition_root(table_oid), true) loop
        execute format('select exists (select from %s)', partition) into filled;
        if filled then
          raise warning 'the rows partition % held when attached are not replicated', partition
            using hint = format('./oneway snapshot %s makes the central copy equal', pg_partition_root(table_oid)::regclass);
          perform oneway.raise_alarm('partition-rows-not-replicated ' || partition,
            format('the rows partition %s held when it was attached to %s were never captured, and the central database lacks them; '
                   './oneway snapshot %s makes the central copy equal', partition, pg_partition_root(table_oid)::regclass,
                   pg_partition_root(table_oid)::regclass));
        end if;
      end loop;
    end if;
    -- a partition detached from a captured table (an ALTER TABLE of the partitioned table): its
    -- rows stay on the central database, and its TRUNCATE is its own again. Only then: while
    -- enable_capture runs, its table's guards stand before the table is recorded as captured.
    if cmd.objid = table_oid and (select k.relkind from pg_class k where k.oid = table_oid) = 'p'
       and exists (select from oneway.captured_table c where c.relid = pg_partition_root(table_oid)) then
      for partition in select format('%I.%I', n.nspname, k.relname)
                         from pg_trigger g join pg_class k on k.oid = g.tgrelid join pg_namespace n on n.oid = k.relnamespace
                        where g.tgname = 'oneway_refuse_truncate'
                          and not exists (select from oneway.captured_table c where c.relid in (g.tgrelid, pg_partition_root(g.tgrelid))) loop
        execute format('drop trigger oneway_refuse_truncate on %s', partition);
        raise warning 'partition % left a captured table: its rows stay on the central database (a detach is not replicated)', partition
          using hint = 'delete the rows through the table before detaching them to remove them there too';
      end loop;
    end if;
    select c.* into t from oneway.captured_table c where c.relid = table_oid;
    if not found then
      continue;
    end if;
    if table_oid <> cmd.objid then
      -- an index of a captured table: told, never needed for the data
      perform oneway.log_schema(cmd.command_tag, current_query(), t.table_name, t.columns, t.key_columns,
                                jsonb_build_array(jsonb_build_object('action', 'index', 'definition', pg_get_indexdef(cmd.objid))));
      continue;
    end if;
    select format('%I.%I', n.nspname, c.relname) into new_name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.oid = table_oid;
    new_columns := oneway.table_columns(table_oid);
    new_key := oneway.key_columns(table_oid);
    -- a key made anew as DEFERRABLE changes no column, so enable_capture below would not see it
    perform oneway.refuse_deferrable_key(table_oid, new_name);
    actions := oneway.schema_actions(t.columns, t.key_columns, new_columns, new_key, t.table_name, new_name);
    if actions = '[]' then
      continue;
    end if;
    perform oneway.log_schema(cmd.command_tag, current_query(), t.table_name, new_columns, new_key, actions);
    update oneway.captured_table c set columns = new_columns where c.relid = table_oid;
    if new_key is null then
      raise exception 'table % no longer has a primary key; capture needs one', new_name
        using errcode = '42P10', hint = 'add a primary key in the same transaction, or call oneway.disable_capture first';
    end if;
    perform oneway.enable_capture(table_oid, case t.capture_mode when 'R' then 'reference' when 'W' then 'wal' else 'image' end);
  end loop;
end $$;

-- The event trigger when objects are dropped: a captured table dropped is logged and no longer captured.
create or replace function oneway.capture_table_drop() returns event_trigger
language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
declare
  t record;
  partition text;
begin
  -- a partition dropped, its captured table staying: its rows stay on the central database
  if not exists (select from oneway.captured_table c join pg_event_trigger_dropped_objects() d on d.objid = c.relid and d.object_type = 'table') then
    for partition in select substr(d.object_identity, length('oneway_refuse_truncate on ') + 1) from pg_event_trigger_dropped_objects() d
                      where d.object_type = 'trigger' and d.object_identity like 'oneway_refuse_truncate on %' loop
      raise warning 'partition % of a captured table was dropped: its rows stay on the central database (a drop is not replicated)', partition
        using hint = 'delete the rows through the table before dropping the partition to remove them there too';
    end loop;
  end if;
  for t in select c.* from oneway.captured_table c
            join pg_event_trigger_dropped_objects() d on d.objid = c.relid and d.object_type = 'table' loop
    perform oneway.log_schema('DROP TABLE', current_query(), t.table_name, '[]', t.key_columns,
                              jsonb_build_array(jsonb_build_object('action', 'drop_table')));
    delete from oneway.captured_table c where c.relid = t.relid;
    -- the trigger went with the table; its functions would stay behind
    execute format('drop function if exists %s()', oneway.capture_function(t.relid));
    execute format('drop function if exists %s_pinned(text, record, record)', oneway.capture_function(t.relid));
  end loop;
end $$;

-- Only a superuser may make an event trigger, and without these a schema change of a captured
-- table would not be replicated: an install by anyone else stops here and says why.
do $$ begin
  drop event trigger if exists oneway_capture_schema_change;
  create event trigger oneway_capture_schema_change on ddl_command_end
    when tag in ('ALTER TABLE', 'CREATE TABLE', 'CREATE INDEX', 'ALTER INDEX')
    execute function oneway.capture_schema_change();
  drop event trigger if exists oneway_capture_table_drop;
  create event trigger oneway_capture_table_drop on sql_drop
    when tag in ('DROP TABLE')
    execute function oneway.capture_table_drop();
exception when insufficient_privilege then
  raise exception 'Oneway''s remote SQL must be installed by a superuser (% is not): %', current_user, sqlerrm
    using errcode = '42501',
          hint = 'it makes the event triggers that capture schema changes of captured tables, which only a superuser may make: '
                 'set oneway.install.user to a superuser; the replicator itself then runs as a member of oneway_sender';
end $$;
