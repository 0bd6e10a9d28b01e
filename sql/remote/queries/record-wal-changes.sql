-- Records a batch of changes read from the WAL (io.oneway.capture.WalReader, sql/remote/12-wal.sql).
select * from oneway.record_wal_changes(?::jsonb, ?::pg_lsn, ?, ?)
