-- A replicated table's columns and primary key, as a remote's schema change describes its own (shared/text-forms.sql).
select oneway.table_columns(?::regclass)::text, to_jsonb(oneway.key_columns(?::regclass))::text
