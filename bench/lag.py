#!/usr/bin/env python3
"""bench: the lag samples of one phase, from what two sessions read every 0.5 s (psql's \\watch).

    lag.py positions CENTRAL REMOTE       prints the positions whose logged time is needed
    lag.py lines CENTRAL REMOTE LOGGED    prints one line per central sample: changes behind, seconds behind

CENTRAL has lines "epoch applied" (the central applied position), REMOTE "epoch captured" (changes
captured on the remote, positioned or not), LOGGED "position epoch" (a change's logged time). A
sample's changes behind are the remote's nearest reading minus the applied position; its seconds
behind are the age, at the sample, of the oldest change not applied then (position applied + 1,
numbered in commit order), 0 when that change was not yet committed."""
import bisect
import sys


def read(path):
    rows = []
    for line in open(path):
        parts = line.split()
        if len(parts) == 2:
            rows.append((float(parts[0]), int(float(parts[1]))))
    return rows


central, remote = read(sys.argv[2]), read(sys.argv[3])
if sys.argv[1] == "positions":
    print(",".join(sorted({str(applied + 1) for _, applied in central})))
    sys.exit(0)
logged = dict((int(p), float(t)) for p, t in (line.split() for line in open(sys.argv[4]) if line.strip()))
times = [t for t, _ in remote]
for t, applied in central:
    i = bisect.bisect_left(times, t)
    near = min((j for j in (i - 1, i) if 0 <= j < len(remote)), key=lambda j: abs(times[j] - t), default=None)
    behind = max(0, remote[near][1] - applied) if near is not None else 0
    oldest = logged.get(applied + 1)
    print(behind, round(max(0.0, t - oldest), 3) if oldest is not None else 0)
