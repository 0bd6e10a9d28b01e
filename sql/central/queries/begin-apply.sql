-- First statement of every apply transaction: run as a replica, as native logical replication
-- does. Triggers and foreign-key actions of the central tables do not fire, so an ON DELETE
-- CASCADE does not delete rows whose own deletes follow in the stream. (PostgreSQL 15+: a
-- non-superuser apply user needs GRANT SET ON PARAMETER session_replication_role.)
set local session_replication_role = replica
