-- verify: the database's encoding, which the bucket of a key's text depends on.
select pg_encoding_to_char(encoding) from pg_database where datname = current_database()
