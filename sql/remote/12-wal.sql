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
    create publication oneway_tables with (publish = 'insert, update, delete', publish_via_partition_root = true);
  end if;
  if not exists (select from pg_publication where pubname = 'oneway_log') then
    create publication oneway_log for table oneway.change_log where (capture_mode <> 'W') with (publish = 'insert');
  end if;
end $$;

-- A partition's changes are read as its captured table's, under the table's name and columns,
-- as a trigger logs them (a publication made before 2026-12-06 published them as the partition's).
do $$ begin
  if exists (select from pg_publication where pubname = 'oneway_tables' and not pubviaroot) then
    alter publication oneway_tables set (publish_via_partition_root = true);
  end if;
end $$;

-- Makes the WAL reader the one that numbers changes, once its slot exists: the position assigner
-- numbers everything committed before the slot began (all of it is visible now), then stops for
-- good. A transaction that both the assigner numbered here and the slot decodes is known by its
-- log ids and not numbered again (begin_wal_recording).
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

-- Recording a run of decoded changes (a batch of the WAL reader, io.oneway.capture.WalRecording)
-- is one transaction: begin_wal_recording, then COPY of the new change-log rows and of every
-- change's position, then end_wal_recording. COPY writes a page of rows as one WAL record where
-- INSERT writes one per row, and the WAL sender reads and decodes every record of this database,
-- the recording's own included. With the rows also left out of the txid index (01-schema.sql),
-- 300,000 changes recorded on a scratch cluster wrote 0.92 million WAL records instead of 1.82, and
-- took the WAL sender 1.6 CPU seconds instead of 4.0 (BENCHMARKS.md).
drop function if exists oneway.record_wal_changes(jsonb, pg_lsn, bigint, boolean);
drop function if exists oneway.record_wal_changes(json, pg_lsn, bigint, boolean);
drop function if exists oneway.full_xid(bigint, bigint);

-- Locks the counter for the run and returns what numbering it needs: the last position, the
-- current 64-bit xmax (the WAL names a transaction by its 32-bit xid: it ran recently, as a slot
-- holds the xid horizon back, so its epoch is xmax's or the one before), a log id for each of the
-- run's new rows, and which of the change-log rows its transactions inserted are numbered already
-- (the assigner numbered them while the reader started: start_wal_positions).
create or replace function oneway.begin_wal_recording(new_rows int, logged_ids bigint[])
returns table (last_position bigint, current_xmax bigint, new_ids bigint[], numbered_ids bigint[])
language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
begin
  return query
  select c.last_position, pg_snapshot_xmax(pg_current_snapshot())::text::bigint,
         array(select nextval('oneway.change_log_log_id_seq') from generate_series(1, new_rows)),
         array(select p.log_id from oneway.change_position p where p.log_id = any (logged_ids))
    from oneway.position_counter c for update;
end $$;

-- Ends the run: the counter moves to its last position, and position_counter.wal_* say how far
-- the change log now holds the stream (through_lsn: the commit LSN of the run's last
-- transaction; through_items: how many of its items are recorded; done: whether that is all).
-- Refuses a run whose positions are not the next ones without a gap: the central database would
-- wait for the missing ones for ever. The count reads the run's positions by the index: with
-- statistics from when the table was small, the planner read all of it (60 ms a run at 600,000
-- positions, 17 of the recording's seconds in a benchmark load).
create or replace function oneway.end_wal_recording(run_last_position bigint, through_lsn pg_lsn, through_items bigint, done boolean)
returns void
language plpgsql security definer set search_path = pg_catalog, pg_temp
set enable_seqscan = off set max_parallel_workers_per_gather = 0 set jit = off as $$
declare
  base bigint;
begin
  select c.last_position into base from oneway.position_counter c for update;
  if (select count(*) from oneway.change_position p where p.position > base) <> run_last_position - base then
    raise exception 'a WAL recording run numbered % changes after position % but wrote % positions', run_last_position - base, base,
      (select count(*) from oneway.change_position p where p.position > base) using errcode = 'P0001';
  end if;
  update oneway.position_counter c
     set last_position = run_last_position, wal_lsn = through_lsn, wal_items = through_items, wal_done = done;
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
  oneway.begin_wal_recording(int, bigint[]), oneway.end_wal_recording(bigint, pg_lsn, bigint, boolean) from public;
-- the replicator's remote connection (06-roles.sql); for the WAL its user also needs the REPLICATION attribute
grant execute on function oneway.prepare_wal_capture(), oneway.start_wal_positions(text),
  oneway.begin_wal_recording(int, bigint[]), oneway.end_wal_recording(bigint, pg_lsn, bigint, boolean) to oneway_sender;
-- the reader's COPY of a run's rows (change_position: 06-roles.sql)
grant insert (log_id, txid, object_type, object_id, op, capture_mode, row_image, logged_at) on oneway.change_log to oneway_sender;
grant select on oneway.wal_slot_status to oneway_sender;
