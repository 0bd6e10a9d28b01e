-- Polled by route send-changes: the next frame of positioned changes after the last one sent,
-- within the send window (no further than oneway.send.window past what the central database
-- holds), at most a frame's count and bytes, and before the first blocked change: nothing after
-- a blocked change is sent.
select * from oneway.sendable_changes(:#${bean:sendWindow?method=lastSent}, :#${bean:sendWindow?method=sendLimit},
                                      cast(:#${properties:oneway.send.frame-size} as int),
                                      cast(:#${properties:oneway.send.frame-bytes} as bigint),
                                      cast(:#${properties:oneway.wire.max-change-bytes} as bigint))
