-- The columns of a replicated table, with its schema and name, for generating apply statements:
-- each column's type as SQL writes it (typmod included), whether it is generated, and whether
-- it is an identity column GENERATED ALWAYS, and the collation it sorts by (null: not a collatable type).
select n.nspname as schema_name, c.relname as table_name, a.attname as column_name,
       format_type(a.atttypid, a.atttypmod) as type_name, a.attgenerated <> '' as generated, a.attidentity = 'a' as identity_always,
       case when co.oid is not null then format('%I.%I', cn.nspname, co.collname) end as collation_name
  from pg_class c
  join pg_namespace n on n.oid = c.relnamespace
  join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  left join pg_collation co on co.oid = a.attcollation
  left join pg_namespace cn on cn.oid = co.collnamespace
 where c.oid = ?
 order by a.attnum
