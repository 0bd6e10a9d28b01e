-- The fingerprints of positions after..upto (see 08-integrity.sql), for checking the central database's digest.
select position, fingerprint from oneway.change_fingerprints(?, ?)
