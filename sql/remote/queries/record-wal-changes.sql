-- Records a batch of changes read from the WAL (io.oneway.capture.WalReader, sql/remote/12-wal.sql).
-- The batch comes as UTF-8 bytes: the reader encodes it once, at its exact size (a wide row).
select * from oneway.record_wal_changes(convert_from(?, 'UTF8')::json, ?::pg_lsn, ?, ?)
