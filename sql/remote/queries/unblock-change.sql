-- ./oneway unblock-change LOG_ID
select oneway.unblock_change(?)
