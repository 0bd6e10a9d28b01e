#!/usr/bin/env python3
"""bench: where the replicator's CPU time goes, from a JFR recording's execution samples.

Reads `jfr print --stack-depth 64 --events jdk.ExecutionSample` output on stdin (jfr prints 5 frames a stack unless told); prints the share of samples by
area two ways: where the code runs (the topmost frame of a known area: the JDK's own frames, java.*
and the like, count for the code that called them), and as the runs before 2026-12-07 12:30 UTC
reported it (the first area of the list below found anywhere in the stack's top 12 frames, HMAC
first and Oneway last, so that Oneway's own code called from a Camel processor counted as Camel
routing). With two
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


def thread_name(thread):
    """A thread's name without the numbers pools give their threads one by one."""
    return re.sub(r"Thread-\d+", "Thread-N", re.sub(r"#\d+ ", "", thread or "?"))


stacks, threads, current, thread, inside = [], Counter(), [], None, True
for line in sys.stdin:
    m = re.match(r"\s+([\w$.<>]+)\(", line)
    t = re.match(r"\s+startTime = (\d\d:\d\d:\d\d)", line)
    n = re.match(r'\s+sampledThread = "([^"]*)"', line)
    if t and window:
        inside = window[0] <= t.group(1) <= window[1]
    elif n:
        thread = n.group(1)
    elif m:
        current.append(m.group(1))
    elif line.startswith("jdk.ExecutionSample"):
        if current and inside:
            stacks.append(current)
            threads[thread_name(thread)] += 1
        current = []
if current and inside:
    stacks.append(current)
    threads[thread_name(thread)] += 1


def running(stack):
    """The area of the topmost frame that falls into one."""
    for f in stack:
        for name, rx in AREAS:
            if re.search(rx, f):
                return name
    return "other (JVM, GC, threads)"


def listed_first(stack):
    """The first area of AREAS found in the stack's top 12 frames (the summary of the runs before)."""
    for name, rx in AREAS:
        if any(re.search(rx, f) for f in stack[:12]):
            return name
    return "other (JVM, GC, threads)"


tops = Counter(s[0] for s in stacks)
total = max(1, len(stacks))
print(f"{len(stacks)} samples")
for title, area in (("where the code runs", running), ("as the runs before counted it (first area listed in the top 12 frames)", listed_first)):
    print(f"{title}:")
    for name, n in Counter(area(s) for s in stacks).most_common():
        print(f"  {100.0 * n / total:5.1f}%  {name}")
print("threads (main: the start, before the routes run):")
for name, n in threads.most_common(8):
    print(f"  {100.0 * n / total:5.1f}%  {name}")
print("top frames:")
for f, n in tops.most_common(12):
    print(f"  {100.0 * n / total:5.1f}%  {f}")
