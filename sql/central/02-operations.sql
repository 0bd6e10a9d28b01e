-- Oneway central side, part 2: what operators need when a source halts. Idempotent.

-- The position a halted source stopped at (the change that could not be applied).
select oneway.ensure_column('oneway.source_progress', 'halted_position', $$bigint$$);

-- Changes an operator chose to skip (./oneway skip SOURCE POSITION): never applied, and
-- recorded in the receive log with state S when the applier passes them.
create table if not exists oneway.skipped_change (
  source_id  text not null,
  position   bigint not null,
  skipped_at timestamptz not null default now(),
  primary key (source_id, position)
);

-- Receive-log states: R received and applied, S skipped by an operator.
select oneway.ensure_check('oneway.receive_log', 'receive_log_state_check', $$state in ('R', 'S')$$);

-- When each change was made on the remote (its transaction's start): lag and latency per change.
select oneway.ensure_column('oneway.receive_log', 'logged_at', $$timestamptz$$);

-- Receive-log operations: I, U, D, S for a schema change of a replicated table, Q for a sequence value,
-- B, C, E for a snapshot's begin mark, chunk and end mark (remote 11-snapshot.sql).
select oneway.ensure_check('oneway.receive_log', 'receive_log_op_check', $$op in ('I', 'U', 'D', 'S', 'Q', 'B', 'C', 'E')$$);
