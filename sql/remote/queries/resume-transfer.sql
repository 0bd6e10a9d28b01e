-- ./oneway resume-transfer: after a digest mismatch was repaired on the central database.
select oneway.resume_transfer()
