#!/usr/bin/env python3
"""bench: where the whole machine's CPU went in a drain, from a system-wide `perf record -g`.

    perf script -F comm,pid,tid,time,ip,sym,dso -i perf.data | perf-summary.py PS.txt

PS.txt is `ps -eo pid,args` taken at the end of the drain, to name each PostgreSQL backend by
its cluster and application. Prints the CPU seconds of each process (idle included), then for
the four busiest PostgreSQL backends the functions their samples were in (inclusive: a
function counts once per sample wherever it is on the stack), so a server's time can be split
into parsing, planning, JSON input, index inserts and so on."""
import re
import sys
from collections import Counter, defaultdict

names = {}
for line in open(sys.argv[1]):
    parts = line.strip().split(None, 1)
    if len(parts) == 2 and parts[0].isdigit():
        names[parts[0]] = parts[1][:90]

per_process = Counter()
inclusive = defaultdict(Counter)
samples = Counter()
first = last = None
pid, frames = None, []


def flush():
    if pid is None:
        return
    samples[pid] += 1
    for f in set(frames):
        inclusive[pid][f] += 1


for line in sys.stdin:
    if not line.strip():
        flush()
        pid, frames = None, []
        continue
    if line[0] not in " \t":
        m = re.match(r"(.*?)\s+(\d+)/(\d+)\s+([\d.]+):", line)
        if not m:
            continue
        comm, pid, t = m.group(1), m.group(2), float(m.group(4))
        first = t if first is None else first
        last = t
        per_process[(comm, pid)] += 1
        frames = []
        continue
    m = re.match(r"\s*[0-9a-f]+ (.*) \((.*)\)", line)
    if m and not m.group(1).startswith("[unknown]"):
        frames.append(m.group(1))
flush()

total = sum(per_process.values())
seconds = (last - first) if first is not None else 0
rate = total / (seconds * 2) if seconds else 1  # samples per CPU-second (two cores)
print(f"{total} samples over {seconds:.1f} s")
print("CPU seconds by process:")
for (comm, p), n in per_process.most_common(15):
    # a JVM's threads are told apart by their (truncated) names
    label = "idle" if comm == "swapper" else names.get(p, comm)[:60] + (f" [{comm}]" if comm not in ("postgres", "swapper") else "")
    print(f"  {n / rate:6.2f} s  {p:>7}  {label}")
backends = [p for (comm, p), _ in per_process.most_common() if comm == "postgres"][:4]
for p in backends:
    n = samples[p]
    print(f"\n{names.get(p, 'postgres ' + p)}: {n / rate:.2f} s; functions by share of its samples (inclusive)")
    for f, c in inclusive[p].most_common(45):
        print(f"  {100 * c / n:5.1f} %  {f}")
