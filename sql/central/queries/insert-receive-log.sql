-- One receive-log row (state R) per applied change, in the apply transaction.
insert into oneway.receive_log(source_id, position, txid, object_type, object_id, op, received_at)
values (?, ?, ?, ?, ?::jsonb, ?, ?)
