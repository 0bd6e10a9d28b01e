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
