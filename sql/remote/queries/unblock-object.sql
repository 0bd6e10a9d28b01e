-- ./oneway unblock TABLE KEY_JSON
select oneway.unblock_object(?::regclass, ?::jsonb)
