#!/usr/bin/env python3
"""Totals over per-deal CSVs of the quotient solver (deal, verdict,
classes, cpu_s): won / lost / unknown, the winnable share with its 95%
Wilson interval (unknowns counted both ways), CPU per deal (mean, median,
99th percentile, max) and the largest number of classes."""
import csv, math, sys


def wilson(k, n, z=1.959964):
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return ((c - h) / d, (c + h) / d)


rows = []
for path in sys.argv[1:]:
    rows += list(csv.DictReader(open(path)))
if not rows:
    sys.exit("no rows")
n = len(rows)
won = sum(r["verdict"] == "won" for r in rows)
lost = sum(r["verdict"] == "lost" for r in rows)
unk = n - won - lost
cpu = sorted(float(r["cpu_s"]) for r in rows)
lo, hi = wilson(won, n)
lo2, hi2 = wilson(won + unk, n)
deals = sorted(int(r["deal"]) for r in rows)
print(f"deals {deals[0]}..{deals[-1]} ({n}): {won} won, {lost} lost, {unk} unknown")
print(f"winnable {100*won/n:.3f}% [{100*lo:.3f}%, {100*hi:.3f}%] (95% Wilson)"
      + (f"; {100*(won+unk)/n:.3f}% [{100*lo2:.3f}%, {100*hi2:.3f}%] if every unknown is won" if unk else ""))
print(f"CPU per deal: mean {1000*sum(cpu)/n:.2f} ms, median {1000*cpu[n//2]:.2f} ms, "
      f"p99 {1000*cpu[min(n-1, round(0.99*(n-1)))]:.1f} ms, max {cpu[-1]:.2f} s; total {sum(cpu):.0f} s")
print(f"largest search: {max(int(r['classes']) for r in rows)} classes")
