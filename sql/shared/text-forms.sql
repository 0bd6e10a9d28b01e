-- Oneway, both sides: rows as their columns' text forms (SPEC §5: values round-trip exactly,
-- whatever either side's session settings). A row image is a JSON object of column name to the
-- column's text form (the type's own output, as COPY writes it), or JSON null for SQL NULL: a
-- jsonb column holding JSON null is the string "null", never confused with SQL NULL, and a json
-- column's text is kept byte for byte. The central database casts each text back by its own
-- column's type.
--
-- The settings that change a type's text output are pinned wherever a text form is made or
-- read (current_row, verify, the applier's transactions): DateStyle, IntervalStyle, TimeZone,
-- extra_float_digits, bytea_output, lc_monetary (and, when reading, xmloption); a capture
-- function pins those its table's column types depend on (text_form_settings).

create schema if not exists oneway;

-- The settings a table's capture function pins: those its columns' text forms depend on, and
-- only those, each as its SET clause and as a test that the writer's session already makes the
-- pinned text forms. Domains, arrays, ranges and multiranges are looked through to the types they
-- hold; a composite type (it may gain an attribute of any type while the table stays as it is) and
-- a type not named here pin all six.
drop function if exists oneway.text_form_settings();
create or replace function oneway.text_form_settings(tbl regclass) returns table (n int, clause text, pinned text)
language sql stable as $$
with recursive used(t) as (
  select a.atttypid from pg_attribute a where a.attrelid = tbl and a.attnum > 0 and not a.attisdropped
  union
  select held.t from used u join pg_type y on y.oid = u.t
   cross join lateral (select y.typbasetype where y.typtype = 'd'
                       union all select y.typelem where y.typcategory = 'A' and y.typelem <> 0
                       union all select r.rngsubtype from pg_range r where r.rngtypid = y.oid
                       union all select r.rngtypid from pg_range r where r.rngmultitypid = y.oid) held(t)
), needed(setting) as (
  select unnest(case
    when y.typtype in ('d', 'r', 'm', 'e') or (y.typcategory = 'A' and y.typelem <> 0) then '{}'
    when y.oid in ('bool'::regtype, '"char"'::regtype, 'name'::regtype, 'int2'::regtype, 'int4'::regtype, 'int8'::regtype,
                   'oid'::regtype, 'text'::regtype, 'varchar'::regtype, 'bpchar'::regtype, 'numeric'::regtype, 'uuid'::regtype,
                   'json'::regtype, 'jsonb'::regtype, 'xml'::regtype, 'inet'::regtype, 'cidr'::regtype, 'macaddr'::regtype,
                   'macaddr8'::regtype, 'bit'::regtype, 'varbit'::regtype, 'tsvector'::regtype, 'tsquery'::regtype,
                   'pg_lsn'::regtype) then '{}'
    when y.oid in ('date'::regtype, 'time'::regtype, 'timestamp'::regtype) then '{datestyle}'
    when y.oid in ('timestamptz'::regtype, 'timetz'::regtype) then '{datestyle,timezone}'
    when y.oid = 'interval'::regtype then '{intervalstyle}'
    when y.oid in ('float4'::regtype, 'float8'::regtype, 'point'::regtype, 'line'::regtype, 'lseg'::regtype, 'box'::regtype,
                   'path'::regtype, 'polygon'::regtype, 'circle'::regtype) then '{extra_float_digits}'
    when y.oid = 'bytea'::regtype then '{bytea_output}'
    when y.oid = 'money'::regtype then '{lc_monetary}'
    else '{datestyle,intervalstyle,timezone,extra_float_digits,bytea_output,lc_monetary}' end::text[])
    from used u join pg_type y on y.oid = u.t
)
-- DateStyle's field order changes only input and the non-ISO styles; extra_float_digits above 0
-- always gives the shortest exact form; the time zones named all are UTC, written +00 in ISO style
select s.n, s.clause, s.pinned
  from (values (1, 'datestyle', 'set datestyle = ''ISO, YMD''', 'current_setting(''DateStyle'') like ''ISO,%'''),
               (2, 'intervalstyle', 'set intervalstyle = ''postgres''', 'current_setting(''IntervalStyle'') = ''postgres'''),
               (3, 'timezone', 'set timezone = ''UTC''', 'current_setting(''TimeZone'') in (''UTC'', ''Etc/UTC'', ''GMT'', ''Etc/GMT'', '
                                                          '''UCT'', ''Etc/UCT'', ''Universal'', ''Etc/Universal'', ''Zulu'', ''Etc/Zulu'')'),
               (4, 'extra_float_digits', 'set extra_float_digits = 3', 'current_setting(''extra_float_digits'') in (''1'', ''2'', ''3'')'),
               (5, 'bytea_output', 'set bytea_output = ''hex''', 'current_setting(''bytea_output'') = ''hex'''),
               (6, 'lc_monetary', 'set lc_monetary = ''C''', 'current_setting(''lc_monetary'') = ''C''')) s(n, setting, clause, pinned)
 where s.setting in (select x.setting from needed x)
$$;

-- The stored columns of a table (not dropped, not generated), in their order.
create or replace function oneway.stored_columns(tbl regclass) returns table (name text, num int)
language sql stable as $$
select a.attname::text, a.attnum::int from pg_attribute a
 where a.attrelid = tbl and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
 order by a.attnum
$$;

-- The primary key columns of a table, in key order.
create or replace function oneway.key_columns(tbl regclass) returns text[]
language sql stable as $$
select array_agg(a.attname::text order by k.ord)
  from pg_index x
  cross join lateral unnest(x.indkey) with ordinality as k(attnum, ord)
  join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum
 where x.indrelid = tbl and x.indisprimary
$$;

-- An SQL expression that makes the text-form image of these columns of the record `alias`
-- (NEW, OLD, or a table alias): jsonb_build_object('c', alias.c::text, ...), in parts of 50
-- columns (a function takes at most 100 arguments), in parentheses so that it can be cast.
create or replace function oneway.image_expression(columns text[], alias text) returns text
language sql immutable as $$
select '(' || coalesce(string_agg(part, ' || ' order by grp), '''{}''::jsonb') || ')'
  from (select (c.ord - 1) / 50 as grp,
               format('jsonb_build_object(%s)', string_agg(format('%L, %s.%I::text', c.name, alias, c.name), ', ' order by c.ord)) as part
          from unnest(columns) with ordinality as c(name, ord)
         group by 1) p
$$;

-- A key given by an operator ({"id": 7}) in the text form the log holds it in ({"id": "7"}).
create or replace function oneway.key_text(key jsonb) returns jsonb
language sql immutable as $$
select coalesce(jsonb_object_agg(k.key, k.value #>> '{}'), '{}'::jsonb) from jsonb_each(key) k
$$;

-- A table's columns as schema changes describe them (09-schema.sql on the remote, the
-- central database's comparison): number, name, type as SQL writes it, not null, default,
-- generation expression of a stored generated column, identity kind ('a' always, 'd' by
-- default, '' none), in column order.
create or replace function oneway.table_columns(tbl regclass) returns jsonb
language sql stable as $$
select coalesce(jsonb_agg(jsonb_build_object(
         'num', a.attnum, 'name', a.attname, 'type', format_type(a.atttypid, a.atttypmod), 'not_null', a.attnotnull,
         'default', case when a.attgenerated = '' then pg_get_expr(d.adbin, d.adrelid) end,
         'generated', case when a.attgenerated <> '' then pg_get_expr(d.adbin, d.adrelid) end,
         'identity', a.attidentity::text) order by a.attnum), '[]')
  from pg_attribute a
  left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
 where a.attrelid = tbl and a.attnum > 0 and not a.attisdropped
$$;
