-- The remote's progress for the monitor: captured and acknowledged positions, and the age of the
-- oldest change not yet applied on the central database (0 when there is none).
select c.last_position as captured, s.acked_position as acked,
       coalesce(extract(epoch from now() - (select l.logged_at from oneway.change_position p join oneway.change_log l on l.log_id = p.log_id
                                              where p.position = s.acked_position + 1)), 0)::float8 as lag_seconds
  from oneway.position_counter c cross join oneway.sender_state s
