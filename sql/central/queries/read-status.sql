-- ./oneway status, central side: per source.
select source_id, applied_position, applied_at, halted, halted_position, halt_reason,
       (select count(*) from oneway.receive_log r where r.source_id = p.source_id and r.state = 'S') as skipped
  from oneway.source_progress p order by source_id
