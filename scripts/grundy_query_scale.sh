#!/usr/bin/env bash
# Wall time of `nimrod query grundy N` (process start included) on a big
# values table, raw or packed, warm and cold (the data directory's files
# evicted from the page cache with posix_fadvise before each cold run).
# Prints the median of RUNS per heap, and checks every answer's value
# against the table read directly (scripts/grundy_mex_check.py's reader of
# the format), so a fast wrong answer cannot pass.
# Usage: scripts/grundy_query_scale.sh NIMROD_BINARY DATA_DIR RAW_TABLE [RUNS]
#   DATA_DIR holds grundy/values.nmt or grundy/values.nmt.zst; RAW_TABLE is
#   the raw table the answers are checked against.
set -euo pipefail
bin=$1; data=$2; raw=$3; runs=${4:-11}
[[ -x $bin ]] || { echo "no nimrod binary at $bin" >&2; exit 1; }
(( runs >= 1 && runs <= 1000 )) || { echo "RUNS must be 1..1000" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
PYTHONPATH="$here/lib:$here${PYTHONPATH:+:$PYTHONPATH}" python3 - "$bin" "$data" "$raw" "$runs" <<'PY'
import json, os, subprocess, sys, time
from pagecache import warm_and_cold
from grundy_mex_check import Values
binary, data, raw, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
# One or two bytes a heap: Values decodes a one-byte table (`width = 8`) by
# its metadata's list of values, as scripts/grundy_mex_check.py does.
table = Values(raw)
count = table.count

def stored(n):
    return table.value(n)

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

# A small heap, the largest value's first heap, a heap past the middle
# and the last heap (the end of the file).
last = count - 1
named = [1000000, table.meta["stats"]["max_value_first_heap"], count // 2 + 12345, last]
for n in sorted({h for h in named if 0 < h <= last}):
    warm, cold = warm_and_cold(lambda: once(n), data, runs)
    print(f"query grundy {n:<12} warm {warm:8.2f} ms   cold {cold:8.2f} ms")
PY
