-- The remote's progress for the monitor: captured and acknowledged positions, and the age of the
-- oldest change not yet applied on the central database (0 when there is none).
select c.last_position as captured, s.acked_position as acked,
       coalesce(extract(epoch from now() - oneway.oldest_unapplied_logged_at()), 0)::float8 as lag_seconds
  from oneway.position_counter c cross join oneway.sender_state s
