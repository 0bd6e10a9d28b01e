-- ./oneway clear-alarms
select oneway.clear_alarms()
