-- ./oneway snapshot TABLE [WHERE ...], and ./oneway verify --repair (buckets): start a snapshot (see 11-snapshot.sql).
select oneway.start_snapshot(?::regclass, ?::int, ?::int[], ?::int, ?::int, ?::text)
