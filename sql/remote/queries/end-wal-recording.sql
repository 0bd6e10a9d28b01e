-- Ends recording a run: its last position, and the commit LSN, items recorded and whether all of them, of its last transaction.
select oneway.end_wal_recording(?, ?::pg_lsn, ?, ?)
