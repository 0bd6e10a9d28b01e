-- verify: keys and row hashes of the buckets that differ.
select key, row_hash from oneway.verify_rows(?::regclass, ?, ?)
