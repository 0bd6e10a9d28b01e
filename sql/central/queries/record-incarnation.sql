-- The incarnation a source is first seen with; later messages of another incarnation are refused.
update oneway.source_progress set incarnation = ?::uuid where source_id = ? and incarnation is null
