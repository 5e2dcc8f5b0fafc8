#!/usr/bin/env python3
"""One Markdown table of a chess set: per table its size, build time,
longest mates and verification, with totals per piece count.

    scripts/chess_set_table.py FIGURES_CSV VERIFY_LOG > table.md

FIGURES_CSV is the output of scripts/chess_set_figures.py (size as
stored, wall seconds of the build stages, plies, longest win with White and
with Black to move, position counts). VERIFY_LOG is the log of
scripts/chess_verify_set.sh (per table: ok or FAILED, user and system CPU
seconds, wall seconds, peak RSS in KiB); its last line for a table counts.

Exits 1 if a table of the CSV has no "ok" line in the log, or if the log
holds a table the CSV does not: the output then says which.
"""
import csv
import sys

if len(sys.argv) != 3:
    sys.exit("usage: chess_set_table.py FIGURES_CSV VERIFY_LOG")
figures_path, verify_path = sys.argv[1], sys.argv[2]

rows = list(csv.DictReader(open(figures_path)))
verified = {}
for line in open(verify_path):
    fields = line.split()
    if len(fields) == 6 and fields[1] in ("ok", "FAILED"):
        name, verdict, user, system, _wall, rss_kib = fields
        verified[name] = (verdict, float(user) + float(system), int(rss_kib))


def seconds(text):
    return float(text) if text else 0.0


def hours(s):
    return f"{s / 3600:.2f} h"


print("| table | pieces | stored MB | build stages s | plies | longest win W / B (moves) "
      "| white wins / black wins / draws | verify CPU s | verify peak MiB | verified |")
print("| --- | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: | --- |")
problems = []
tables = []  # (pieces, stored bytes, build s, verify CPU s, verified ok, longest mate)
for row in sorted(rows, key=lambda r: (int(r["pieces"]), r["table"])):
    name = row["table"]
    verdict, cpu, rss = verified.get(name, ("missing", 0.0, 0))
    if verdict != "ok":
        problems.append(f"{name}: verification {verdict}")
    build = seconds(row["total_s"])
    positions = [int(row[k]) for k in ("white_wins", "black_wins", "draws")]
    total = sum(positions) or 1
    share = " / ".join(f"{100 * p / total:.1f}%" for p in positions)
    print(f"| {name} | {row['pieces']} | {int(row['bytes']) / 1e6:.1f} | {build:.1f} | {row['plies']} "
          f"| {row['longest_win_white_moves']} / {row['longest_win_black_moves']} | {share} "
          f"| {cpu:.1f} | {rss / 1024:.0f} | {verdict} |")
    longest = max(int(row["longest_win_white_moves"]), int(row["longest_win_black_moves"]))
    tables.append((int(row["pieces"]), int(row["bytes"]), build, cpu, verdict == "ok", longest))
for name in sorted(set(verified) - {r["table"] for r in rows}):
    problems.append(f"{name}: in the verification log but not in {figures_path}")


def total_row(label, group):
    print(f"| {label} | {len(group)} | {sum(t[1] for t in group) / 1e9:.2f} GB "
          f"| {hours(sum(t[2] for t in group))} | {hours(sum(t[3] for t in group))} "
          f"| {sum(t[4] for t in group)} | {max(t[5] for t in group)} |")


print()
print("| pieces | tables | stored | build stages (wall) | verify (CPU) | verified | longest mate (moves) |")
print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for pieces in sorted({t[0] for t in tables}):
    total_row(pieces, [t for t in tables if t[0] == pieces])
total_row("all", tables)
if problems:
    print()
    for p in problems:
        print(f"- NOT VERIFIED: {p}")
    sys.exit(1)
