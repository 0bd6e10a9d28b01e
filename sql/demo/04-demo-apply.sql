-- The demo tables on the central database of the all-in-one default: replicated from branch1,
-- written by the applier only (05-read-only.sql).
select oneway.enable_apply(t, 'branch1') from unnest(array['demo.customers', 'demo.orders', 'demo.order_lines']::regclass[]) t;
