-- Polled by route send-changes: the next frame of positioned changes after the last one sent,
-- within the send window (no further than oneway.send.window past the last acknowledged),
-- and before the first blocked change: nothing after a blocked change is sent.
select * from oneway.sendable_changes(:#${bean:sendWindow?method=lastSent}, :#${bean:sendWindow?method=sendLimit},
                                      cast(:#${properties:oneway.send.frame-size} as int))
