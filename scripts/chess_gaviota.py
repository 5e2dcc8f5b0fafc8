#!/usr/bin/env python3
"""Compare nimrod's distance to mate with the Gaviota tables on a random
sample of every built 3- and 4-piece table.

Usage: scripts/chess_gaviota.py [--data DIR] [--per-table N] [--seed S]
                                [--gaviota DIR] [--nimrod PATH]

Needs the Python `chess` package (pip install chess) and the Gaviota files
in ../shared/oracles/chess/gaviota. Both sides report plies, positive when
the side to move mates, 0 for draws and for a side already mated.
Exits non-zero on any mismatch.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import chess
import chess.gaviota

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

ap = argparse.ArgumentParser()
ap.add_argument("--data", default=os.path.join(ROOT, "data"))
ap.add_argument("--per-table", type=int, default=2000)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--gaviota", default=os.path.join(ROOT, "../shared/oracles/chess/gaviota"))
ap.add_argument("--nimrod", default=os.path.join(ROOT, "target/release/nimrod"))
args = ap.parse_args()

if not os.path.isdir(args.gaviota):
    sys.exit(f"SKIPPED: {args.gaviota} is absent")

tables = sorted(
    f[:-4] for f in os.listdir(os.path.join(args.data, "chess")) if f.endswith(".nmt")
)
tables = [t for t in tables if len(t) - 1 <= 4]  # 3 and 4 pieces: letters minus the 'v'
total = mismatches = 0
start = time.time()
with chess.gaviota.open_tablebase(args.gaviota) as gtb:
    for t in tables:
        out = subprocess.run(
            [args.nimrod, "query", "chess", "--sample", str(args.per_table), "--table", t,
             "--seed", str(args.seed), "--data", args.data, "--json"],
            check=True, capture_output=True, text=True).stdout
        bad = 0
        for row in json.loads(out)["positions"]:
            board = chess.Board(row["fen"])
            theirs = gtb.probe_dtm(board)
            if theirs != row["dtm_plies"]:
                bad += 1
                if bad <= 3:
                    print(f"  MISMATCH {t} {row['fen']}: nimrod {row['dtm_plies']}, gaviota {theirs}")
        total += args.per_table
        mismatches += bad
        print(f"{t:8} {args.per_table} positions, {bad} mismatches", flush=True)
print(f"gaviota: {len(tables)} tables, {total} positions, {mismatches} mismatches, "
      f"{time.time() - start:.0f} s")
sys.exit(1 if mismatches else 0)
