-- Oneway remote side, part 1: the change log and the tables the capture and the
-- position assigner keep their state in. Idempotent: safe to run at every start.

create schema if not exists oneway;

-- One row: who this database is. The incarnation changes when the schema is
-- installed anew, so a central database can tell a restored or re-created remote
-- from the one it has been replicating.
create table if not exists oneway.node (
  singleton   boolean primary key default true check (singleton),
  incarnation uuid not null default gen_random_uuid(),
  installed_at timestamptz not null default now()
);
insert into oneway.node default values on conflict do nothing;

-- Statement-order id: taken by the capture trigger inside the writer's transaction.
-- CACHE 1 so that ids follow the order in which statements ran across sessions.
create sequence if not exists oneway.change_log_log_id_seq cache 1;

-- The change log (SPEC §2). One row per changed row, written by the capture trigger inside
-- the writer's transaction and never updated by the replicator: the position assigner numbers
-- rows in oneway.change_position, so the writer maintains two narrow indexes (key, txid) and
-- numbering writes no new row versions of the log. No CHECK constraints: PostgreSQL reads and
-- plans a table's CHECK expressions anew for every INSERT statement, and the capture trigger
-- inserts one row per statement; three checks of op, state and capture_mode took 5 of the 17
-- microseconds the trigger added to a change. The values each column takes are in its comment,
-- and only Oneway's own functions write the log.
create table if not exists oneway.change_log (
  log_id       bigint primary key default nextval('oneway.change_log_log_id_seq'),
  txid         bigint not null default pg_current_xact_id()::text::bigint,
  object_type  text not null,
  object_id    jsonb not null,
  op           char(1) not null,
  state        char(1) not null default 'L',
  capture_mode char(1) not null default 'I',
  row_image    jsonb,
  logged_at    timestamptz not null default now(),
  blocked_at   timestamptz,
  block_reason text
);
select oneway.ensure_owned_by('oneway.change_log_log_id_seq', 'oneway.change_log', 'log_id');
select oneway.ensure_no_constraint('oneway.change_log', 'change_log_state_check');
select oneway.ensure_no_constraint('oneway.change_log', 'change_log_capture_mode_check');
select oneway.ensure_no_constraint('oneway.change_log', 'change_log_op_check');
-- the position assigner looks for new rows by transaction id (see 03-positions.sql); the rows the
-- WAL reader records are numbered as they are recorded (12-wal.sql), and left out: an index entry
-- fewer per change for PostgreSQL to write and for the WAL sender to read
drop index if exists oneway.change_log_txid;
select oneway.ensure_index('oneway.change_log_unnumbered_txid',
  $$create index change_log_unnumbered_txid on oneway.change_log (txid) where capture_mode <> 'W'$$);

comment on column oneway.change_log.log_id is 'statement-order id, from a CACHE 1 sequence inside the writer''s transaction';
comment on column oneway.change_log.txid is 'source transaction id (top level, 64-bit xid8 as bigint: the planner estimates bigint ranges, not xid8 ones)';
comment on column oneway.change_log.object_type is 'schema-qualified table name, quoted where needed';
comment on column oneway.change_log.object_id is 'primary key values as a JSON object; for U and D the key before the change';
comment on column oneway.change_log.op is 'I insert, U update, D delete, S schema change (09-schema.sql), Q sequence value (10-sequences.sql), B C E snapshot begin, chunk, end (11-snapshot.sql)';
comment on column oneway.change_log.state is 'L logged (ready to send), B blocked';
comment on column oneway.change_log.capture_mode is 'I image (row image stored by the trigger), R reference (row read when the message is built), W image read from the WAL (12-wal.sql)';
comment on column oneway.change_log.row_image is 'new row values as JSON (I and U in image mode); null for D and in reference mode';

-- Positions (SPEC §3): written once by the single position assigner after the change's
-- transaction committed, never changed; deleted with the change by the purge.
create table if not exists oneway.change_position (
  position bigint primary key,
  log_id   bigint not null unique,
  tx_end   boolean not null
);
comment on column oneway.change_position.position is 'gapless, commit-consistent per-source number';
comment on column oneway.change_position.tx_end is 'true on the last change of its transaction';

-- Tables under capture and how their key is made.
create table if not exists oneway.captured_table (
  table_name   text primary key,
  relid        oid not null unique,
  key_columns  text[] not null,
  capture_mode char(1) not null default 'I' check (capture_mode in ('I', 'R', 'W')),
  enabled_at   timestamptz not null default now()
);
select oneway.ensure_check('oneway.captured_table', 'captured_table_capture_mode_check', $$capture_mode in ('I', 'R', 'W')$$);
-- the table's columns as last logged (oneway.table_columns), to tell what a schema change changed
select oneway.ensure_column('oneway.captured_table', 'columns', $$jsonb not null default '[]'$$);

-- The last position handed out, and where the assigner's next pass looks for new rows. One
-- row; the assigner updates it in the same transaction as the positions it writes, so
-- positions are gapless. Every change not yet numbered belongs to a transaction whose id is
-- at or above scan_from or in open_txids (see 03-positions.sql).
create table if not exists oneway.position_counter (
  singleton     boolean primary key default true check (singleton),
  last_position bigint not null default 0,
  scan_from     bigint not null default 0,
  open_txids    bigint[] not null default '{}'
);
insert into oneway.position_counter default values on conflict do nothing;
-- WAL capture (12-wal.sql): the replication slot the WAL reader numbers from (null: the position
-- assigner numbers), and how far it has numbered: the commit LSN of the last source transaction
-- it recorded, how many of that transaction's changes, and whether that was all of them (a large
-- transaction is recorded in pieces).
select oneway.ensure_column('oneway.position_counter', 'wal_slot', $$text$$);
select oneway.ensure_column('oneway.position_counter', 'wal_lsn', $$pg_lsn$$);
select oneway.ensure_column('oneway.position_counter', 'wal_items', $$bigint not null default 0$$);
select oneway.ensure_column('oneway.position_counter', 'wal_done', $$boolean not null default true$$);

-- What the central database has acknowledged as applied (SPEC §4 ack): every change at or
-- below acked_position is delivered. Changes are kept until then, and resent on request.
create table if not exists oneway.sender_state (
  singleton      boolean primary key default true check (singleton),
  acked_position bigint not null default 0,
  acked_at       timestamptz
);
insert into oneway.sender_state default values on conflict do nothing;
-- The running digest (SPEC §4) at acked_position, as verified against the central database's;
-- how far the central database holds changes durably (applied, or staged as part of a large
-- transaction not yet complete): sending runs at most oneway.send.window past it; and the
-- highest position ever sent, written before the send: an ack above it is a forgery.
select oneway.ensure_column('oneway.sender_state', 'acked_digest', $$bytea not null default '\x0000000000000000000000000000000000000000000000000000000000000000'$$);
select oneway.ensure_column('oneway.sender_state', 'received_position', $$bigint not null default 0$$);
select oneway.ensure_column('oneway.sender_state', 'sent_position', $$bigint not null default 0$$);
-- A digest mismatch: the central database applied something other than what this remote sent
-- between diverged_from and diverged_to (first differing position, once found). Nothing is sent
-- while it is set; oneway.resume_transfer() clears it once an operator repaired the central rows.
select oneway.ensure_column('oneway.sender_state', 'diverged_at', $$timestamptz$$);
select oneway.ensure_column('oneway.sender_state', 'diverged_from', $$bigint$$);
select oneway.ensure_column('oneway.sender_state', 'diverged_to', $$bigint$$);
select oneway.ensure_column('oneway.sender_state', 'diverged_position', $$bigint$$);
select oneway.ensure_column('oneway.sender_state', 'central_digest', $$bytea$$);

-- When the oldest change not yet applied on the central database was logged (null: none), for the
-- monitor's lag and ./oneway status: found by its position, then its log id, one index probe
-- each. As a join, the planner hashed both tables whole (300 ms on a log of a few hundred
-- thousand rows at every check, the remote database's largest statement under a full-speed writer).
create or replace function oneway.oldest_unapplied_logged_at() returns timestamptz
language sql stable as $$
select l.logged_at from oneway.change_log l
 where l.log_id = (select p.log_id from oneway.change_position p
                    where p.position = (select s.acked_position + 1 from oneway.sender_state s))
$$;

-- Integrity alarms: control messages that verify but claim what cannot be (an ack above what
-- was sent). They are refused, never acted on, and stay open until an operator clears them
-- (./oneway clear-alarms); repeats of an open alarm count on its row. The same table keeps what
-- the central copy lacks for want of a row change (a partition attached with rows, 09-schema.sql),
-- one alarm per partition, told as the integrity alarms are.
create table if not exists oneway.integrity_alarm (
  id          bigint generated always as identity primary key,
  kind        text not null,
  detail      text not null,
  first_at    timestamptz not null default now(),
  last_at     timestamptz not null default now(),
  occurrences bigint not null default 1,
  cleared_at  timestamptz
);

-- The change log in position order with each record's delivery state (position null: not
-- yet numbered). The stored state is L or B; A (acknowledged: applied on the central
-- database) follows from the ack watermark, so an ack is one row update rather than one per
-- change.
select oneway.ensure_view('oneway.change_log_status', $view$
select l.log_id, p.position, l.txid, p.tx_end, l.object_type, l.object_id, l.op,
       case when l.state = 'B' then 'B'
            when p.position <= s.acked_position then 'A'
            else 'L' end as state,
       l.capture_mode, l.row_image, l.logged_at, l.blocked_at, l.block_reason
  from oneway.change_log l
  left join oneway.change_position p on p.log_id = l.log_id
  cross join oneway.sender_state s
$view$);
