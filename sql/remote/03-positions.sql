-- Oneway remote side, part 3: the position assigner (SPEC §3).
--
-- Positions are gapless, strictly increasing and consistent with commit order:
-- * only rows of committed transactions are visible to the assigner, so a rolled-back
--   transaction never gets a position;
-- * a transaction's rows are numbered together, ordered by the highest statement-order
--   id of the transaction: if T2 overwrote or read and then wrote data of T1, T2's
--   later statements ran after T1 committed, so T2's highest id is above all of T1's;
-- * one assigner at a time (advisory lock), and the counter is updated in the same
--   transaction as the rows, so positions have no holes and never change;
-- * an open transaction is simply not visible yet: it stalls nobody.

-- Numbers the committed, unnumbered changes: whole transactions in order, at most
-- about max_changes (a transaction is never split, so one larger than that is
-- numbered whole). Returns one row describing what it numbered, or no row.
create or replace function oneway.assign_positions(max_changes int default 10000)
returns table (first_position bigint, last_position bigint, changes bigint, transactions bigint)
language plpgsql as $$
declare
  base bigint;
begin
  -- key: the ASCII of 'onewayap'; waits for a concurrent assigner instead of racing it
  perform pg_advisory_xact_lock(7957688980429220976);
  select c.last_position into base from oneway.position_counter c;
  return query
  with pending as (
    select l.log_id, l.txid from oneway.change_log l where l.position is null
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
  ), done as (
    update oneway.change_log l set position = nb.pos, tx_end = nb.is_end
      from numbered nb where l.log_id = nb.log_id
    returning l.position, l.txid
  )
  select min(d.position), max(d.position), count(*), count(distinct d.txid) from done d
  having count(*) > 0;
  update oneway.position_counter c
     set last_position = coalesce((select max(l.position) from oneway.change_log l
                                    where l.position > base), base);
end $$;
