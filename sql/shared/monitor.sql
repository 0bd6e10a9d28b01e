-- Oneway, both sides: what the replicator found at its last check, for ./oneway status and for
-- anyone watching the database: one row per component (the transfer of a remote, each source
-- on the central database), the stalls in force, backlog and lag. checked_at tells whether the
-- replicator still runs: it is written at every check.
create table if not exists oneway.monitor_state (
  component   text primary key,
  stalls      text not null,
  backlog     bigint,
  lag_seconds double precision,
  checked_at  timestamptz not null
);
-- a source's clock against the central replicator's (its changes' times are read on it), as the
-- source's heartbeats tell; the lag is already counted on the replicator's clock
alter table oneway.monitor_state add column if not exists source_clock_behind_seconds double precision;
