-- In the same transaction as the changes: the new applied position and the running digest there.
update oneway.source_progress set applied_position = ?, applied_digest = ?, applied_at = now() where source_id = ?
