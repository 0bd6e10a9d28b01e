-- Polled by route snapshot-chunks: one chunk of the oldest running snapshot (see 11-snapshot.sql).
select * from oneway.snapshot_chunk(cast(:#${properties:oneway.snapshot.max-ahead} as int))
