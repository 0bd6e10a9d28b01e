-- The demo writer: one call makes one small business transaction on the remote
-- database (new customer now and then, an order with lines, a status change, and
-- the removal of an old order), so that a newcomer sees changes being captured.
create sequence if not exists demo.ids;

create or replace function demo.write_changes() returns bigint
language plpgsql as $$
declare
  c bigint;
  o bigint;
begin
  select id into c from demo.customers order by random() limit 1;
  if c is null or random() < 0.2 then
    c := nextval('demo.ids');
    insert into demo.customers(id, name, email, tags)
    values (c, 'Customer ' || c || ' Ünïcødé', case when random() < 0.5 then null else 'c' || c || '@example.org' end,
            array['demo', 'wave-' || (c % 3)]);
  end if;
  o := nextval('demo.ids');
  insert into demo.orders(id, customer_id, amount, status, attrs)
  values (o, c, round((random() * 100)::numeric, 2), 'new', jsonb_build_object('channel', 'demo', 'n', o));
  insert into demo.order_lines(order_id, line_no, product, qty, label)
  select o, g, 'product-' || g, g, decode(md5(o::text || g), 'hex') from generate_series(1, 2) g;
  update demo.customers set balance = balance + 1, updated_at = now() where id = c;
  update demo.orders set status = 'paid' where id = (select min(id) from demo.orders where status = 'new');
  delete from demo.orders where id = (select min(id) from demo.orders where status = 'paid')
    and (select count(*) from demo.orders) > 50;
  return o;
end $$;
