-- The WAL capture's slot for the reader's health (sql/remote/12-wal.sql): how far behind, whether WAL it needs is kept.
select behind_bytes, wal_status from oneway.wal_slot_status
