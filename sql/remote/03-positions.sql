-- Oneway remote side, part 3: the position assigner (SPEC §3).
--
-- Positions are gapless, strictly increasing and consistent with commit order:
-- * only rows of committed transactions are visible to the assigner, so a rolled-back
--   transaction never gets a position;
-- * a transaction's rows are numbered together, ordered by the highest statement-order
--   id of the transaction: if T2 overwrote or read and then wrote data of T1, T2's
--   later statements ran after T1 committed, so T2's highest id is above all of T1's;
-- * one assigner at a time (advisory lock), and the counter is updated in the same
--   transaction as the positions, so positions have no holes and never change;
-- * an open transaction is simply not visible yet: it stalls nobody.
--
-- Finding new rows without scanning the log: a pass sees every committed transaction that
-- its snapshot does not list as running. So after a pass, a change it did not number belongs
-- to a transaction that was running at its snapshot (pg_snapshot_xip), or started later (id
-- at or above pg_snapshot_xmax), or was left for the next pass by max_changes (id at or above
-- the lowest such). The next pass reads only those transaction ids, through the txid index:
-- a long-running writer costs one index probe per pass, not a rescan of everything since it
-- began.

-- The changes not numbered yet that the caller's snapshot can see: rows of committed
-- transactions (and the caller's own). The plan is fixed to index probes (txid range, then
-- change_position by log_id): a log that grew since its last ANALYZE has no statistics for
-- the newest transaction ids, and the planner would read both tables whole at every pass.
-- (With scans costed as disabled, JIT would compile every call: it is off.) The query is planned
-- for each call's own bounds (force_custom_plan): a generic plan guesses that a third of the log is
-- new, and chose a parallel scan that started two workers at every pass, 65 ms alone and over
-- 300 ms under load, against about 1 ms; the assigner's passes were the remote database's largest
-- use of time while a writer ran at full speed, and it took that time from the writer.
create or replace function oneway.unpositioned_changes()
returns table (log_id bigint, txid bigint, logged_at timestamptz)
language plpgsql stable
set enable_seqscan = off set enable_hashjoin = off set enable_mergejoin = off set jit = off
set plan_cache_mode = force_custom_plan set max_parallel_workers_per_gather = 0 as $$
declare
  from_txid bigint;
  open_ids bigint[];
begin
  select c.scan_from, c.open_txids into from_txid, open_ids from oneway.position_counter c;
  return query
  select l.log_id, l.txid, l.logged_at from oneway.change_log l
   where (l.txid >= from_txid or l.txid = any (open_ids)) and l.capture_mode <> 'W'
     and not exists (select from oneway.change_position p where p.log_id = l.log_id);
end $$;

-- Numbers the committed, unnumbered changes: whole transactions in order, at most
-- about max_changes (a transaction is never split, so one larger than that is
-- numbered whole). Returns one row describing what it numbered, or no row.
create or replace function oneway.assign_positions(max_changes int default 10000)
returns table (first_position bigint, last_position bigint, changes bigint, transactions bigint)
language plpgsql set jit = off set plan_cache_mode = force_custom_plan set max_parallel_workers_per_gather = 0 as $$
declare
  base bigint;
  snap pg_snapshot;
  done record;
  wal boolean;
begin
  -- key: the ASCII of 'onewayap'; waits for a concurrent assigner instead of racing it
  perform pg_advisory_xact_lock(7957688980429220976);
  select c.last_position, c.wal_slot is not null into base, wal from oneway.position_counter c;
  -- changes are numbered by the WAL reader once it started (12-wal.sql)
  if wal then
    return;
  end if;
  -- taken before the scan: every transaction the scan cannot see runs at this snapshot or
  -- starts after it
  snap := pg_current_snapshot();
  with pending as materialized (
    select u.log_id, u.txid from oneway.unpositioned_changes() u
  ), groups as (
    select p.txid, max(p.log_id) as last_log_id, count(*) as n from pending p group by p.txid
  ), ranked as (
    select g.*, sum(g.n) over (order by g.last_log_id) as upto from groups g
  ), picked as (
    select r.txid, r.last_log_id from ranked r where r.upto - r.n < max_changes
  ), numbered as (
    select p.log_id, base + row_number() over (order by k.last_log_id, p.log_id) as pos,
           p.log_id = k.last_log_id as is_end
      from pending p join picked k on k.txid = p.txid
  ), inserted as (
    insert into oneway.change_position(position, log_id, tx_end)
    select nb.pos, nb.log_id, nb.is_end from numbered nb
    returning oneway.change_position.position, oneway.change_position.tx_end
  )
  select (select min(i.position) from inserted i) as first_position,
         (select max(i.position) from inserted i) as last_position,
         (select count(*) from inserted i) as changes,
         (select count(*) filter (where i.tx_end) from inserted i) as transactions,
         (select min(r.txid) from ranked r where r.upto - r.n >= max_changes) as left_from
    into done;
  -- nothing numbered: the bounds of the previous pass still hold, and an idle poll writes nothing
  if done.changes = 0 then
    return;
  end if;
  update oneway.position_counter c
     set last_position = done.last_position,
         scan_from = least(pg_snapshot_xmax(snap)::text::bigint, done.left_from),
         open_txids = array(select x::text::bigint from pg_snapshot_xip(snap) x);
  return query select done.first_position, done.last_position, done.changes, done.transactions;
end $$;
