-- Where a source stands: applied position, incarnation, halted and why.
select applied_position, incarnation::text as incarnation, halted, halt_reason
  from oneway.source_progress where source_id = ?
