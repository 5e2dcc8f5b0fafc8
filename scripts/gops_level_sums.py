#!/usr/bin/env python3
"""Per-level checksums of GOPS score tables: entries, sum and sum of squares
of the stored values, and the solve statistics (fallbacks, worst
certificate gap). Usage: scripts/gops_level_sums.py DATA_DIR N
Reads the raw .nmt payload directly (header: payload offset and length at
bytes 80..96, little-endian), so it is independent of nimrod's reader."""
import json, math, struct, subprocess, sys
from pathlib import Path

data, n = Path(sys.argv[1]), int(sys.argv[2])
nimrod = Path(__file__).resolve().parent.parent / "target/release/nimrod"
print(f"{'k':>3} {'states':>12} {'sum':>22} {'sum of squares':>22} {'bland':>6} {'exact':>6} {'worst gap':>10}")
for k in range(1, n + 1):
    path = data / f"gops/n{n:02d}/k{k:02d}.nmt"
    raw = path.read_bytes()
    off, length = struct.unpack_from("<QQ", raw, 80)
    count = length // 8
    s = s2 = 0.0
    vals = struct.unpack_from(f"<{count}d", raw, off)
    s = math.fsum(vals)
    s2 = math.fsum(v * v for v in vals)
    info = json.loads(subprocess.run([str(nimrod), "info", str(path), "--json"],
                                     capture_output=True, check=True, text=True).stdout)
    st = info["meta"]["stats"]["solve"]
    print(f"{k:>3} {count:>12} {s:>22.9f} {s2:>22.6f} {st.get('fallback_bland', '-'):>6} "
          f"{st.get('fallback_exact', '-'):>6} {st.get('worst_gap', float('nan')):>10.3e}")
