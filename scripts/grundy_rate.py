#!/usr/bin/env python3
"""Wall time a heap by range, from the progress logs of a long Grundy's game
(or octal) build: the lines `[ T s] JOB: sparse-space values N of M`.

    scripts/grundy_rate.py LOG... > rates.txt

Each log is one run (a resumed run starts its clock at 0 again); the
intervals between consecutive progress lines are grouped by the power of
two their first heap falls in (half powers past 2^28). Other work may share
the machine, so besides the mean each range gives the median of its
fastest quarter of intervals, the figure docs/grundy.md quotes.
"""
import re
import statistics
import sys

LINE = re.compile(r"\[\s*([0-9.]+)s\] (\S+): sparse-space values (\d+) of (\d+)")

if len(sys.argv) < 2:
    sys.exit("usage: grundy_rate.py LOG...")


def range_of(n):
    p = max(n, 1).bit_length() - 1
    lo = 1 << p
    if p >= 28 and n >= lo + lo // 2:
        return (lo + lo // 2, 2 * lo, f"3*2^{p - 1} - 2^{p + 1}")
    if p >= 28:
        return (lo, lo + lo // 2, f"2^{p} - 3*2^{p - 1}")
    return (lo, 2 * lo, f"2^{p} - 2^{p + 1}")


ranges = {}
for path in sys.argv[1:]:
    prev = None
    for line in open(path, errors="replace"):
        m = LINE.search(line)
        if not m:
            continue
        t, n = float(m.group(1)), int(m.group(3))
        if prev and n > prev[1] and t > prev[0]:
            key = range_of(prev[1])
            ranges.setdefault(key, []).append((t - prev[0]) / (n - prev[1]) * 1e6)
        prev = (t, n)

print("| heaps | intervals | µs of wall a heap, mean | median of the fastest quarter |")
print("| --- | ---: | ---: | ---: |")
for key in sorted(ranges):
    r = sorted(ranges[key])
    fast = r[: max(1, len(r) // 4)]
    print(f"| {key[2]} | {len(r)} | {statistics.mean(r):.2f} | {statistics.median(fast):.2f} |")
