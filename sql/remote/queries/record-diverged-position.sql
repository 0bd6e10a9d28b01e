-- The first position where the central database applied something other than what was sent.
update oneway.sender_state set diverged_position = ? where diverged_at is not null
