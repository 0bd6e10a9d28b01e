-- The acknowledged position, where sending resumes after a restart.
select acked_position from oneway.sender_state
