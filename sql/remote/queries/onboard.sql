-- ./oneway onboard TABLE [MODE]: switch capture on and snapshot the table, in one transaction (see 11-snapshot.sql).
select oneway.onboard(?::regclass, coalesce(?::text, 'image'), ?::int, ?::int)
