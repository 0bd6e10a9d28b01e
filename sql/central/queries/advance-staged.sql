-- In the same transaction as the staged changes: the last position staged.
update oneway.source_progress set staged_position = ? where source_id = ?
