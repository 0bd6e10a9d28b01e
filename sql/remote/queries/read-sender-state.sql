-- The sender's durable state: acknowledged (applied and digest verified), received (held by the
-- central database), sent, and whether a digest mismatch halts the transfer.
select acked_position, acked_digest, received_position, sent_position, diverged_at is not null as diverged,
       diverged_from, diverged_to
  from oneway.sender_state
