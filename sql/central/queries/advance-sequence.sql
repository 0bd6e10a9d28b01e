-- A remote sequence's value (table, column, sequence name, value twice): the central sequence of
-- that column, or of that name, moves to it, never backwards. Returns the sequence, null when none.
with s as (select coalesce(pg_get_serial_sequence(?, ?)::regclass, to_regclass(?)) as seq)
select s.seq::text,
       case when s.seq is not null and coalesce(pg_sequence_last_value(s.seq), -9223372036854775808) < ? then setval(s.seq, ?) end
  from s
