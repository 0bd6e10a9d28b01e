-- ./oneway status, central side: per source.
select source_id, applied_position, applied_at, halted, halted_position, halt_reason,
       (select coalesce(sum(r.skipped), 0) from oneway.receive_run r where r.source_id = p.source_id and r.skipped > 0) as skipped
  from oneway.source_progress p order by source_id
