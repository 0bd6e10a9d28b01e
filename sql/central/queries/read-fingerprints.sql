-- The fingerprints of applied changes of a source from..to, for a remote looking for where a digest
-- mismatch began: the runs from the one holding `from` (found by the primary key) through `to`.
with asked as (select cast(? as text) as source_id, cast(? as bigint) as from_position, cast(? as bigint) as to_position)
select r.first_position + c.n - 1 as position, c.fingerprint
  from asked a
  join oneway.receive_run r on r.source_id = a.source_id
   and r.first_position between coalesce((select max(g.first_position) from oneway.receive_run g
                                           where g.source_id = a.source_id and g.first_position <= a.from_position), a.from_position)
                            and a.to_position
  cross join lateral unnest(r.fingerprints) with ordinality as c(fingerprint, n)
 where r.first_position + c.n - 1 between a.from_position and a.to_position
 order by 1
