#!/usr/bin/env python3
"""bench: where the replicator's CPU time goes, from a JFR recording's execution samples.

Reads `jfr print --stack-depth 64 --events jdk.ExecutionSample` output on stdin (jfr prints 5 frames a stack unless told); prints the share of samples by
area (the first frame of a stack that falls into a known area, searched from the top). With two
arguments FROM and TO (local times HH:MM:SS, as `date +%T` gives), only the samples taken between
them count: a recording that runs from the JVM's start is dumped whole chunks at a time."""
import re
import sys
from collections import Counter

AREAS = [
    ("HMAC", r"javax\.crypto|sun\.security|io\.oneway\.wire\.MessageSigner"),
    ("JSON", r"com\.fasterxml\.jackson|io\.oneway\.wire\.WireCodec"),
    ("JDBC / PostgreSQL driver", r"org\.postgresql|com\.zaxxer\.hikari|org\.springframework\.jdbc"),
    ("JMS / Artemis", r"org\.apache\.activemq|org\.messaginghub|org\.springframework\.jms|io\.netty"),
    ("resequencer", r"org\.apache\.camel\.processor\.resequencer"),
    ("Camel routing", r"org\.apache\.camel"),
    ("Oneway", r"io\.oneway"),
]
window = sys.argv[1:3] if len(sys.argv) > 2 else None
stacks, current, inside = [], [], True
for line in sys.stdin:
    m = re.match(r"\s+([\w$.<>]+)\(", line)
    t = re.match(r"\s+startTime = (\d\d:\d\d:\d\d)", line)
    if t and window:
        inside = window[0] <= t.group(1) <= window[1]
    elif m:
        current.append(m.group(1))
    elif line.startswith("jdk.ExecutionSample"):
        if current and inside:
            stacks.append(current)
        current = []
if current and inside:
    stacks.append(current)
areas, tops = Counter(), Counter()
for s in stacks:
    tops[s[0]] += 1
    for name, rx in AREAS:
        if any(re.search(rx, f) for f in s[:12]):
            areas[name] += 1
            break
    else:
        areas["other (JVM, GC, threads)"] += 1
total = max(1, len(stacks))
print(f"{len(stacks)} samples")
for name, n in areas.most_common():
    print(f"  {100.0 * n / total:5.1f}%  {name}")
print("top frames:")
for f, n in tops.most_common(12):
    print(f"  {100.0 * n / total:5.1f}%  {f}")
