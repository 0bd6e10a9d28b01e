-- Test schema, the same on remote and central: three related tables, a composite key, and the common column types.
create schema shop;
create table shop.customers (
  id bigint primary key, name text not null, email text, balance numeric(20, 4) not null default 0,
  tags text[], photo bytea, prefs jsonb, score double precision, updated_at timestamptz not null default now());
create table shop.orders (
  id bigint primary key, customer_id bigint not null references shop.customers(id), amount numeric(14, 2) not null,
  status text not null, created_at timestamptz not null default now());
create table shop.order_lines (
  order_id bigint not null references shop.orders(id) on delete cascade, line_no int not null,
  product text not null, qty int not null, attrs jsonb, primary key (order_id, line_no));
create table shop.not_replicated (id int primary key, v text);
-- captured in reference mode by the reference-mode tests: wide rows read when sent
create table shop.documents (id bigint primary key, title text not null, body text, scan bytea, version int not null default 1);
-- a secondary unique constraint: reordering rows inside a run could trip it
create table shop.tags (id int primary key, label text not null unique);
