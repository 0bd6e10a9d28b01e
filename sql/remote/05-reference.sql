-- Oneway remote side, part 5: reference mode (SPEC §2), for wide or LOB-heavy tables.
--
-- The log holds only the reference (table and key); the sender reads the current row when it
-- builds the message. Since the message carries the row as it is when sent, not as it was
-- when changed, a later change of an object whose earlier change is not yet delivered
-- (acknowledged by the central database) is refused, with SQLSTATE OW001 naming the pending
-- change. The exception is consecutive changes of one object: the new change directly follows
-- the pending one, either in the whole log (no other change logged after it) or within the
-- same transaction.

create index if not exists change_log_reference_objects on oneway.change_log (object_type, object_id) where capture_mode = 'R';

create or replace function oneway.capture_reference() returns trigger
language plpgsql as $$
declare
  key_image jsonb;
  k jsonb := '{}';
  i int;
  new_id bigint := nextval('oneway.change_log_log_id_seq');
  prev record;
begin
  if TG_OP = 'INSERT' then
    key_image := to_jsonb(NEW);
  else
    key_image := to_jsonb(OLD);
  end if;
  for i in 1 .. TG_NARGS - 1 loop
    k := k || jsonb_build_object(TG_ARGV[i], key_image -> TG_ARGV[i]);
  end loop;
  select l.log_id, p.position, l.op, l.logged_at, l.txid into prev
    from oneway.change_log l
    left join oneway.change_position p on p.log_id = l.log_id
    cross join oneway.sender_state s
   where l.capture_mode = 'R' and l.object_type = TG_ARGV[0] and l.object_id = k
     and (p.position is null or p.position > s.acked_position)
   order by l.log_id desc
   limit 1;
  -- consecutive: no other change is in the log after the pending one (ids taken by refused or
  -- rolled-back statements leave holes, so ids are compared by what the log holds), or it is
  -- the latest change of this same transaction
  if found
     and prev.log_id <> (select max(l.log_id) from oneway.change_log l where l.log_id < new_id)
     and not (prev.txid = pg_current_xact_id()::text::bigint
              and prev.log_id = (select max(l.log_id) from oneway.change_log l where l.txid = prev.txid)) then
    raise exception 'oneway: % % has an undelivered change (log id %, %, % at %)',
        TG_ARGV[0], k, prev.log_id, coalesce('position ' || prev.position, 'not yet positioned'), prev.op, prev.logged_at
      using errcode = 'OW001',
            hint = 'the table is captured in reference mode: change this object again once the central database has '
                   'acknowledged that change (see oneway.change_log_status), or right after it';
  end if;
  insert into oneway.change_log(log_id, object_type, object_id, op, capture_mode)
  values (new_id, TG_ARGV[0], k, left(TG_OP, 1), 'R');
  return null;
end $$;

-- The current row of a logged object as JSON, or null when it no longer exists. The table
-- name and key columns come from the log (written by the capture trigger) and are quoted.
create or replace function oneway.current_row(object_type text, key jsonb) returns jsonb
language plpgsql stable as $$
declare
  tbl regclass := to_regclass(object_type);
  cols text;
  r jsonb;
begin
  if tbl is null then
    return null;
  end if;
  select string_agg(quote_ident(c), ', ') into cols from jsonb_object_keys(key) c;
  execute format('select to_jsonb(t) from %s t where (%s) = (select %s from jsonb_populate_record(null::%s, $1))',
                 tbl, cols, cols, tbl)
    into r using key;
  return r;
end $$;

-- The changes the sender may send, as frames carry them: at most max_changes positioned
-- changes after position after and up to upto, before the first blocked change
-- (oneway.send_stop()), with the row of a reference-mode change read now. Positions are dense,
-- so the range itself bounds the rows read; the plan is fixed to index probes, as statistics
-- of a fast-growing log lag behind.
create or replace function oneway.sendable_changes(after bigint, upto bigint, max_changes int)
returns table ("position" bigint, txid text, tx_end boolean, object_type text, object_id text, op char(1),
               capture_mode char(1), row_image text, logged_at text)
language sql stable set enable_seqscan = off set enable_hashjoin = off set enable_mergejoin = off set jit = off as $$
select p.position, l.txid::text, p.tx_end, l.object_type, l.object_id::text, l.op, l.capture_mode,
       case when l.capture_mode = 'R' and l.op <> 'D' then oneway.current_row(l.object_type, l.object_id)::text
            else l.row_image::text end,
       l.logged_at::text
  from oneway.change_position p
  join oneway.change_log l on l.log_id = p.log_id
 where p.position > after and p.position <= least(upto, after + max_changes)
   and p.position < (select oneway.send_stop())
 order by p.position
$$;
