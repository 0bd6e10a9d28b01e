-- Oneway remote side, part 2: the capture trigger and the calls that switch capture
-- on and off per table.

-- Row trigger. Arguments: the schema-qualified table name, where the key comes from ('new':
-- the new image, 'old': the row before the change), then the key columns. Writes one
-- change-log row per changed row with the key and, in image mode, the new row image.
-- Updates that keep the key take it from the new image (one to_jsonb per change, not two):
-- enable_capture splits updates over two triggers by a WHEN clause on the key columns.
create or replace function oneway.capture_change() returns trigger
language plpgsql as $$
declare
  image jsonb;
  key_image jsonb;
  k jsonb;
  i int;
begin
  if TG_OP = 'DELETE' then
    key_image := to_jsonb(OLD);
  else
    image := to_jsonb(NEW);
    if TG_ARGV[1] = 'old' then
      key_image := to_jsonb(OLD);
    else
      key_image := image;
    end if;
  end if;
  if TG_NARGS = 3 then
    k := jsonb_build_object(TG_ARGV[2], key_image -> TG_ARGV[2]);
  else
    k := '{}';
    for i in 2 .. TG_NARGS - 1 loop
      k := k || jsonb_build_object(TG_ARGV[i], key_image -> TG_ARGV[i]);
    end loop;
  end if;
  insert into oneway.change_log(object_type, object_id, op, row_image)
  values (TG_ARGV[0], k, left(TG_OP, 1), image);
  return null;
end $$;

-- TRUNCATE fires no row triggers, so it would be lost silently: refuse it.
create or replace function oneway.refuse_truncate() returns trigger
language plpgsql as $$
begin
  raise exception 'TRUNCATE of %.% is not replicated while capture is on', TG_TABLE_SCHEMA, TG_TABLE_NAME
    using errcode = '0A000',
          hint = 'delete the rows instead, or call oneway.disable_capture() first and re-onboard the table';
end $$;

create or replace function oneway.drop_capture_triggers(qualified text) returns void
language plpgsql as $$
begin
  execute format('drop trigger if exists oneway_capture on %s', qualified);
  execute format('drop trigger if exists oneway_capture_update on %s', qualified);
  execute format('drop trigger if exists oneway_capture_key_change on %s', qualified);
end $$;

-- Switch capture on for one table. mode: 'image' (default: the log holds the row image) or
-- 'reference' (the log holds the key; the row is read when sent; see 05-reference.sql).
-- Any table with a primary key is accepted, composite keys included; calling it again is
-- harmless, and switches the mode.
create or replace function oneway.enable_capture(tbl regclass, mode text default 'image') returns text
language plpgsql as $$
declare
  qualified text;
  keys text[];
  args text;
  same_key text;
begin
  if mode is null or mode not in ('image', 'reference') then
    raise exception 'capture mode "%" is not known; use ''image'' or ''reference''', mode
      using errcode = '22023';
  end if;
  select format('%I.%I', n.nspname, c.relname) into qualified
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where c.oid = tbl and c.relkind in ('r', 'p');
  if qualified is null then
    raise exception '% is not a table', tbl using errcode = '42809';
  end if;
  select array_agg(a.attname::text order by k.ord) into keys
    from pg_index x
    cross join lateral unnest(x.indkey) with ordinality as k(attnum, ord)
    join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum
   where x.indrelid = tbl and x.indisprimary;
  if keys is null then
    raise exception 'table % has no primary key; capture needs one to identify rows', qualified
      using errcode = '42P10', hint = 'add a primary key, then call oneway.enable_capture again';
  end if;
  select string_agg(quote_literal(a), ', ') into args from unnest(keys) a;
  select string_agg(format('OLD.%1$I IS NOT DISTINCT FROM NEW.%1$I', a), ' AND ') into same_key from unnest(keys) a;
  perform oneway.drop_capture_triggers(qualified);
  if mode = 'image' then
    execute format('create trigger oneway_capture after insert or delete on %s '
                   'for each row execute function oneway.capture_change(%L, %L, %s)', qualified, qualified, 'new', args);
    execute format('create trigger oneway_capture_update after update on %s for each row when (%s) '
                   'execute function oneway.capture_change(%L, %L, %s)', qualified, same_key, qualified, 'new', args);
    execute format('create trigger oneway_capture_key_change after update on %s for each row when (not (%s)) '
                   'execute function oneway.capture_change(%L, %L, %s)', qualified, same_key, qualified, 'old', args);
  else
    execute format('create trigger oneway_capture after insert or update or delete on %s '
                   'for each row execute function oneway.capture_reference(%L, %s)', qualified, qualified, args);
  end if;
  execute format('drop trigger if exists oneway_refuse_truncate on %s', qualified);
  execute format('create trigger oneway_refuse_truncate before truncate on %s '
                 'for each statement execute function oneway.refuse_truncate()', qualified);
  insert into oneway.captured_table(table_name, relid, key_columns, capture_mode)
  values (qualified, tbl, keys, case mode when 'image' then 'I' else 'R' end)
  on conflict (table_name) do update set relid = excluded.relid, key_columns = excluded.key_columns,
                                         capture_mode = excluded.capture_mode, enabled_at = now();
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
  perform oneway.drop_capture_triggers(qualified);
  execute format('drop trigger if exists oneway_refuse_truncate on %s', qualified);
  delete from oneway.captured_table where relid = tbl;
  return qualified;
end $$;
