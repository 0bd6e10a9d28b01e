-- The fingerprints of applied changes of a source from..to, for a remote looking for where a digest mismatch began.
select position, fingerprint from oneway.receive_log where source_id = ? and position between ? and ? order by position
