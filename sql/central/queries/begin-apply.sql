-- First statement of every apply transaction. Run as a replica, as native logical replication
-- does: triggers and foreign-key actions of the central tables do not fire, so an ON DELETE
-- CASCADE does not delete rows whose own deletes follow in the stream, and the read-only guard
-- of replicated tables (05-read-only.sql) lets the applier through. (PostgreSQL 15+: a
-- non-superuser apply user needs GRANT SET ON PARAMETER session_replication_role.) And read
-- text forms with the settings they were made with (shared/text-forms.sql), whatever this
-- database's defaults are.
select set_config('session_replication_role', 'replica', true), set_config('datestyle', 'ISO, YMD', true),
       set_config('intervalstyle', 'postgres', true), set_config('timezone', 'UTC', true),
       set_config('extra_float_digits', '3', true), set_config('bytea_output', 'hex', true),
       set_config('lc_monetary', 'C', true), set_config('xmloption', 'content', true)
