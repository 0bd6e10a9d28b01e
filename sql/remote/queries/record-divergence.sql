-- The central database's digest differs from this remote's between these positions: halt the transfer.
select oneway.record_divergence(?, ?, ?)
