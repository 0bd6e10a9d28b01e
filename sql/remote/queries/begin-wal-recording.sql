-- Begins recording a run of changes read from the WAL (io.oneway.capture.WalRecording, sql/remote/12-wal.sql):
-- the run's new rows, the log ids of the change-log rows its transactions inserted.
select * from oneway.begin_wal_recording(?, ?)
