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
        name, verdict, user, system, wall, rss_kib = fields
        verified[name] = (verdict, float(user) + float(system), float(wall), int(rss_kib))


def seconds(text):
    return float(text) if text else 0.0


def hours(s):
    return f"{s / 3600:.2f} h"


print("| table | pieces | stored MB | build stages s | plies | longest win W / B (moves) "
      "| white wins / black wins / draws | verify CPU s | verify peak MiB | verified |")
print("| --- | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: | --- |")
problems = []
totals = {}
for row in sorted(rows, key=lambda r: (int(r["pieces"]), r["table"])):
    name = row["table"]
    verdict, cpu, _wall, rss = verified.get(name, ("missing", 0.0, 0.0, 0))
    if verdict != "ok":
        problems.append(f"{name}: verification {verdict}")
    build = seconds(row["total_s"])
    positions = [int(row[k]) for k in ("white_wins", "black_wins", "draws")]
    total = sum(positions) or 1
    share = " / ".join(f"{100 * p / total:.1f}%" for p in positions)
    print(f"| {name} | {row['pieces']} | {int(row['bytes']) / 1e6:.1f} | {build:.1f} | {row['plies']} "
          f"| {row['longest_win_white_moves']} / {row['longest_win_black_moves']} | {share} "
          f"| {cpu:.1f} | {rss / 1024:.0f} | {verdict} |")
    t = totals.setdefault(int(row["pieces"]), [0, 0, 0.0, 0.0, 0, 0])
    t[0] += 1
    t[1] += int(row["bytes"])
    t[2] += build
    t[3] += cpu
    t[4] += verdict == "ok"
    t[5] = max(t[5], int(row["longest_win_white_moves"]), int(row["longest_win_black_moves"]))
for name in sorted(set(verified) - {r["table"] for r in rows}):
    problems.append(f"{name}: in the verification log but not in {figures_path}")

print()
print("| pieces | tables | stored | build stages (wall) | verify (CPU) | verified | longest mate (moves) |")
print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
grand = [0, 0, 0.0, 0.0, 0, 0]
for pieces in sorted(totals):
    t = totals[pieces]
    print(f"| {pieces} | {t[0]} | {t[1] / 1e9:.2f} GB | {hours(t[2])} | {hours(t[3])} | {t[4]} | {t[5]} |")
    for i in range(5):
        grand[i] += t[i]
    grand[5] = max(grand[5], t[5])
print(f"| all | {grand[0]} | {grand[1] / 1e9:.2f} GB | {hours(grand[2])} | {hours(grand[3])} "
      f"| {grand[4]} | {grand[5]} |")
if problems:
    print()
    for p in problems:
        print(f"- NOT VERIFIED: {p}")
    sys.exit(1)
