-- The slot this database's changes are numbered from, or null while the position assigner numbers them.
select wal_slot from oneway.position_counter
