-- The demo schema of the all-in-one default: the same on the remote and the central
-- database. Three related tables with a composite key and the common column types.
create schema if not exists demo;

create table if not exists demo.customers (
  id         bigint primary key,
  name       text not null,
  email      text,
  balance    numeric(14, 2) not null default 0,
  tags       text[],
  updated_at timestamptz not null default now()
);

create table if not exists demo.orders (
  id          bigint primary key,
  customer_id bigint not null references demo.customers(id),
  amount      numeric(14, 2) not null,
  status      text not null,
  attrs       jsonb,
  created_at  timestamptz not null default now()
);

create table if not exists demo.order_lines (
  order_id bigint not null references demo.orders(id) on delete cascade,
  line_no  int not null,
  product  text not null,
  qty      int not null,
  label    bytea,
  primary key (order_id, line_no)
);
