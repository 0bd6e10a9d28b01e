-- Polled by route watch-sources: every halted source, with a message for operators.
select source_id as id, source_id, halted_position, halted_at::text as halted_at, halt_reason,
       format('Source %s is HALTED at position %s since %s: %s. Fix the cause, then run ./oneway resume %s '
              '(or ./oneway skip %s %s to skip that one change).',
              source_id, halted_position, halted_at, halt_reason, source_id, source_id, halted_position) as message
  from oneway.source_progress where halted
