-- Polled by route assign-positions: number the committed changes (see 03-positions.sql).
select * from oneway.assign_positions(cast(:#${properties:oneway.capture.batch-size} as int))
