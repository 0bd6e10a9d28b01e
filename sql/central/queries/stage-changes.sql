-- Changes of a large source transaction, kept until its end arrives: one statement, one array per column.
insert into oneway.staged_change(source_id, received_at, position, txid, tx_end, object_type, op, reference, object_id, row_image, logged_at)
select ?, ?, r.position, r.txid, r.tx_end, r.object_type, r.op, r.reference, r.object_id, r.row_image, r.logged_at
  from unnest(?::bigint[], ?::bigint[], ?::boolean[], ?::text[], ?::text[], ?::boolean[], ?::text[], ?::text[], ?::text[])
       as r(position, txid, tx_end, object_type, op, reference, object_id, row_image, logged_at)
