-- Oneway remote side, part 8: the end-to-end digest (SPEC §4) and integrity alarms.
--
-- The central database's ack carries a running digest of the changes it applied: at position p,
-- SHA-256(digest at p-1 || fingerprint of p), from 32 zero bytes. A fingerprint is the SHA-256
-- of the change's fields as the wire carries them (io.oneway.wire.Fingerprint; a reference-mode
-- change leaves its row out, since a resend reads the row anew). The sender recomputes the
-- digest here from the log and records the ack only when both agree.

-- One field in the form integrity codes and fingerprints are computed over: a 0 byte, the
-- UTF-8 length (4 bytes, big-endian) and the UTF-8 bytes; a single 0xFF byte for null
-- (io.oneway.wire.FieldEncoding writes the same). Stable, as convert_to is (see wire_time).
create or replace function oneway.wire_field(t text) returns bytea
language sql stable parallel safe as $$
select case when t is null then '\xff'::bytea
            else '\x00'::bytea || int4send(octet_length(convert_to(t, 'UTF8'))) || convert_to(t, 'UTF8') end
$$;

-- A change's logged time as the wire carries it: ISO-8601 in UTC with microseconds, whatever the
-- session's TimeZone and DateStyle. Stable, as to_char is: a SQL function declared immutable
-- around a stable one is not inlined, and every call of it cost ~2 us through the function
-- executor (sendable_changes makes one per change sent).
create or replace function oneway.wire_time(t timestamptz) returns text
language sql stable parallel safe as $$
select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$$;

-- The fingerprints of positions after..upto, in position order.
create or replace function oneway.change_fingerprints(after bigint, upto bigint)
returns table ("position" bigint, fingerprint bytea)
language sql stable set enable_seqscan = off set enable_hashjoin = off set enable_mergejoin = off set jit = off as $$
select p.position,
       sha256(oneway.wire_field(p.position::text) || oneway.wire_field(l.txid::text) || oneway.wire_field(p.tx_end::text)
              || oneway.wire_field(l.object_type) || oneway.wire_field(l.op::text)
              || oneway.wire_field((l.capture_mode = 'R')::text) || oneway.wire_field(l.object_id::text)
              || oneway.wire_field(case when l.capture_mode = 'R' then null else l.row_image::text end)
              || oneway.wire_field(oneway.wire_time(l.logged_at)))
  from oneway.change_position p
  join oneway.change_log l on l.log_id = p.log_id
 where p.position > after and p.position <= upto
 order by p.position
$$;

-- Records an integrity alarm, or counts a repeat of the open alarm of that kind. Returns its id.
create or replace function oneway.raise_alarm(alarm_kind text, alarm_detail text) returns bigint
language plpgsql as $$
declare
  alarm_id bigint;
begin
  update oneway.integrity_alarm a set occurrences = a.occurrences + 1, last_at = now(), detail = alarm_detail
   where a.kind = alarm_kind and a.cleared_at is null
  returning a.id into alarm_id;
  if alarm_id is null then
    insert into oneway.integrity_alarm(kind, detail) values (alarm_kind, alarm_detail) returning id into alarm_id;
  end if;
  return alarm_id;
end $$;

-- ./oneway clear-alarms: an operator has looked at the open alarms. Returns how many were cleared.
create or replace function oneway.clear_alarms() returns bigint
language sql as $$
with cleared as (update oneway.integrity_alarm set cleared_at = now() where cleared_at is null returning 1)
select count(*) from cleared
$$;

-- A digest mismatch: the central database's digest at diverged_to differs from this remote's.
-- Nothing is sent from now on (oneway.send_stop()).
create or replace function oneway.record_divergence(from_position bigint, to_position bigint, their_digest bytea) returns void
language sql as $$
update oneway.sender_state
   set diverged_at = coalesce(diverged_at, now()), diverged_from = from_position, diverged_to = to_position,
       central_digest = their_digest, diverged_position = null
$$;

-- ./oneway resume-transfer, after an operator repaired the central rows of a digest mismatch:
-- takes the central database's digest as the new base, counts the diverged range as
-- delivered, and lets sending go on.
create or replace function oneway.resume_transfer() returns bigint
language plpgsql as $$
declare
  upto bigint;
begin
  update oneway.sender_state
     set acked_position = greatest(acked_position, diverged_to), acked_digest = central_digest, acked_at = now(),
         received_position = greatest(received_position, diverged_to),
         diverged_at = null, diverged_from = null, diverged_to = null, diverged_position = null, central_digest = null
   where diverged_at is not null
  returning acked_position into upto;
  if upto is null then
    raise exception 'the transfer is not halted by a digest mismatch' using errcode = '55000';
  end if;
  return upto;
end $$;

-- A change over oneway.wire.max-change-bytes: blocked, with the reason, so that the transfer
-- stops loudly at it (SPEC §4 sizes) instead of sending it forever. Runs with its owner's
-- rights: the sender may block this way and no other.
create or replace function oneway.block_oversized(at_position bigint, size_bytes bigint, limit_bytes bigint) returns bigint
language plpgsql security definer as $$
declare
  id bigint;
begin
  select p.log_id into id from oneway.change_position p where p.position = at_position;
  if id is null then
    raise exception 'there is no change at position %', at_position using errcode = '22023';
  end if;
  update oneway.change_log
     set state = 'B', blocked_at = coalesce(blocked_at, now()),
         block_reason = format('key and row are %s bytes, over oneway.wire.max-change-bytes (%s): raise the setting '
                               'on both sides and unblock, or block and repair the row by hand', size_bytes, limit_bytes)
   where log_id = id;
  return id;
end $$;

-- The sender records acks, the digest, a divergence and integrity alarms, and blocks a change
-- too large to send (through oneway.block_oversized, which application users may not call).
grant select, insert, update on oneway.integrity_alarm to oneway_sender;
revoke execute on function oneway.block_oversized(bigint, bigint, bigint) from public;
grant execute on function oneway.block_oversized(bigint, bigint, bigint) to oneway_sender;
