-- verify: keys and digests of the text-form images of the rows of the buckets that differ, in the order of
-- the keys' UTF-8 bytes (Unicode code points), the same on both databases whatever their encodings and
-- collations, so that the two sides' rows are matched as they are read (io.oneway.ops.KeyOrderedRows); a
-- digest, not the image, so that a page of wide rows stays small.
select key, md5(image) from oneway.verify_rows(?::regclass, ?, ?) order by convert_to(key, 'UTF8')
