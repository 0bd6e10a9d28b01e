-- ./oneway status, remote side.
select (select last_position from oneway.position_counter) as captured,
       (select sent_position from oneway.sender_state) as sent,
       (select received_position from oneway.sender_state) as received,
       (select acked_position from oneway.sender_state) as acknowledged,
       (select acked_at from oneway.sender_state) as acknowledged_at,
       (select count(*) from oneway.unpositioned_changes()) as not_yet_positioned,
       (select c.last_position - s.acked_position from oneway.position_counter c, oneway.sender_state s) as backlog,
       extract(epoch from now() - oneway.oldest_unapplied_logged_at()) as lag_seconds,
       -- capture from the WAL (sql/remote/12-wal.sql): the slot, whether PostgreSQL keeps the WAL it needs, how much is unread
       (select w.slot_name || ': ' || case when w.wal_status is null then 'MISSING (capture from the WAL cannot go on)'
                                           else w.wal_status || ', ' || pg_size_pretty(w.behind_bytes) || ' of WAL not read yet' end
          from oneway.wal_slot_status w) as wal_slot
