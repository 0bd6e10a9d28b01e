-- Polled by route send-changes: the next frame of positioned changes after the last one sent,
-- within the send window (no further than oneway.send.window past what the central database
-- holds), at most a frame's count and bytes, and before the first blocked change: nothing after
-- a blocked change is sent. The settings come from the beans that hold them: a ${properties:...}
-- parameter is looked up anew at every poll (environment, system properties, files), which was
-- a twentieth of the sender's CPU in a catch-up.
select * from oneway.sendable_changes(:#${bean:sendWindow?method=lastSent}, :#${bean:sendWindow?method=sendLimit},
                                      cast(:#${bean:frameBuilder?method=frameSize} as int),
                                      cast(:#${bean:frameBuilder?method=frameBytes} as bigint),
                                      cast(:#${bean:changeSizes?method=maxChangeBytes} as bigint))
