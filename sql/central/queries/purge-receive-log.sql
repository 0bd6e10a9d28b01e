-- Polled by route purge-receive-log: one batch; a row only when something was purged.
select purged from oneway.purge_receive_log(cast(:#${properties:oneway.purge.receive-log-retention} as interval),
                                            cast(:#${properties:oneway.purge.batch-size} as int)) purged
 where purged > 0
