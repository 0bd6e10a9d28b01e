-- ./oneway block-change LOG_ID [REASON]
select oneway.block_change(?, ?)
