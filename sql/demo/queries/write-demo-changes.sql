-- Called by route write-demo-changes: one demo business transaction on the remote database.
select demo.write_changes() as order_id
