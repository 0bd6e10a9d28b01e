-- Capture on for the demo tables (remote database of the all-in-one default).
select oneway.enable_capture(t) from unnest(array['demo.customers', 'demo.orders', 'demo.order_lines']::regclass[]) t;
