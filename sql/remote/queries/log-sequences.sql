-- Polled by route log-sequences: log the sequences of captured tables that advanced (10-sequences.sql).
select oneway.log_sequences() as logged
