-- verify: keys and text-form images of the rows of the buckets that differ.
select key, image from oneway.verify_rows(?::regclass, ?, ?)
