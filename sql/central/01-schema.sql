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

-- The receive log (SPEC §5): one row per applied change, state R.
create table if not exists oneway.receive_log (
  source_id   text not null,
  position    bigint not null,
  txid        bigint not null,
  object_type text not null,
  object_id   jsonb not null,
  op          char(1) not null check (op in ('I', 'U', 'D')),
  state       char(1) not null default 'R' check (state in ('R')),
  received_at timestamptz not null,
  applied_at  timestamptz not null default now(),
  primary key (source_id, position)
);
comment on table oneway.receive_log is 'one row per change applied on this central database; the primary key makes a second apply of a position fail';

-- The running digest (SPEC §4) at applied_position: SHA-256(digest at p-1 || fingerprint of p),
-- from 32 zero bytes (io.oneway.wire.Fingerprint). Acks carry it; the remote compares.
select oneway.ensure_column('oneway.source_progress', 'applied_digest', $$bytea not null default '\x0000000000000000000000000000000000000000000000000000000000000000'$$);
-- The last position staged: changes of a source transaction too large for one apply transaction
-- are kept in oneway.staged_change until its end arrives, then applied together. Everything up
-- to greatest(applied_position, staged_position) is held durably and is not asked for again.
select oneway.ensure_column('oneway.source_progress', 'staged_position', $$bigint not null default 0$$);
-- Each applied change's fingerprint: the remote asks for them to find where a digest mismatch began.
select oneway.ensure_column('oneway.receive_log', 'fingerprint', $$bytea$$);

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
