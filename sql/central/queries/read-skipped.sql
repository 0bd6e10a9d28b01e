-- Skipped positions of a source not yet passed by the applier.
select position from oneway.skipped_change where source_id = ? and position > ?
