-- The receive-log rows of one run, applied (R) or skipped (S), in the apply transaction: one
-- statement with one array per column, instead of a round trip per row. The arrays are unnested
-- in the select list, where PostgreSQL (10+) walks them in step, one element of each per row, and
-- streams the rows to the insert; unnested in FROM, each row was first copied into a tuplestore
-- (a quarter of this statement's CPU, and it is the largest statement of a catch-up).
insert into oneway.receive_log(source_id, received_at, position, txid, object_type, object_id, op, state, logged_at, fingerprint)
select ?, ?, unnest(?::bigint[]), unnest(?::bigint[]), unnest(?::text[]), unnest(?::text[])::jsonb, unnest(?::text[]),
       unnest(?::text[]), unnest(?::text[])::timestamptz, unnest(?::bytea[])
