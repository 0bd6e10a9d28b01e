-- An integrity alarm (kind, detail); a repeat counts on the open alarm.
select oneway.raise_alarm(?, ?)
