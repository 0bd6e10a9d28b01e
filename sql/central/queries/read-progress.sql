-- Where a source stands: applied position and the digest there, staged position, incarnation, halted and why.
select applied_position, incarnation::text as incarnation, halted, halt_reason, applied_digest, staged_position
  from oneway.source_progress where source_id = ?
