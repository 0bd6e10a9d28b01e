-- Staged changes that are now applied (in the same transaction).
delete from oneway.staged_change where source_id = ? and position <= ?
