-- ./oneway status, remote side.
select (select last_position from oneway.position_counter) as captured,
       (select sent_position from oneway.sender_state) as sent,
       (select received_position from oneway.sender_state) as received,
       (select acked_position from oneway.sender_state) as acknowledged,
       (select acked_at from oneway.sender_state) as acknowledged_at,
       (select count(*) from oneway.unpositioned_changes()) as not_yet_positioned,
       (select c.last_position - s.acked_position from oneway.position_counter c, oneway.sender_state s) as backlog,
       (select extract(epoch from now() - l.logged_at) from oneway.change_position p, oneway.change_log l, oneway.sender_state s
         where p.position = s.acked_position + 1 and l.log_id = p.log_id) as lag_seconds
