-- ./oneway status, remote side.
select (select last_position from oneway.position_counter) as captured,
       (select acked_position from oneway.sender_state) as acknowledged,
       (select acked_at from oneway.sender_state) as acknowledged_at,
       (select count(*) from oneway.change_log where position is null) as not_yet_positioned,
       (select count(*) from oneway.change_log l, oneway.sender_state s where l.position > s.acked_position) as backlog,
       (select extract(epoch from now() - min(l.logged_at)) from oneway.change_log l, oneway.sender_state s
         where l.position > s.acked_position) as lag_seconds
