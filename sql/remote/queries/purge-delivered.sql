-- Polled by route purge-delivered-changes: one batch; a row only when something was purged.
select purged from oneway.purge_delivered(cast(:#${properties:oneway.purge.retention} as interval),
                                          cast(:#${properties:oneway.purge.batch-size} as int)) purged
 where purged > 0
