-- Oneway central side, part 1: per-source progress and the receive log.
-- Idempotent: safe to run at every start.

create schema if not exists oneway;

-- One row per remote source: the position applied last (everything at or below it is
-- applied), the incarnation the source was first seen with, and whether it is halted.
create table if not exists oneway.source_progress (
  source_id        text primary key,
  incarnation      uuid,
  applied_position bigint not null default 0,
  applied_at       timestamptz,
  halted           boolean not null default false,
  halt_reason      text,
  halted_at        timestamptz
);

-- The receive log (SPEC §5), kept as one row per apply run: the run's consecutive positions
-- first..last, with one array element per change (its transaction, table, key, operation, state,
-- logged time and fingerprint) and the run's received and applied times. A row per change cost
-- the central database more than applying the changes did (a catch-up's largest statement: a
-- heap and an index entry, a jsonb and a timestamptz parse per change); a row per run is one
-- heap row and one index entry for up to oneway.apply.max-run changes, and a quarter of the
-- space. The view oneway.receive_log below reads it as one row per change. Keys are kept as the
-- JSON text received (byte for byte what the fingerprint covers), read as jsonb by the view.
-- A second apply of a position is refused by the source's progress row, locked and compared in
-- every apply transaction (the applier's StaleProgressException); the primary key refuses a run
-- written twice.
create table if not exists oneway.receive_run (
  source_id      text not null,
  first_position bigint not null,
  last_position  bigint not null,
  received_at    timestamptz not null,
  applied_at     timestamptz not null default now(),
  txids          bigint[] not null,
  object_types   text[] not null,
  object_ids     text[] not null,
  ops            text[] not null,
  states         text[] not null,
  logged_at      timestamptz[] not null,
  fingerprints   bytea[] not null,
  skipped        int not null default 0,
  primary key (source_id, first_position),
  constraint receive_run_shape check (last_position >= first_position
    and cardinality(txids) = last_position - first_position + 1 and cardinality(object_types) = cardinality(txids)
    and cardinality(object_ids) = cardinality(txids) and cardinality(ops) = cardinality(txids)
    and cardinality(states) = cardinality(txids) and cardinality(logged_at) = cardinality(txids)
    and cardinality(fingerprints) = cardinality(txids)),
  -- I, U, D; S a schema change of a replicated table, Q a sequence value, B, C, E a snapshot's
  -- begin mark, chunk and end mark (remote 11-snapshot.sql)
  constraint receive_run_ops check (ops <@ array['I', 'U', 'D', 'S', 'Q', 'B', 'C', 'E']),
  -- R received and applied, S skipped by an operator (02-operations.sql)
  constraint receive_run_states check (states <@ array['R', 'S'] and skipped = cardinality(array_positions(states, 'S')))
);
comment on table oneway.receive_run is 'the receive log, one row per apply run of consecutive positions; read per change through oneway.receive_log';
-- ./oneway status counts skipped changes without reading every run
select oneway.ensure_index('oneway.receive_run_skipped', 'create index receive_run_skipped on oneway.receive_run (source_id) where skipped > 0');
-- lz4 compresses a run's arrays at a tenth of pglz's cost. Whether this server was built with it
-- is asked of a setting first: ALTER TABLE would lock the table even to fail.
do $$
declare
  prior text := current_setting('default_toast_compression');
begin
  if (select attcompression from pg_attribute where attrelid = 'oneway.receive_run'::regclass and attname = 'object_ids') = 'l' then
    return;
  end if;
  begin
    perform set_config('default_toast_compression', 'lz4', true);
  exception when invalid_parameter_value then
    return;
  end;
  perform set_config('default_toast_compression', prior, true);
  alter table oneway.receive_run alter column txids set compression lz4, alter column object_types set compression lz4,
    alter column object_ids set compression lz4, alter column ops set compression lz4, alter column states set compression lz4,
    alter column logged_at set compression lz4, alter column fingerprints set compression lz4;
end $$;

-- An install of an earlier version kept a table oneway.receive_log of one row per change: its rows
-- become runs of one change, and the table gives its name to the view.
do $$ begin
  if (select c.relkind from pg_class c where c.oid = to_regclass('oneway.receive_log')) = 'r' then
    alter table oneway.receive_log add column if not exists fingerprint bytea, add column if not exists logged_at timestamptz;
    insert into oneway.receive_run(source_id, first_position, last_position, received_at, applied_at, txids, object_types, object_ids,
                                   ops, states, logged_at, fingerprints, skipped)
    select l.source_id, l.position, l.position, l.received_at, l.applied_at, array[l.txid], array[l.object_type], array[l.object_id::text],
           array[l.op::text], array[l.state::text], array[l.logged_at], array[l.fingerprint], (l.state = 'S')::int
      from oneway.receive_log l;
    drop table oneway.receive_log;
  end if;
end $$;

-- The receive log, one row per applied change: source, position, transaction, table, key,
-- operation, state, received and applied times, logged time and fingerprint. A query by
-- position is best bounded by first_position on oneway.receive_run (its primary key).
select oneway.ensure_view('oneway.receive_log', $view$
select r.source_id, r.first_position + c.n - 1 as position, c.txid, c.object_type, c.object_id::jsonb as object_id,
       c.op::char(1) as op, c.state::char(1) as state, r.received_at, r.applied_at, c.fingerprint, c.logged_at
  from oneway.receive_run r
  cross join lateral unnest(r.txids, r.object_types, r.object_ids, r.ops, r.states, r.logged_at, r.fingerprints)
       with ordinality as c(txid, object_type, object_id, op, state, logged_at, fingerprint, n)
$view$);
comment on view oneway.receive_log is 'one row per change applied on this central database (SPEC §5), read from oneway.receive_run';

-- The running digest (SPEC §4) at applied_position: SHA-256(digest at p-1 || fingerprint of p),
-- from 32 zero bytes (io.oneway.wire.Fingerprint). Acks carry it; the remote compares.
select oneway.ensure_column('oneway.source_progress', 'applied_digest', $$bytea not null default '\x0000000000000000000000000000000000000000000000000000000000000000'$$);
-- The last position staged: changes of a source transaction too large for one apply transaction
-- are kept in oneway.staged_change until its end arrives, then applied together. Everything up
-- to greatest(applied_position, staged_position) is held durably and is not asked for again.
select oneway.ensure_column('oneway.source_progress', 'staged_position', $$bigint not null default 0$$);

-- Changes of a large source transaction whose end has not arrived yet (as PostgreSQL's logical
-- replication streams large in-progress transactions to disk): key, row and logged time as the
-- exact text received. Applied and deleted in one transaction when the source transaction ends.
create table if not exists oneway.staged_change (
  source_id   text not null,
  position    bigint not null,
  txid        bigint not null,
  tx_end      boolean not null,
  object_type text not null,
  op          char(1) not null,
  reference   boolean not null,
  object_id   text not null,
  row_image   text,
  logged_at   text not null,
  received_at timestamptz not null,
  primary key (source_id, position)
);

-- Tables of a source whose snapshot runs (remote 11-snapshot.sql): from its begin mark to its end
-- mark their changes are applied leniently, since a row not reloaded yet may be missing or stale
-- here. Written in the apply transaction of the marks, so a restart goes on exactly where it was.
create table if not exists oneway.snapshot_state (
  source_id   text not null,
  table_name  text not null,
  begun_at    bigint not null,
  rows_total  bigint not null,
  rows_loaded bigint not null default 0,
  chunks      bigint not null default 0,
  primary key (source_id, table_name)
);
comment on column oneway.snapshot_state.begun_at is 'position of the begin mark';
