-- verify: per-bucket row counts and digests of one table (see sql/shared/verify.sql).
select bucket, row_count, digest from oneway.verify_buckets(?::regclass, ?)
