-- Oneway remote side, part 11: snapshots, to bring a table in live (onboarding) or mend a
-- difference verify found (repair), through the same ordered log as every other change.
--
-- A snapshot is logged as changes of its own: a begin mark (op B), chunks (op C), an end mark
-- (op E). A chunk is one short transaction that reads the next rows of the table in key order
-- and logs them as a single change saying "make this key range (of these verify buckets) equal
-- these rows". The central database applies it at its position like any other change.
--
-- Why no concurrent change is lost or reordered: the chunk first takes a SHARE lock on the table
-- (waiting at most lock_timeout, then trying again later), so no transaction that writes the
-- table is running while it reads. Every transaction that wrote the table before has committed
-- and is in the chunk's rows; its statements ran before the chunk's, so its changes have lower
-- statement-order ids and are positioned before the chunk (positions follow each transaction's
-- highest statement id, 03-positions.sql). Every transaction that writes the table afterwards
-- does so after the chunk committed, so it is positioned after the chunk and applied on top of
-- its rows. Writers of the table wait for a chunk's read (milliseconds), never for a snapshot.
--
-- Between the begin and end marks the central database applies the table's other changes
-- leniently (an insert or update of a missing row writes it, a delete of a missing row is
-- nothing): a change positioned before the chunk that covers its row meets the central table as
-- it was before the snapshot; the chunk then sets the row to what it was at its position.

-- One row per table being (or last) snapshotted; the chunk route works on the oldest running one.
create table if not exists oneway.snapshot (
  table_name    text primary key,
  relid         oid not null,
  buckets       int,
  wanted        int[],
  bucket_index  int not null default 1,
  after_key     jsonb,
  chunk_rows    int not null,
  chunk_bytes   int not null,
  recent_chunks bigint[] not null default '{}',
  state         text not null default 'running' check (state in ('running', 'done', 'cancelled')),
  rows_total    bigint not null,
  rows_done     bigint not null default 0,
  chunks_done   bigint not null default 0,
  started_at    timestamptz not null default now(),
  updated_at    timestamptz not null default now(),
  finished_at   timestamptz,
  filter        text,
  row_bytes     int
);
comment on column oneway.snapshot.filter is 'only rows matching this SQL condition are reloaded; the others are left as they are on the central database';
comment on column oneway.snapshot.buckets is 'repair: verify''s bucket count; null for a whole-table snapshot';
comment on column oneway.snapshot.wanted is 'repair: the buckets to reload, in order';
comment on column oneway.snapshot.after_key is 'the last key done in the current bucket (or the table), null: from its start';
comment on column oneway.snapshot.row_bytes is 'the average size of a row in the last chunk: the next one reads only about as many rows as fit';
select oneway.ensure_column('oneway.snapshot', 'lock_wait_since', 'timestamptz');
comment on column oneway.snapshot.lock_wait_since is 'since when writers of the table have kept every try from its SHARE lock (null: the last try had it)';
comment on column oneway.snapshot.recent_chunks is 'statement ids of the last chunks logged: a chunk waits until the central side holds the oldest';

-- The key columns of a table cast from a JSON key image `image` (an SQL expression), for a row
-- comparison with the columns themselves: ((image->>'id')::integer, ...).
create or replace function oneway.key_values(tbl regclass, image text) returns text
language sql stable as $$
select '(' || string_agg(format('(%s ->> %L)::%s', image, k.name, format_type(a.atttypid, a.atttypmod)), ', ' order by k.ord) || ')'
  from unnest(oneway.key_columns(tbl)) with ordinality as k(name, ord)
  join pg_attribute a on a.attrelid = tbl and a.attname = k.name
$$;

-- Starts a snapshot of a captured table: of all of it, or (repair) of the rows in the given
-- buckets of verify's hash (sql/shared/verify.sql), or of the rows matching an SQL condition
-- (the table's owner only: the condition runs with this function's rights). Logs the begin mark. Calling it again while
-- one runs starts that one again from its beginning.
create or replace function oneway.start_snapshot(tbl regclass, bucket_count int default null, wanted_buckets int[] default null,
                                                 rows_per_chunk int default 5000, bytes_per_chunk int default 262144,
                                                 condition text default null)
returns text
language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
declare
  qualified text;
  total bigint;
begin
  -- the condition is SQL run with this function's rights at every chunk: only whoever could run
  -- it on the table anyway (its owner, or a member of the owner's role) may give one
  if condition is not null and not pg_has_role(session_user, (select c.relowner from pg_class c where c.oid = tbl), 'MEMBER') then
    raise exception 'only the owner of % may snapshot it with a condition', tbl using errcode = '42501';
  end if;
  select c.table_name into qualified from oneway.captured_table c where c.relid = tbl;
  if qualified is null then
    raise exception 'capture is not enabled for %: call oneway.enable_capture first, or oneway.onboard', tbl using errcode = '22023';
  end if;
  if (bucket_count is null) <> (wanted_buckets is null) or bucket_count is not null and bucket_count < 1 then
    raise exception 'a repair names both the bucket count and the buckets' using errcode = '22023';
  end if;
  if rows_per_chunk < 1 or bytes_per_chunk < 1024 then
    raise exception 'a chunk holds at least one row and 1024 bytes' using errcode = '22023';
  end if;
  begin
    execute format('select count(*) from %s t where (%s) and (%s)', qualified, coalesce(condition, 'true'),
                   case when bucket_count is null then 'true'
                        else format('(abs(hashtext(%s::text)::bigint) %% %s)::int = any ($1)', oneway.image_expression(oneway.key_columns(tbl), 't'),
                                    bucket_count) end)
      into total using wanted_buckets;
  exception when syntax_error or undefined_column or undefined_function or datatype_mismatch then
    raise exception 'the snapshot condition "%" does not work on %: %', condition, qualified, sqlerrm using errcode = '22023';
  end;
  insert into oneway.snapshot(table_name, relid, buckets, wanted, chunk_rows, chunk_bytes, rows_total, filter)
  values (qualified, tbl, bucket_count, wanted_buckets, rows_per_chunk, bytes_per_chunk, total, condition)
  on conflict (table_name) do update
     set relid = excluded.relid, buckets = excluded.buckets, wanted = excluded.wanted, bucket_index = 1, after_key = null, filter = excluded.filter,
         chunk_rows = excluded.chunk_rows, chunk_bytes = excluded.chunk_bytes, recent_chunks = '{}', state = 'running',
         rows_total = excluded.rows_total, rows_done = 0, chunks_done = 0, started_at = now(), updated_at = now(), finished_at = null,
         row_bytes = null;
  insert into oneway.change_log(object_type, object_id, op, row_image)
  values (qualified, '{}', 'B', jsonb_build_object('rows', total::text, 'buckets', bucket_count, 'wanted', to_jsonb(wanted_buckets),
                                                    'condition', condition));
  return qualified;
end $$;

-- Onboarding: capture switched on and a snapshot started in one transaction, so every change
-- the table gets from now on is logged after the begin mark.
create or replace function oneway.onboard(tbl regclass, mode text default 'image', rows_per_chunk int default 5000,
                                          bytes_per_chunk int default 262144) returns text
language plpgsql as $$
begin
  perform oneway.enable_capture(tbl, mode);
  return oneway.start_snapshot(tbl, null, null, rows_per_chunk, bytes_per_chunk);
end $$;

-- Cancels a running snapshot: the end mark tells the central database to apply the table's
-- changes strictly again; the rows not reloaded yet stay as they were there.
create or replace function oneway.cancel_snapshot(tbl regclass) returns text
language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
declare
  qualified text;
begin
  update oneway.snapshot s set state = 'cancelled', finished_at = now(), updated_at = now()
   where s.relid = tbl and s.state = 'running'
  returning s.table_name into qualified;
  if qualified is null then
    raise exception 'no snapshot of % is running', tbl using errcode = '22023';
  end if;
  insert into oneway.change_log(object_type, object_id, op, row_image)
  values (qualified, '{}', 'E', jsonb_build_object('cancelled', true));
  return qualified;
end $$;

create or replace function oneway.seconds_since(t timestamptz) returns double precision
language sql stable as $$
select extract(epoch from clock_timestamp() - t)::double precision
$$;

-- One chunk of the oldest running snapshot, in the caller's (short) transaction. Returns what
-- it did: 'chunk' (logged one), 'done' (logged the last, and the end mark), 'lock' (the table
-- is being written by a long transaction: not waited for, tried again next time), 'ahead' (the
-- central side does not hold the chunk logged max_ahead chunks ago yet), or no row when no
-- snapshot runs; with the snapshot's progress and seconds since it started.
create or replace function oneway.snapshot_chunk(max_ahead int default 4)
returns table (table_name text, outcome text, rows_done bigint, rows_total bigint, chunks_done bigint, seconds double precision)
language plpgsql security definer set search_path = pg_catalog, pg_temp set lock_timeout = '200ms'
set datestyle = 'ISO, YMD' set intervalstyle = 'postgres' set timezone = 'UTC' set extra_float_digits = 3
set bytea_output = 'hex' set lc_monetary = 'C' as $$
declare
  s oneway.snapshot;
  keys text[];
  bucket int;
  filter text;
  order_by text;
  picked jsonb;
  kept jsonb;
  n int;
  taken int;
  scanned int;
  scan_rows int;
  bytes bigint;
  last_key jsonb;
  more boolean := false;
  last_of_scope boolean;
  finished boolean := false;
  chunk_id bigint;
begin
  select * into s from oneway.snapshot x where x.state = 'running' order by x.started_at, x.table_name limit 1 for update;
  if not found then
    return;
  end if;
  if cardinality(s.recent_chunks) >= max_ahead and not exists (
       select from oneway.change_position p cross join oneway.sender_state st
        where p.log_id = s.recent_chunks[1] and p.position <= st.received_position) then
    return query select s.table_name, 'ahead'::text, s.rows_done, s.rows_total, s.chunks_done, oneway.seconds_since(s.started_at);
    return;
  end if;
  begin
    execute format('lock table %s in share mode', s.table_name);
  exception when lock_not_available then
    update oneway.snapshot x set lock_wait_since = coalesce(x.lock_wait_since, now()) where x.table_name = s.table_name;
    return query select s.table_name, 'lock'::text, s.rows_done, s.rows_total, s.chunks_done, oneway.seconds_since(s.started_at);
    return;
  end;
  keys := oneway.key_columns(s.relid);
  bucket := case when s.buckets is null then null else s.wanted[s.bucket_index] end;
  filter := concat_ws(' and ', 'true',
                      case when bucket is not null then format('(abs(hashtext(%s::text)::bigint) %% %s)::int = %s',
                                                               oneway.image_expression(keys, 't'), s.buckets, bucket) end,
                      case when s.after_key is not null then format('(%s) > %s', (select string_agg(format('t.%I', k), ', ')
                                                                                     from unnest(keys) k),
                                                                    oneway.key_values(s.relid, '$1')) end);
  -- One statement reads the next rows in key order and takes a prefix of at most chunk_rows rows
  -- and about chunk_bytes (at least one row; measured in jsonb's own size, close to the text's
  -- and without making the text). With a condition, every row of the range is read:
  -- the keys of those that do not match go as "kept" (the central side leaves them alone), so it
  -- can still tell which of its rows the remote no longer has.
  order_by := (select string_agg(format('t.%I', k), ', ') from unnest(keys) k);
  -- rows are read (and their images made) only about as many as fit in chunk_bytes, by the last
  -- chunk's average row size; the rest of a read of chunk_rows was made and thrown away
  scan_rows := least(s.chunk_rows, coalesce(s.chunk_bytes / greatest(s.row_bytes, 1) + 16, s.chunk_rows));
  execute format(
    'with scanned as (select %1$s as k, %2$s as img, %3$s as wanted, row_number() over (order by %6$s) as ord '
    '                   from %4$s t where %5$s order by %6$s limit %7$s), '
    '     sized as (select x.*, sum(pg_column_size(case when x.wanted then x.img else x.k end)) over (order by x.ord) as running '
    '                 from scanned x), '
    '     taken as (select * from sized where ord <= %8$s and (ord = 1 or running <= %9$s)) '
    'select coalesce(jsonb_agg(img order by ord) filter (where wanted), ''[]''), '
    '       coalesce(jsonb_agg(k order by ord) filter (where not wanted), ''[]''), '
    '       (select k from taken order by ord desc limit 1), count(*) filter (where wanted), count(*), (select count(*) from sized), '
    '       coalesce(max(running), 0) '
    '  from taken',
    oneway.image_expression(keys, 't'),
    oneway.image_expression(array(select c.name from oneway.stored_columns(s.relid) c), 't'),
    coalesce('coalesce((' || s.filter || '), false)', 'true'),
    s.table_name, filter, order_by, scan_rows + 1, scan_rows, s.chunk_bytes)
    into picked, kept, last_key, n, taken, scanned, bytes using s.after_key;
  more := scanned > taken;
  last_of_scope := not more;
  insert into oneway.change_log(object_type, object_id, op, row_image)
  values (s.table_name, '{}', 'C',
          jsonb_build_object('keys', to_jsonb(keys), 'after', s.after_key, 'through', case when last_of_scope then null else last_key end,
                             'buckets', s.buckets, 'bucket', bucket, 'rows', picked,
                             'kept', case when s.filter is null then null else kept end))
  returning log_id into chunk_id;
  if last_of_scope and (s.buckets is null or s.bucket_index >= cardinality(s.wanted)) then
    finished := true;
    insert into oneway.change_log(object_type, object_id, op, row_image)
    values (s.table_name, '{}', 'E', jsonb_build_object('cancelled', false));
  end if;
  update oneway.snapshot x
     set after_key = case when last_of_scope then null else last_key end,
         bucket_index = x.bucket_index + case when last_of_scope and not finished then 1 else 0 end,
         recent_chunks = (x.recent_chunks || chunk_id)[greatest(1, cardinality(x.recent_chunks) + 2 - max_ahead):],
         rows_done = x.rows_done + n, chunks_done = x.chunks_done + 1, updated_at = now(), lock_wait_since = null,
         row_bytes = case when taken > 0 then (bytes / taken)::int else x.row_bytes end,
         state = case when finished then 'done' else x.state end,
         finished_at = case when finished then now() end
   where x.table_name = s.table_name
  returning x.rows_done, x.chunks_done into s.rows_done, s.chunks_done;
  return query select s.table_name, case when finished then 'done' else 'chunk' end, s.rows_done, s.rows_total, s.chunks_done,
                      oneway.seconds_since(s.started_at);
end $$;

revoke execute on function oneway.start_snapshot(regclass, int, int[], int, int, text), oneway.cancel_snapshot(regclass),
                           oneway.snapshot_chunk(int) from public;
grant execute on function oneway.snapshot_chunk(int), oneway.start_snapshot(regclass, int, int[], int, int, text),
                  oneway.cancel_snapshot(regclass) to oneway_sender;
grant select on oneway.snapshot to oneway_sender;
