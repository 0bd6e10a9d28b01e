-- Called by route send-range: changes of a resend request or a retransmission, from..to,
-- at most oneway.send.max-resend of them (the central side asks again for the rest), and
-- never a blocked change or anything after it.
select position, txid::text as txid, tx_end, object_type, object_id::text as object_id, op, capture_mode,
       case when capture_mode = 'R' and op <> 'D' then oneway.current_row(object_type, object_id)::text
            else row_image::text end as row_image,
       logged_at::text as logged_at
  from oneway.change_log
 where position between :#${header.OnewayResendFrom} and :#${header.OnewayResendTo}
   and position < coalesce((select min(b.position) from oneway.change_log b, oneway.sender_state s
                             where b.state = 'B' and b.position > s.acked_position), 9223372036854775807)
 order by position
 limit cast(:#${properties:oneway.send.max-resend} as int)
