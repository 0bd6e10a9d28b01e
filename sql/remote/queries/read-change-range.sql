-- Called by route send-range: changes of a resend request or a retransmission, from..to,
-- at most oneway.send.max-resend of them and oneway.send.max-resend-bytes of key and row text
-- (the central side asks again for the rest), and never a blocked change or anything after it.
select * from oneway.sendable_changes(:#${header.OnewayResendFrom} - 1, :#${header.OnewayResendTo},
                                      cast(:#${properties:oneway.send.max-resend} as int),
                                      cast(:#${properties:oneway.send.max-resend-bytes} as bigint),
                                      cast(:#${properties:oneway.wire.max-change-bytes} as bigint))
