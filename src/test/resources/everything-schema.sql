-- A column of every built-in type family, arrays of several (of two dimensions, with a lower bound
-- other than 1, of a composite type), a composite type, a domain, an enum, an identity column
-- GENERATED ALWAYS and a stored generated column: the same on remote and central.
create type shop.address as (street text, zip int, tags text[]);
create type shop.mood as enum ('sad', 'ok', 'happy');
create domain shop.positive as numeric(10, 2) check (value > 0);
create table shop.everything (
  id int primary key,
  serial_id int generated always as identity,
  b boolean, i2 smallint, i4 int, i8 bigint, n numeric, n_fixed numeric(12, 4),
  f4 real, f8 double precision, m money,
  c char(5), vc varchar(10), t text, bin bytea,
  d date, ti time, ttz timetz, ts timestamp, tstz timestamptz, iv interval,
  j json, jb jsonb, x xml, tv tsvector, tq tsquery, u uuid,
  bits bit(4), vbits varbit, inet_ inet, cidr_ cidr, mac macaddr, mac8 macaddr8,
  pt point, ln line, ls lseg, bx box, pa path, pg polygon, ci circle,
  r4 int4range, rn numrange, rts tstzrange, rd daterange, mr int4multirange,
  e shop.mood, dom shop.positive, lsn pg_lsn,
  a_i int[], a_t text[], a_ts timestamptz[], a_jb jsonb[], a_iv interval[], a_pt point[], a_n numeric[],
  addr shop.address, a_addr shop.address[], a2 int[][], a_lb int[], ch "char", nm name, trs tsrange,
  g numeric generated always as (n_fixed * 2) stored
);
