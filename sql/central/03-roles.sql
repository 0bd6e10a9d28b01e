-- Oneway central side, part 3: least privilege.
--
-- The replicator's central connection: a member of oneway_applier, e.g.
--   create user oneway_central password '...' in role oneway_applier;
-- It may write its own bookkeeping and, of the application's tables, only those enabled with
--   select oneway.enable_apply('shop.orders', 'branch1');   (05-read-only.sql)
-- Running apply transactions as a replica (session_replication_role) needs, for a role that is
-- not a superuser, PostgreSQL 15 or later: the grant below is made there, by a superuser or by
-- an installer a superuser granted it to with grant option (the database owner, say).
do $$ begin
  if not exists (select from pg_roles where rolname = 'oneway_applier') then
    create role oneway_applier nologin;
  end if;
  if current_setting('server_version_num')::int >= 150000 then
    begin
      execute 'grant set on parameter session_replication_role to oneway_applier';
    exception when insufficient_privilege then
      raise exception 'cannot let oneway_applier apply as a replica (session_replication_role): %', sqlerrm
        using errcode = '42501',
              hint = format('install as a superuser, or have a superuser run once: grant set on parameter session_replication_role '
                            'to %I with grant option', current_user);
    end;
  end if;
end $$;
grant usage on schema oneway to oneway_applier;
grant select, insert, update on oneway.source_progress to oneway_applier;
grant select, insert on oneway.receive_run to oneway_applier;
grant select on oneway.receive_log to oneway_applier;
grant select on oneway.skipped_change to oneway_applier;
grant select, insert, delete on oneway.staged_change to oneway_applier;
grant select, insert, update, delete on oneway.snapshot_state to oneway_applier;
grant select, insert, update on oneway.monitor_state to oneway_applier;
