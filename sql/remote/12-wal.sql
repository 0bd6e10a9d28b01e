-- Oneway remote side, part 12: capture from the WAL (logical decoding with the built-in pgoutput
-- plugin; PostgreSQL 15 or later, wal_level = logical).
--
-- Tables captured in mode 'wal' have no capture trigger: a writer pays only for its own WAL. The
-- replicator's WAL reader (io.oneway.capture.WalReader) reads the slot and, for every source
-- transaction in commit order, records its changes in the change log and numbers them. The
-- change-log rows that others insert (reference mode, schema changes, sequences, snapshot chunks)
-- come through the same stream (publication oneway_log) at their place in their transaction, so
-- the reader numbers everything, and positions follow the commit order exactly. The reader's own
-- rows (capture_mode 'W') are filtered out of that publication. The slot's confirmed position
-- moves only after the rows are committed; position_counter.wal_lsn, written in the same
-- transaction as the rows, tells a reader started again which transactions it already recorded.

-- The 64-bit id of a transaction the WAL names by its 32-bit xid, given the current 64-bit xmax:
-- the transaction ran recently (a slot holds the xid horizon back), so its epoch is the current
-- one or the one before.
create or replace function oneway.full_xid(xid bigint, current_xmax bigint) returns bigint
language sql immutable as $$
select case when xid < (current_xmax & 4294967295) then (current_xmax >> 32 << 32) | xid
            else ((current_xmax >> 32) - 1 << 32) | xid end
$$;

-- The publications the WAL reader reads: the tables captured in mode 'wal', and the change-log
-- rows everybody else inserts. Made by the reader before it creates its slot, so that every
-- transaction the slot decodes began after them.
create or replace function oneway.prepare_wal_capture() returns void
language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
begin
  if current_setting('server_version_num')::int < 150000 then
    raise exception 'capture from the WAL needs PostgreSQL 15 or later (this is %)', current_setting('server_version')
      using errcode = '0A000', hint = 'set oneway.capture.from-wal = false: triggers capture on any version';
  end if;
  if current_setting('wal_level') <> 'logical' then
    raise exception 'capture from the WAL needs wal_level = logical (it is %)', current_setting('wal_level')
      using errcode = '55000', hint = 'set wal_level = logical in postgresql.conf and restart PostgreSQL, '
                                      'or set oneway.capture.from-wal = false';
  end if;
  if not exists (select from pg_publication where pubname = 'oneway_tables') then
    create publication oneway_tables with (publish = 'insert, update, delete');
  end if;
  if not exists (select from pg_publication where pubname = 'oneway_log') then
    create publication oneway_log for table oneway.change_log where (capture_mode <> 'W') with (publish = 'insert');
  end if;
end $$;

-- Makes the WAL reader the one that numbers changes, once its slot exists: the position assigner
-- numbers everything committed before the slot began (all of it is visible now), then stops for
-- good. A transaction that both the assigner numbered here and the slot decodes is known by its
-- log ids and not numbered again (record_wal_changes).
create or replace function oneway.start_wal_positions(slot text) returns void
language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
begin
  perform pg_advisory_xact_lock(7957688980429220976);
  if (select c.wal_slot from oneway.position_counter c) is not null then
    return;
  end if;
  perform oneway.assign_positions(2147483647);
  update oneway.position_counter set wal_slot = slot, wal_lsn = null, wal_items = 0, wal_done = true;
end $$;

-- Records and numbers a run of decoded changes (a batch of the WAL reader). items: JSON array in
-- commit order, each {x: xid, e: last of its transaction, a: commit time, and either l: the log
-- id of a change-log row its transaction inserted, or t, k, o, r: table, key, op and row image of
-- a change to a table captured from the WAL}. through_lsn, through_items, done: the last
-- transaction in the run (its commit LSN, how many of its items are recorded with this run,
-- whether that is all of them). Returns what it numbered, as assign_positions does.
-- items comes as json and each item is made jsonb on its own: jsonb input of the whole array took
-- six times as long as of its items one by one (24 ms against 4 for 2,000 changes of the benchmark),
-- and the statement about half as long on batches of 500 changes or more (BENCHMARKS.md).
drop function if exists oneway.record_wal_changes(jsonb, pg_lsn, bigint, boolean);
create or replace function oneway.record_wal_changes(items json, through_lsn pg_lsn, through_items bigint, done boolean)
returns table (first_position bigint, last_position bigint, changes bigint, transactions bigint)
language plpgsql security definer set search_path = pg_catalog, pg_temp set jit = off as $$
declare
  base bigint;
  xmax bigint := pg_snapshot_xmax(pg_current_snapshot())::text::bigint;
  result record;
begin
  select c.last_position into base from oneway.position_counter c for update;
  with item as (
    select (j ->> 'x')::bigint as x, (j ->> 'e')::boolean as e, (j ->> 'l')::bigint as l, j ->> 't' as t, j -> 'k' as k,
           j ->> 'o' as o, j -> 'r' as r, (j ->> 'a')::timestamptz as a, s.n
      -- offset 0: made jsonb once per item, not once per field read from it
      from (select s.item::jsonb as j, s.n from json_array_elements(items) with ordinality as s(item, n) offset 0) s
  ), kept as (
    -- rows the assigner numbered while the reader started (start_wal_positions) are not numbered twice
    select i.*, row_number() over (order by i.n) as seq from item i
     where i.l is null or not exists (select from oneway.change_position p where p.log_id = i.l)
  ), numbered as materialized (
    select k.*, base + k.seq as pos, coalesce(k.l, nextval('oneway.change_log_log_id_seq')) as id from kept k
  ), logged as (
    insert into oneway.change_log(log_id, txid, object_type, object_id, op, capture_mode, row_image, logged_at)
    select nb.id, oneway.full_xid(nb.x, xmax), nb.t, nb.k, nb.o, 'W', nb.r, nb.a from numbered nb where nb.l is null
  ), positioned as (
    insert into oneway.change_position(position, log_id, tx_end)
    select nb.pos, nb.id, nb.e from numbered nb
    returning oneway.change_position.position, oneway.change_position.tx_end
  )
  select min(ps.position) as first_position, max(ps.position) as last_position, count(*) as changes,
         count(*) filter (where ps.tx_end) as transactions
    into result from positioned ps;
  update oneway.position_counter c
     set last_position = coalesce(result.last_position, c.last_position),
         wal_lsn = through_lsn, wal_items = through_items, wal_done = done;
  if result.changes > 0 then
    return query select result.first_position, result.last_position, result.changes, result.transactions;
  end if;
end $$;

-- The slot as the status and the health check see it: how much WAL it holds back, and whether
-- PostgreSQL still keeps what it needs (wal_status 'lost': max_slot_wal_keep_size was passed and
-- changes are gone from the WAL; the slot must be made again and the tables onboarded again).
select oneway.ensure_view('oneway.wal_slot_status', $view$
select c.wal_slot as slot_name, s.active, s.wal_status,
       pg_wal_lsn_diff(pg_current_wal_lsn(), s.confirmed_flush_lsn)::bigint as behind_bytes,
       s.safe_wal_size, c.wal_lsn as recorded_through
  from oneway.position_counter c
  left join pg_replication_slots s on s.slot_name = c.wal_slot
 where c.wal_slot is not null
$view$);

revoke execute on function oneway.prepare_wal_capture(), oneway.start_wal_positions(text),
  oneway.record_wal_changes(json, pg_lsn, bigint, boolean) from public;
-- the replicator's remote connection (06-roles.sql); for the WAL its user also needs the REPLICATION attribute
grant execute on function oneway.prepare_wal_capture(), oneway.start_wal_positions(text),
  oneway.record_wal_changes(json, pg_lsn, bigint, boolean) to oneway_sender;
grant select on oneway.wal_slot_status to oneway_sender;
