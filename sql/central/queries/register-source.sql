-- First contact with a source: its progress row, applied position 0.
insert into oneway.source_progress(source_id) values (?) on conflict (source_id) do nothing
