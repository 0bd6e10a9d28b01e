-- A verified ack: applied (with the running digest there) and received positions; neither moves back.
update oneway.sender_state
   set acked_position = greatest(acked_position, ?), acked_digest = case when acked_position < ? then ? else acked_digest end,
       acked_at = case when acked_position < ? then now() else acked_at end,
       received_position = greatest(received_position, ?)
