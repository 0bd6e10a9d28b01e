-- The position of every change of the run, in COPY's text form (io.oneway.capture.WalRecording).
copy oneway.change_position (position, log_id, tx_end) from stdin
