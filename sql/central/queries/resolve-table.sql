-- A schema-qualified table name (as logged on the remote) to its oid on this database, or no row.
-- The name is a bound value; to_regclass parses quoting and never executes anything.
select c.oid::bigint from pg_class c where c.oid = to_regclass(?) and c.relkind in ('r', 'p')
