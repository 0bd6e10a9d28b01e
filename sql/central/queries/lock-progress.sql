-- Inside an apply transaction: the source's applied position, locked so that two appliers cannot both advance it.
select applied_position from oneway.source_progress where source_id = ? for update
