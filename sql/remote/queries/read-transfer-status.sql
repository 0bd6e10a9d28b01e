-- Polled by route watch-transfer (and printed by ./oneway status): what stops or endangers the
-- transfer, one row each, with a message for operators: the blocked change that stops it, a
-- digest mismatch that halts it (its version changes once the first differing position is known),
-- open alarms: integrity alarms, and rows the central database lacks (a partition attached with rows).
select 'blocked ' || log_id as id, 'blocked' as kind, null as version, log_id, position, object_type, object_id, op, blocked_at::text as since,
       block_reason as reason, waiting,
       format('Transfer STOPPED by blocked change log id %s (position %s): %s %s %s, blocked since %s%s; %s changes wait behind it. '
              'Unblock with ./oneway unblock-change %s (or select oneway.unblock_change(%s)).',
              log_id, position, op, object_type, object_id, blocked_at,
              coalesce(', reason: ' || block_reason, ''), waiting, log_id, log_id) as message
  from oneway.transfer_status
union all
select 'diverged', 'diverged', coalesce(s.diverged_position::text, 'range'), l.log_id, coalesce(s.diverged_position, s.diverged_from), l.object_type, l.object_id::text, l.op,
       s.diverged_at::text, 'digest mismatch', c.last_position - s.acked_position,
       format('Transfer HALTED: the central database applied something other than what this remote sent %s '
              '(its digest at position %s differs from this remote''s)%s. Nothing more is sent. Compare the central rows with '
              'the remote''s (./oneway verify), repair them, then run ./oneway resume-transfer.',
              case when s.diverged_position is null then format('between positions %s and %s', s.diverged_from, s.diverged_to)
                   else format('first at position %s', s.diverged_position) end,
              s.diverged_to,
              case when l.log_id is null then '' else format(' — this remote sent %s %s %s there', l.op, l.object_type, l.object_id) end)
  from oneway.sender_state s
  cross join oneway.position_counter c
  left join oneway.change_position p on p.position = s.diverged_position
  left join oneway.change_log l on l.log_id = p.log_id
 where s.diverged_at is not null
union all
select 'alarm ' || a.id, 'alarm', null, null, null, null, null, null, a.first_at::text, a.kind, null,
       case when a.kind like 'partition-rows-not-replicated %'
            then format('Central copy INCOMPLETE (since %s): %s. Clear with ./oneway clear-alarms once done.', a.first_at, a.detail)
            else format('Integrity ALARM (%s, %s times since %s): %s. It was refused and not acted on; someone may hold this source''s key. '
                        'Clear with ./oneway clear-alarms once looked into.', a.kind, a.occurrences, a.first_at, a.detail) end
  from oneway.integrity_alarm a
 where a.cleared_at is null
