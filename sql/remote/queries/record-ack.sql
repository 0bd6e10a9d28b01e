-- An ack from the central database: everything at or below the position is applied there.
update oneway.sender_state set acked_position = ?, acked_at = now() where acked_position < ?
