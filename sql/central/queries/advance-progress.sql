-- In the same transaction as the changes: the new applied position (the next expected one is this plus one).
update oneway.source_progress set applied_position = ?, applied_at = now() where source_id = ?
