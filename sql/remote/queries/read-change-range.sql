-- Called by route send-range: changes of a resend request or a retransmission, from..to,
-- at most oneway.send.max-resend of them (the central side asks again for the rest).
select position, txid::text as txid, tx_end, object_type, object_id::text as object_id, op,
       row_image::text as row_image, logged_at::text as logged_at
  from oneway.change_log
 where position between :#${header.OnewayResendFrom} and :#${header.OnewayResendTo}
 order by position
 limit cast(:#${properties:oneway.send.max-resend} as int)
