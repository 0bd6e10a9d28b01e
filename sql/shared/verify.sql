-- Oneway, both sides: what verify compares. Installed on the remote and the central database.
-- A table's rows are spread over buckets by the hash of their primary key; per bucket the row
-- count and a digest of the rows in key order. Only buckets whose digests differ are compared
-- row by row. Identifiers come from the catalogue and are quoted; nothing is taken from input text.

-- The primary key of a table as a JSON object text expression over alias t.
create or replace function oneway.key_expression(tbl regclass) returns text
language sql stable as $$
  select 'jsonb_build_object(' || string_agg(quote_literal(a.attname) || ', t.' || quote_ident(a.attname), ', ' order by k.ord) || ')::text'
    from pg_index x
    cross join lateral unnest(x.indkey) with ordinality as k(attnum, ord)
    join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum
   where x.indrelid = tbl and x.indisprimary
$$;

create or replace function oneway.verify_buckets(tbl regclass, buckets int)
returns table (bucket int, row_count bigint, digest text)
language plpgsql stable as $$
declare
  k text := oneway.key_expression(tbl);
begin
  if k is null then
    raise exception 'table % has no primary key', tbl using errcode = '42P10';
  end if;
  return query execute format(
    'select (abs(hashtext(%1$s)) %% %2$s)::int, count(*), md5(string_agg(md5(to_jsonb(t)::text), '''' order by %1$s)) '
    'from %3$s t group by 1', k, buckets, tbl);
end $$;

create or replace function oneway.verify_rows(tbl regclass, buckets int, wanted int[])
returns table (key text, row_hash text)
language plpgsql stable as $$
declare
  k text := oneway.key_expression(tbl);
begin
  return query execute format(
    'select %1$s, md5(to_jsonb(t)::text) from %3$s t where (abs(hashtext(%1$s)) %% %2$s)::int = any($1) order by 1',
    k, buckets, tbl) using wanted;
end $$;
