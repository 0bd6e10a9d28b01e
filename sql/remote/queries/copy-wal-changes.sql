-- The run's new change-log rows, in COPY's text form (io.oneway.capture.WalRecording).
copy oneway.change_log (log_id, txid, object_type, object_id, op, capture_mode, row_image, logged_at) from stdin
