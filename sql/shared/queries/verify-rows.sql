-- verify: keys and digests of the text-form images of the rows of the buckets that differ, both as
-- UTF-8 bytes whatever the database's encoding, the keys in the order of those bytes (Unicode code
-- points), the same on both databases whatever their encodings and collations, so that the two sides'
-- rows are matched as they are read (io.oneway.ops.KeyOrderedRows); a digest, not the image, so that a
-- page of wide rows stays small.
select key, md5(convert_to(image, 'UTF8')) from oneway.verify_rows(?::regclass, ?, ?) order by convert_to(key, 'UTF8')
