#!/usr/bin/env python3
"""Totals of a chess shipping run: per table its positions, raw, shipped
and WDL bytes and bits per position, then totals by piece count and for
the whole set, beside the public figures issue 56 compares with.

    scripts/chess_ship_totals.py SHIP_LOG WDL_LOG NIMROD DATA > totals.txt

SHIP_LOG is the log of scripts/chess_ship_check.sh (a table's line ends in
'same' when its shipped form restored byte for byte), WDL_LOG that of
scripts/chess_wdl_set.sh. The positions are the legal positions up to
symmetry the table stores, both sides to move (`stored` in the statistics
of `NIMROD info --json DATA/chess/TABLE.nmt`), as in the 3-4 piece results
of 2026-11-29. Exits 1 if a shipped table did not restore ('same'), or if a
table lacks a WDL line.
"""
import json
import subprocess
import sys

if len(sys.argv) != 5:
    sys.exit("usage: chess_ship_totals.py SHIP_LOG WDL_LOG NIMROD DATA")
ship_log, wdl_log, nimrod, data = sys.argv[1:]

MIB = 1 << 20
GIB = 1 << 30
# Public figures (issue 56): chesstb's shipping DTM, 3-5 pieces and 3+4;
# Syzygy's WDL 3-5 and chesstb's WDL.
CHESSTB_345 = 1.69 * GIB
CHESSTB_34 = 5.8 * MIB
SYZYGY_WDL = 378 * MIB
CHESSTB_WDL = 205 * MIB

shipped = {}
bad = []
for line in open(ship_log):
    f = line.split()
    if not f or f[0].startswith("#"):
        continue
    if f[-1] != "same":
        bad.append(f[0])
        continue
    shipped[f[0]] = (int(f[1]), int(f[2]))
wdl = {}
for line in open(wdl_log):
    f = line.split()
    if f and not f[0].startswith("#"):
        wdl[f[0]] = int(f[2])
missing = sorted(t for t in shipped if t not in wdl)
if bad or missing:
    sys.exit(f"not restored: {bad}; no WDL line: {missing}")


def pieces(table):
    return sum(c.isupper() for c in table)


def positions(table):
    out = subprocess.run(
        [nimrod, "info", "--json", f"{data}/chess/{table}.nmt"],
        check=True, capture_output=True, text=True,
    ).stdout
    s = json.loads(out)["meta"]["stats"]
    return s["white_to_move"]["stored"] + s["black_to_move"]["stored"]


rows = []
for t in sorted(shipped):
    raw, ship = shipped[t]
    rows.append((t, pieces(t), positions(t), raw, ship, wdl[t]))

print(f"{'table':10} {'positions':>12} {'raw':>12} {'shipped':>11} {'bits/pos':>8} {'wdl':>9}")
for t, _, pos, raw, ship, w in rows:
    print(f"{t:10} {pos:12d} {raw:12d} {ship:11d} {8 * ship / pos:8.4f} {w:9d}")


def total(label, sel):
    n = len(sel)
    pos = sum(r[2] for r in sel)
    raw = sum(r[3] for r in sel)
    ship = sum(r[4] for r in sel)
    w = sum(r[5] for r in sel)
    print(
        f"# {label}: {n} tables, {pos} positions, raw {raw} bytes, shipped {ship} bytes "
        f"({ship / MIB:.2f} MiB, {ship / GIB:.3f} GiB, {8 * ship / pos:.4f} bits a position), "
        f"WDL {w} bytes ({w / MIB:.2f} MiB)"
    )
    return ship, w


for k in (3, 4, 5):
    total(f"{k} pieces", [r for r in rows if r[1] == k])
s34, _ = total("3+4 pieces", [r for r in rows if r[1] <= 4])
s, w = total("all", rows)
print(f"# 3+4 shipped against chesstb's shipping DTM (about 5.8 MiB): {s34 / CHESSTB_34:.3f}x")
print(
    f"# whole set shipped against chesstb's 1.69 GiB: {s / CHESSTB_345:.3f}x "
    f"({len(rows)} of 145 tables)"
)
print(
    f"# WDL against Syzygy's WDL (378 MiB): {w / SYZYGY_WDL:.3f}x; "
    f"against chesstb's (~205 MiB): {w / CHESSTB_WDL:.3f}x"
)
