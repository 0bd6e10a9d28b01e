-- verify: the text-form images of the rows it names as differing, read from their own buckets
-- (the bucket of a key as sql/shared/verify.sql makes it).
with named as (select unnest(?::text[]) as key)
select r.key, r.image
from oneway.verify_rows(?::regclass, ?, array(select distinct (abs(hashtext(key)::bigint) % ?)::int from named)) r
where r.key in (select key from named)
