-- A page of staged changes of a source, after a position, in position order.
select position, txid, tx_end, object_type, op, reference, object_id, row_image, logged_at
  from oneway.staged_change where source_id = ? and position > ? and position <= ? order by position limit ?
