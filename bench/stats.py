#!/usr/bin/env python3
"""bench: percentiles of a column of numbers read from stdin (one per line): prints p50 p99 max."""
import sys
xs = sorted(float(x) for x in sys.stdin.read().split())
if not xs:
    print("n/a n/a n/a")
    sys.exit(0)
def p(q):
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]
print(f"{p(0.50):.3f} {p(0.99):.3f} {xs[-1]:.3f}")
