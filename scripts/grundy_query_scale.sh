#!/usr/bin/env bash
# Wall time of `nimrod query grundy N` (process start included) on a big
# values table, raw or packed, warm and cold (the data directory's files
# evicted from the page cache with posix_fadvise before each cold run).
# Prints the median of RUNS per heap, and checks every answer's value
# against the table read directly (scripts/grundy_census.py's reading of
# the format), so a fast wrong answer cannot pass.
# Usage: scripts/grundy_query_scale.sh NIMROD_BINARY DATA_DIR RAW_TABLE [RUNS]
#   DATA_DIR holds grundy/values.nmt or grundy/values.nmt.zst; RAW_TABLE is
#   the raw table the answers are checked against.
set -euo pipefail
bin=$1; data=$2; raw=$3; runs=${4:-11}
[[ -x $bin ]] || { echo "no nimrod binary at $bin" >&2; exit 1; }
(( runs >= 1 && runs <= 1000 )) || { echo "RUNS must be 1..1000" >&2; exit 1; }
lib=$(cd "$(dirname "$0")/lib" && pwd)
PYTHONPATH="$lib${PYTHONPATH:+:$PYTHONPATH}" python3 - "$bin" "$data" "$raw" "$runs" <<'PY'
import json, struct, subprocess, sys, time
from pagecache import warm_and_cold
binary, data, raw, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
with open(raw, "rb") as f:
    head = f.read(160)
    count = struct.unpack_from("<Q", head, 24)[0]
    offset = struct.unpack_from("<Q", head, 80)[0]

def stored(n):
    with open(raw, "rb") as f:
        f.seek(offset + 2 * n)
        return struct.unpack("<H", f.read(2))[0]

def once(n):
    start = time.perf_counter()
    p = subprocess.run([binary, "query", "grundy", str(n), "--json", "--data", data],
                       capture_output=True, text=True)
    ms = (time.perf_counter() - start) * 1000
    if p.returncode != 0:
        sys.exit(f"query grundy {n} failed (exit {p.returncode}): {p.stderr.strip()}")
    value = json.loads(p.stdout)["value"]
    if value != stored(n):
        sys.exit(f"query grundy {n} answered {value}, the table holds {stored(n)}")
    return ms

last = count - 1
for n in [1000000, 475094020, 2**31 + 12345, last]:
    warm, cold = warm_and_cold(lambda: once(n), data, runs)
    print(f"query grundy {n:<12} warm {warm:8.2f} ms   cold {cold:8.2f} ms")
PY
