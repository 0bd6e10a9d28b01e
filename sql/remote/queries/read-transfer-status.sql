-- Polled by route watch-transfer: the blocked change that stops the transfer, if any, with a message for operators.
select log_id::text as id, log_id, position, object_type, object_id, op, blocked_at::text as blocked_at, block_reason, waiting,
       format('Transfer STOPPED by blocked change log id %s (position %s): %s %s %s, blocked since %s%s; %s changes wait behind it. '
              'Unblock with ./oneway unblock-change %s (or select oneway.unblock_change(%s)).',
              log_id, position, op, object_type, object_id, blocked_at,
              coalesce(', reason: ' || block_reason, ''), waiting, log_id, log_id) as message
  from oneway.transfer_status
