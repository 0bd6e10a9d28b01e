-- The receive-log rows of one run, applied (R) or skipped (S), in the apply transaction: one
-- statement with one array per column, instead of a round trip per row.
insert into oneway.receive_log(source_id, position, txid, object_type, object_id, op, received_at, state, logged_at, fingerprint)
select ?, r.position, r.txid, r.object_type, r.object_id::jsonb, r.op, ?, r.state, r.logged_at::timestamptz, r.fingerprint
  from unnest(?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bytea[])
       as r(position, txid, object_type, object_id, op, state, logged_at, fingerprint)
