-- Inside an apply or staging transaction: the source's applied and staged positions, locked so
-- that two appliers cannot both advance them.
select applied_position, staged_position from oneway.source_progress where source_id = ? for update
