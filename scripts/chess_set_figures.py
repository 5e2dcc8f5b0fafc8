#!/usr/bin/env python3
"""Figures of a chess table build: per table its size, the seconds of each
build stage (from the build's progress log on stderr), its longest win and
its retrograde plies (from the table's statistics).

    scripts/chess_set_figures.py DATA BUILD_LOG [NIMROD] [CPU_LOG] > table.csv

DATA is the data directory, BUILD_LOG the captured stderr of
`nimrod build --only chess …`. Tables in DATA whose stages are not all in the
log (built by another run) get empty times. Packed tables (`.nmt.zst`) are
read too; `bytes` is the file's size as stored (`stored_as` says which).
CPU_LOG, from `scripts/chess_set_build.sh` (a table per process), gives
the tables it built their CPU seconds (user + system), wall seconds and
peak RSS; the others get empty cells there (a build of many tables in
one process shares its threads between them).
"""
import csv
import json
import os
import re
import subprocess
import sys

data, log = sys.argv[1], sys.argv[2]
nimrod = sys.argv[3] if len(sys.argv) > 3 else "target/release/nimrod"
own = {}
if len(sys.argv) > 4:
    for line in open(sys.argv[4]):
        f = line.split()
        if len(f) == 5:
            own[f[0]] = (float(f[1]) + float(f[2]), float(f[3]), int(f[4]) / 1024)
stage = re.compile(r"\] chess/(\w+): (first pass|retrograde|statistics)[^\n]* done in ([0-9.]+) s")
times = {}
for line in open(log, errors="replace"):
    m = stage.search(line)
    if m:
        times.setdefault(m.group(1), {})[m.group(2)] = float(m.group(3))

out = csv.writer(sys.stdout)
out.writerow(["table", "pieces", "stored_as", "bytes", "first_pass_s", "retrograde_s", "statistics_s",
              "total_s", "plies", "longest_win_white_moves", "longest_win_black_moves",
              "white_wins", "black_wins", "draws", "process_cpu_s", "process_wall_s",
              "peak_rss_mib"])
folder = os.path.join(data, "chess")
for name in sorted(f for f in os.listdir(folder) if f.endswith((".nmt", ".nmt.zst"))):
    table = name.split(".")[0]
    info = json.loads(subprocess.run([nimrod, "info", os.path.join(folder, name), "--json"],
                                     capture_output=True, text=True, check=True).stdout)
    s = info["meta"]["stats"]
    w, b = s["white_to_move"], s["black_to_move"]
    t = times.get(table, {})
    # The sweep engine (pawnless tables since issue 55) reports its first
    # pass inside "retrograde sweeps": no separate stage, counted there.
    first = t.get("first pass", 0.0 if "retrograde" in t else None)
    parts = [first, t.get("retrograde"), t.get("statistics")]
    total = sum(parts) if all(p is not None for p in parts) else None
    pieces = sum(c.isupper() for c in table)
    fmt = lambda x: "" if x is None else f"{x:.2f}"
    stored_as = "packed" if name.endswith(".zst") else "raw"
    out.writerow([table, pieces, stored_as, os.path.getsize(os.path.join(folder, name)),
                  *map(fmt, parts), fmt(total), s["plies"], w["longest_win"], b["longest_win"],
                  w["wins"] + b["losses"], b["wins"] + w["losses"], w["draws"] + b["draws"],
                  *map(fmt, own.get(table, (None, None, None)))])
