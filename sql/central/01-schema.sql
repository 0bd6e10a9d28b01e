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
