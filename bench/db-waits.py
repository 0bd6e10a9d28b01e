#!/usr/bin/env python3
"""bench: where the replicator's threads wait for a database, from a JFR recording.

Reads `jfr print --events jdk.SocketRead` output on stdin (JFR records reads longer than
10 ms); prints, per thread, the total time spent in such reads and how many there were."""
import re
import sys
from collections import Counter

total, count, event = Counter(), Counter(), {}
for line in sys.stdin:
    m = re.match(r"\s+duration = ([\d.]+) (ms|s)", line)
    if m:
        event["ms"] = float(m.group(1)) * (1000 if m.group(2) == "s" else 1)
    m = re.match(r'\s+eventThread = "([^"]+)"', line)
    if m:
        event["thread"] = re.sub(r"#\d+ ", "", m.group(1))
    if line.startswith("}") and "thread" in event:
        total[event["thread"]] += event.get("ms", 0)
        count[event["thread"]] += 1
        event = {}
for thread, ms in total.most_common(6):
    print(f"{ms / 1000:6.1f} s in {count[thread]:5d} reads  {thread}")
