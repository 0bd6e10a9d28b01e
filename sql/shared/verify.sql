-- Oneway, both sides: what verify compares. Installed on the remote and the central database.
-- A table's rows are spread over buckets by the hash of their primary key; per bucket the row
-- count and a digest of the rows' text-form images (shared/text-forms.sql) in key order, so
-- every column's exact text counts: a JSON null against an SQL NULL, one character anywhere. Keys
-- are ordered and images digested as UTF-8 bytes: a database's collation (or its encoding's bytes)
-- would order or digest them otherwise on two databases that collate (or encode) differently, and
-- every bucket of equal tables would differ. The bucket itself is the hash of the key's text in the
-- database's encoding (see Verifier.encodingNote).
-- Only buckets whose digests differ are read row by row. Identifiers come from the catalogue
-- and are quoted; nothing is taken from input text. The settings text forms depend on are pinned.

drop function if exists oneway.key_expression(regclass);

create or replace function oneway.verify_buckets(tbl regclass, buckets int)
returns table (bucket int, row_count bigint, digest text)
language plpgsql stable
set datestyle = 'ISO, YMD' set intervalstyle = 'postgres' set timezone = 'UTC' set extra_float_digits = 3
set bytea_output = 'hex' set lc_monetary = 'C' as $$
declare
  keys text[] := oneway.key_columns(tbl);
begin
  if keys is null then
    raise exception 'table % has no primary key', tbl using errcode = '42P10';
  end if;
  return query execute format(
    'select (abs(hashtext(%1$s::text)::bigint) %% %2$s)::int, count(*), md5(string_agg(md5(convert_to(%4$s::text, ''UTF8'')), '''' order by convert_to(%1$s::text, ''UTF8''))) '
    'from %3$s t group by 1', oneway.image_expression(keys, 't'), buckets, tbl,
    oneway.image_expression(array(select c.name from oneway.stored_columns(tbl) c), 't'));
end $$;

-- The keys and text-form images of the rows in the given buckets (in no order: the caller orders them).
create or replace function oneway.verify_rows(tbl regclass, buckets int, wanted int[])
returns table (key text, image text)
language plpgsql stable
set datestyle = 'ISO, YMD' set intervalstyle = 'postgres' set timezone = 'UTC' set extra_float_digits = 3
set bytea_output = 'hex' set lc_monetary = 'C' as $$
declare
  keys text[] := oneway.key_columns(tbl);
begin
  return query execute format(
    'select %1$s::text, %4$s::text from %3$s t where (abs(hashtext(%1$s::text)::bigint) %% %2$s)::int = any($1)',
    oneway.image_expression(keys, 't'), buckets, tbl,
    oneway.image_expression(array(select c.name from oneway.stored_columns(tbl) c), 't')) using wanted;
end $$;
