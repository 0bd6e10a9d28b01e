-- The remote's progress for the monitor: captured and acknowledged positions, the age of the
-- oldest change not yet applied on the central database (0 when there is none), and the first
-- position not to be sent (a blocked change or a divergence: a halt, told as such, where the
-- sender stands still on purpose), and the database's clock (heartbeats carry it, so the central
-- side can tell how far its clock is from the one the changes' times are read on).
select c.last_position as captured, s.acked_position as acked,
       coalesce(extract(epoch from now() - oneway.oldest_unapplied_logged_at()), 0)::float8 as lag_seconds,
       oneway.send_stop() as send_stop,
       (extract(epoch from clock_timestamp()) * 1000)::bigint as database_millis
  from oneway.position_counter c cross join oneway.sender_state s
