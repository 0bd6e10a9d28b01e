-- ./oneway skip SOURCE POSITION: only the change the source halted at can be skipped.
insert into oneway.skipped_change(source_id, position)
select source_id, halted_position from oneway.source_progress where source_id = ? and halted and halted_position = ?
