-- The receive log of one page of an apply run, applied (R) or skipped (S), in the apply transaction:
-- one row of oneway.receive_run, one array element per change (01-schema.sql).
insert into oneway.receive_run(source_id, received_at, first_position, last_position, txids, object_types, object_ids, ops, states,
                               logged_at, fingerprints, skipped)
values (?, ?, ?, ?, ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], cast(?::text[] as timestamptz[]), ?::bytea[], ?)
