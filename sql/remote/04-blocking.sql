-- Oneway remote side, part 4: blocked records (state B), as the founding document asks.
--
-- A record in state B is not sent, and nothing after it (in position order) is sent either:
-- the order of changes must hold on the central database. Blocking applies to changes not yet
-- acknowledged by the central side. A change that was already sent but not yet acknowledged
-- is not sent again once blocked, but a copy already in flight may still be applied; blocking
-- an acknowledged change is refused, since it is applied already.

select oneway.ensure_index('oneway.change_log_blocked_ids', $$create index change_log_blocked_ids on oneway.change_log (log_id) where state = 'B'$$);

-- The position of the first blocked change not yet acknowledged (the largest bigint when
-- nothing is blocked). PL/pgSQL, so that its plan is made once per session: a SQL function
-- with SET clauses is planned again on every call (0.15 ms, ten times its execution; every page
-- the sender reads calls it).
create or replace function oneway.blocked_stop() returns bigint
language plpgsql stable set enable_seqscan = off set enable_hashjoin = off set enable_mergejoin = off set jit = off as $$
begin
  return (select coalesce(min(p.position), 9223372036854775807)
            from oneway.change_log b
            join oneway.change_position p on p.log_id = b.log_id
            cross join oneway.sender_state s
           where b.state = 'B' and p.position > s.acked_position);
end $$;

-- Where sending stops: at the first blocked change, or everywhere while a digest mismatch
-- (08-integrity.sql) is not resolved. Both send queries read only below it.
create or replace function oneway.send_stop() returns bigint
language sql stable as $$
select case when s.diverged_at is not null then 0 else oneway.blocked_stop() end from oneway.sender_state s
$$;

-- Block one change-log record. Returns its log id.
create or replace function oneway.block_change(id bigint, reason text default null) returns bigint
language plpgsql as $$
declare
  r record;
  acked bigint;
begin
  select s.acked_position into acked from oneway.sender_state s;
  select l.log_id, p.position into r
    from oneway.change_log l left join oneway.change_position p on p.log_id = l.log_id
   where l.log_id = id for update of l;
  if not found then
    raise exception 'there is no change-log record with log id %', id using errcode = '22023';
  end if;
  if r.position is not null and r.position <= acked then
    raise exception 'change-log record % (position %) is already applied on the central database; it cannot be blocked', id, r.position
      using errcode = '55000';
  end if;
  update oneway.change_log set state = 'B', blocked_at = coalesce(blocked_at, now()), block_reason = reason where log_id = id;
  return id;
end $$;

-- Block an object: all its changes not yet acknowledged. Returns how many were blocked. The key
-- may be given with JSON numbers ({"id": 7}); the log holds text forms ({"id": "7"}).
create or replace function oneway.block_object(tbl regclass, key jsonb, reason text default null) returns int
language plpgsql as $$
declare
  qualified text := oneway.captured_name(tbl);
  n int;
begin
  update oneway.change_log l set state = 'B', blocked_at = coalesce(l.blocked_at, now()), block_reason = reason
    from oneway.sender_state s
   where l.object_type = qualified and l.object_id = oneway.key_text(key)
     and not exists (select from oneway.change_position p where p.log_id = l.log_id and p.position <= s.acked_position);
  get diagnostics n = row_count;
  if n = 0 then
    raise exception '% % has no change waiting to be sent', qualified, key using errcode = '22023';
  end if;
  return n;
end $$;

-- Unblock one record; the transfer resumes by itself once nothing blocked is ahead.
create or replace function oneway.unblock_change(id bigint) returns bigint
language plpgsql as $$
begin
  update oneway.change_log set state = 'L', blocked_at = null, block_reason = null where log_id = id and state = 'B';
  if not found then
    raise exception 'change-log record % is not blocked', id using errcode = '22023';
  end if;
  return id;
end $$;

-- Unblock all blocked records of an object. Returns how many.
create or replace function oneway.unblock_object(tbl regclass, key jsonb) returns int
language plpgsql as $$
declare
  n int;
begin
  update oneway.change_log set state = 'L', blocked_at = null, block_reason = null
   where object_type = oneway.captured_name(tbl) and object_id = oneway.key_text(key) and state = 'B';
  get diagnostics n = row_count;
  if n = 0 then
    raise exception '% % has no blocked change', tbl, key using errcode = '22023';
  end if;
  return n;
end $$;

-- The schema-qualified name a captured table's changes are logged under.
create or replace function oneway.captured_name(tbl regclass) returns text
language plpgsql stable as $$
declare
  qualified text;
begin
  select c.table_name into qualified from oneway.captured_table c where c.relid = tbl;
  if qualified is null then
    raise exception 'capture is not enabled for %', tbl using errcode = '22023';
  end if;
  return qualified;
end $$;

-- What stops the transfer: the first blocked change not yet acknowledged, since when, why,
-- and how many changes wait behind it. No row: nothing is blocked.
select oneway.ensure_view('oneway.transfer_status', $view$
select b.log_id, p.position, b.object_type, b.object_id::text as object_id, b.op, b.blocked_at, b.block_reason,
       c.last_position - p.position + (select count(*) from oneway.unpositioned_changes()) as waiting
  from oneway.change_position p
  join oneway.change_log b on b.log_id = p.log_id
  cross join oneway.position_counter c
 where p.position = (select oneway.blocked_stop())
$view$);
