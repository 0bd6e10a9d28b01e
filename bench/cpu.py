#!/usr/bin/env python3
"""bench: where the machine's CPU went over a phase.

    cpu.py ticks WRITER REMOTE CENTRAL REPLICATOR...   prints one line of CPU ticks so far
    cpu.py cores BEFORE AFTER SECONDS                  two such lines: cores used by each over SECONDS

WRITER is the shell that runs pgbench (its finished children's time: pgbench's, once it has been
waited for), REMOTE and CENTRAL are postmasters (their own time, their live children's and their
exited children's: every backend, autovacuum worker and WAL process of the cluster), REPLICATOR
one or more JVMs (0 for none). The last figure is the whole machine's busy time, from /proc/stat;
what none of the others used is "other" (the broker processes, psql, the kernel's own threads).
"""
import os
import sys


def stat(pid):
    with open(f"/proc/{pid}/stat") as f:
        s = f.read()
    fields = s[s.rindex(")") + 2:].split()  # fields[0] is field 3 of proc(5)
    return int(fields[1]), [int(x) for x in fields[11:15]]  # ppid; utime, stime, cutime, cstime


def processes():
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                yield int(d), stat(d)
            except (OSError, ValueError):
                pass  # ended while listed


def ticks(writer, remote, central, replicators):
    procs = dict(processes())
    def own(pid):
        return sum(procs[pid][1][:2]) if pid in procs else 0
    def waited(pid):
        return sum(procs[pid][1][2:]) if pid in procs else 0
    def cluster(pm):
        return own(pm) + waited(pm) + sum(sum(t[:2]) for p, (pp, t) in procs.items() if pp == pm)
    with open("/proc/stat") as f:
        cpu = [int(x) for x in f.readline().split()[1:]]
    busy = sum(cpu[:8]) - cpu[3] - cpu[4]  # all but idle and iowait
    return [waited(writer), cluster(remote), cluster(central), sum(own(p) for p in replicators), busy]


def cores(before, after, seconds):
    hz = os.sysconf("SC_CLK_TCK")
    d = [(b - a) / hz / seconds for a, b in zip(before, after)]
    other = d[4] - sum(d[:4])
    return (f"pgbench {d[0]:.2f}, remote PostgreSQL {d[1]:.2f}, central PostgreSQL {d[2]:.2f}, "
            f"replicator {d[3]:.2f}, other {other:.2f}; busy {d[4]:.2f} of {os.cpu_count()} cores")


if __name__ == "__main__":
    if sys.argv[1] == "ticks":
        pids = [int(x) for x in sys.argv[2:]]
        print(" ".join(str(t) for t in ticks(pids[0], pids[1], pids[2], pids[3:])))
    else:
        print(cores([int(x) for x in sys.argv[2].split()], [int(x) for x in sys.argv[3].split()], float(sys.argv[4])))
