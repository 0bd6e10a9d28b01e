-- ./oneway cancel-snapshot TABLE (see 11-snapshot.sql).
select oneway.cancel_snapshot(?::regclass)
