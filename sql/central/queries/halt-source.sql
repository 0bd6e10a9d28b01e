-- Stop applying a source, with the reason and position an operator reads in status and notifications.
update oneway.source_progress set halted = true, halt_reason = ?, halted_position = ?, halted_at = now() where source_id = ?
