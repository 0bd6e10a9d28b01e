-- Polled by route send-changes: the next frame of positioned changes after the last one sent,
-- within the send window (no further than oneway.send.window past the last acknowledged),
-- and before the first blocked change: nothing after a blocked change is sent.
select position, txid::text as txid, tx_end, object_type, object_id::text as object_id, op, capture_mode,
       case when capture_mode = 'R' and op <> 'D' then oneway.current_row(object_type, object_id)::text
            else row_image::text end as row_image,
       logged_at::text as logged_at
  from oneway.change_log
 where position > :#${bean:sendWindow?method=lastSent}
   and position <= :#${bean:sendWindow?method=sendLimit}
   and position < coalesce((select min(b.position) from oneway.change_log b, oneway.sender_state s
                             where b.state = 'B' and b.position > s.acked_position), 9223372036854775807)
 order by position
 limit cast(:#${properties:oneway.send.frame-size} as int)
