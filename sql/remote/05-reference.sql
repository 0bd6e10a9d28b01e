-- Oneway remote side, part 5: reference mode (SPEC §2), for wide or LOB-heavy tables.
--
-- The log holds only the reference (table and key); the sender reads the current row when it
-- builds the message. Since the message carries the row as it is when sent, not as it was
-- when changed, a later change of an object whose earlier change is not yet delivered
-- (acknowledged by the central database) is refused, with SQLSTATE OW001 naming the pending
-- change. The exception is consecutive changes of one object: the new change directly follows
-- the pending one, either in the whole log (no other change logged after it) or within the
-- same transaction.

select oneway.ensure_index('oneway.change_log_reference_objects', $$create index change_log_reference_objects on oneway.change_log (object_type, object_id) where capture_mode = 'R'$$);

-- A change of a reference-mode table, from its generated capture function (02-capture.sql):
-- refused when an earlier change of the same object is not delivered yet, unless directly
-- consecutive; otherwise logged with its key only.
drop function if exists oneway.capture_reference();
create or replace function oneway.capture_reference(table_name text, k jsonb, change_op char(1)) returns void
language plpgsql as $$
declare
  new_id bigint := nextval('oneway.change_log_log_id_seq');
  prev record;
begin
  select l.log_id, p.position, l.op, l.logged_at, l.txid into prev
    from oneway.change_log l
    left join oneway.change_position p on p.log_id = l.log_id
    cross join oneway.sender_state s
   where l.capture_mode = 'R' and l.object_type = table_name and l.object_id = k
     and (p.position is null or p.position > s.acked_position)
   order by l.log_id desc
   limit 1;
  -- consecutive: no other change is in the log after the pending one (ids taken by refused or
  -- rolled-back statements leave holes, so ids are compared by what the log holds), or it is
  -- the latest change of this same transaction (of those logged in it: the WAL reader records
  -- its rows after it commits)
  if found
     and prev.log_id <> (select max(l.log_id) from oneway.change_log l where l.log_id < new_id)
     and not (prev.txid = pg_current_xact_id()::text::bigint
              and prev.log_id = (select max(l.log_id) from oneway.change_log l where l.txid = prev.txid and l.capture_mode <> 'W')) then
    raise exception 'oneway: % % has an undelivered change (log id %, %, % at %)',
        table_name, k, prev.log_id, coalesce('position ' || prev.position, 'not yet positioned'), prev.op, prev.logged_at
      using errcode = 'OW001',
            hint = 'the table is captured in reference mode: change this object again once the central database has '
                   'acknowledged that change (see oneway.change_log_status), or right after it';
  end if;
  insert into oneway.change_log(log_id, object_type, object_id, op, capture_mode)
  values (new_id, table_name, k, change_op, 'R');
end $$;

-- The current row of a logged object as its text-form image (shared/text-forms.sql), or null
-- when it no longer exists. The table name and key columns come from the log (written by the
-- capture trigger) and are quoted; the settings text forms depend on are pinned.
create or replace function oneway.current_row(object_type text, key jsonb) returns jsonb
language plpgsql stable
set datestyle = 'ISO, YMD' set intervalstyle = 'postgres' set timezone = 'UTC' set extra_float_digits = 3
set bytea_output = 'hex' set lc_monetary = 'C' as $$
declare
  tbl regclass := to_regclass(object_type);
  r jsonb;
begin
  if tbl is null then
    return null;
  end if;
  execute format('select %s from %s t where (%s) = (select %s from (select $1 as k) x)',
                 oneway.image_expression(array(select c.name from oneway.stored_columns(tbl) c), 't'), tbl,
                 (select string_agg(format('t.%I::text', c), ', ') from jsonb_object_keys(key) c),
                 (select string_agg(format('x.k ->> %L', c), ', ') from jsonb_object_keys(key) c))
    into r using key;
  return r;
end $$;

-- The changes the sender may send, as frames carry them: positioned changes after position
-- after and up to upto, at most max_changes of them and, beyond the first, at most max_bytes of
-- key and row text, before the first blocked change (oneway.send_stop()); the row of a
-- reference-mode change is read now. A change whose key and row are over max_change_bytes comes
-- last, without its row (row_image null, row_bytes its size): the sender blocks it instead of
-- sending it. Positions are dense, so the range bounds the rows read; the plan is fixed to index
-- probes, as statistics of a fast-growing log lag behind, and planned once per session (a plan per
-- call was a twentieth of the remote server's time in a catch-up).
drop function if exists oneway.sendable_changes(bigint, bigint, int);
create or replace function oneway.sendable_changes(after bigint, upto bigint, max_changes int, max_bytes bigint, max_change_bytes bigint)
returns table ("position" bigint, txid text, tx_end boolean, object_type text, object_id text, op char(1),
               capture_mode char(1), row_image text, logged_at text, row_bytes bigint)
language plpgsql stable set enable_seqscan = off set enable_hashjoin = off set enable_mergejoin = off set jit = off
set plan_cache_mode = force_generic_plan as $$
declare
  r record;
  total bigint := 0;
  size bigint;
  image text;
begin
  for r in
    select p.position as pos, l.txid as tx, p.tx_end as te, l.object_type as ot, l.object_id as k, l.op as o,
           l.capture_mode as cm, l.row_image as ri, l.logged_at as la
      from oneway.change_position p
      join oneway.change_log l on l.log_id = p.log_id
     where p.position > after and p.position <= least(upto, after + max_changes)
       and p.position < (select oneway.send_stop())
     order by p.position
  loop
    image := case when r.cm = 'R' and r.o <> 'D' then oneway.current_row(r.ot, r.k)::text else r.ri::text end;
    -- the key's text is made once, for its size and the result (jsonb output, per row)
    object_id := r.k::text;
    size := octet_length(object_id) + coalesce(octet_length(image), 0);
    exit when total > 0 and total + size > max_bytes;
    total := total + size;
    "position" := r.pos;
    txid := r.tx::text;
    tx_end := r.te;
    object_type := r.ot;
    op := r.o;
    capture_mode := r.cm;
    row_image := case when size > max_change_bytes then null else image end;
    logged_at := oneway.wire_time(r.la);
    row_bytes := size;
    return next;
    exit when size > max_change_bytes;
  end loop;
end $$;
