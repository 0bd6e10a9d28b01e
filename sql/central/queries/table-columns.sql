-- The columns of a replicated table, with its schema and name, for generating apply statements.
select n.nspname as schema_name, c.relname as table_name, a.attname as column_name, a.attgenerated <> '' as generated
  from pg_class c
  join pg_namespace n on n.oid = c.relnamespace
  join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
 where c.oid = ?
