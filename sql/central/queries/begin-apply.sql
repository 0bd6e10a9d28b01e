-- First statement of every apply transaction. Run as a replica, as native logical replication
-- does: triggers and foreign-key actions of the central tables do not fire, so an ON DELETE
-- CASCADE does not delete rows whose own deletes follow in the stream, and the read-only guard
-- of replicated tables (05-read-only.sql) lets the applier through. (PostgreSQL 15+: a
-- non-superuser apply user needs GRANT SET ON PARAMETER session_replication_role.) And read
-- text forms with the settings they were made with (shared/text-forms.sql), whatever this
-- database's defaults are. And find rows by index: the batch statements join a JSON array of
-- keys to the table, and for a table of some thousand rows the planner's costs chose a hash join
-- over a scan of the whole table for every batch (customers of 10,000 rows: 4.4 ms for a batch
-- of 120 updates, 2.0 ms by the primary key); a table with no index on its key is still scanned.
-- The role is set for the session, not the transaction: PostgreSQL drops every cached plan of
-- the session whenever session_replication_role changes, so set per transaction it made every
-- statement of every run parsed and planned again (a tenth of the central server's time in a
-- catch-up). The connections are the applier's own (the central pool), whose other statements
-- only read, or write Oneway's tables, which have no triggers. And plan each statement once: the
-- statements of a run differ only in their arrays, and by the key, as above, the generic plan
-- is the plan a custom one would be.
select set_config('session_replication_role', 'replica', false), set_config('datestyle', 'ISO, YMD', true),
       set_config('intervalstyle', 'postgres', true), set_config('timezone', 'UTC', true),
       set_config('extra_float_digits', '3', true), set_config('bytea_output', 'hex', true),
       set_config('lc_monetary', 'C', true), set_config('xmloption', 'content', true),
       set_config('enable_seqscan', 'off', true),
       set_config('plan_cache_mode', 'force_generic_plan', true)
