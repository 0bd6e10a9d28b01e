-- ./oneway block TABLE KEY_JSON [REASON]
select oneway.block_object(?::regclass, ?::jsonb, ?)
