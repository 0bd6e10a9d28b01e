-- ./oneway resume SOURCE: apply again from the applied position (after the cause of the halt is fixed).
update oneway.source_progress set halted = false, halt_reason = null, halted_position = null, halted_at = null
 where source_id = ? and halted
