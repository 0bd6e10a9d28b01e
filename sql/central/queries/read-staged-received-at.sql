-- When the first staged change of a source arrived (its run's received time in the receive log).
select min(received_at) from oneway.staged_change where source_id = ?
