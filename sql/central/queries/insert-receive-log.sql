-- One receive-log row per applied (R) or skipped (S) change, in the apply transaction.
insert into oneway.receive_log(source_id, position, txid, object_type, object_id, op, received_at, state, logged_at)
values (?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?::timestamptz)
