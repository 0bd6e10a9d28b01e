-- A change too large to send (position, its size, the limit): blocked with the reason.
select oneway.block_oversized(?, ?, ?)
