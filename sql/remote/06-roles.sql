-- Oneway remote side, part 6: least privilege.
--
-- Writers of captured tables need no rights on schema oneway: the capture triggers run with
-- the rights of their owner (the administrator who installed this SQL, or who called
-- enable_capture for the per-table functions of image mode). Every name in them is
-- schema-qualified or in pg_catalog, which is searched first, so no caller can redirect them.
alter function oneway.capture_reference(text, jsonb, char) security definer;

-- The replicator's remote connection: a member of oneway_sender, e.g.
--   create user oneway_branch1 password '...' in role oneway_sender;
-- It numbers and reads changes, records acks, and reads current rows of reference-mode tables
-- through oneway.current_row (which runs with its owner's rights and only returns logged objects).
do $$ begin
  if not exists (select from pg_roles where rolname = 'oneway_sender') then
    create role oneway_sender nologin;
  end if;
end $$;
grant usage on schema oneway to oneway_sender;
grant select on oneway.change_log to oneway_sender;
grant select, insert on oneway.change_position to oneway_sender;
grant select, update on oneway.position_counter, oneway.sender_state to oneway_sender;
grant select on oneway.node, oneway.captured_table, oneway.transfer_status, oneway.change_log_status to oneway_sender;
alter function oneway.current_row(text, jsonb) security definer;
revoke execute on function oneway.current_row(text, jsonb) from public;
grant execute on function oneway.current_row(text, jsonb) to oneway_sender;
grant select, insert, update on oneway.monitor_state to oneway_sender;
