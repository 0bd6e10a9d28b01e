-- Before a message goes out: the highest position ever sent (an ack above it is forged).
update oneway.sender_state set sent_position = ? where sent_position < ?
