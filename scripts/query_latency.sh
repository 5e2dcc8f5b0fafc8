#!/usr/bin/env bash
# Cold and warm wall time of single CLI queries (process start included).
# Cold: the data directory's table files are evicted from the page cache
# (posix_fadvise DONTNEED) before every run. Prints the median of RUNS.
# Every query's exit code and answer are checked: a query that fails (a
# missing table, say) stops the script with its error instead of being
# timed as a fast answer.
# Usage: scripts/query_latency.sh [NIMROD_BINARY] [DATA_DIR] [RUNS]
set -euo pipefail
bin=${1:-target/release/nimrod}
data=${2:-data}
runs=${3:-21}
[[ -x $bin ]] || { echo "query_latency: no nimrod binary at $bin" >&2; exit 1; }
[[ -d $data ]] || { echo "query_latency: no data directory $data" >&2; exit 1; }
(( runs >= 1 && runs <= 1000 )) || { echo "query_latency: RUNS must be 1..1000" >&2; exit 1; }
lib=$(cd "$(dirname "$0")/lib" && pwd)
PYTHONPATH="$lib${PYTHONPATH:+:$PYTHONPATH}" python3 - "$bin" "$data" "$runs" <<'PY'
import subprocess, sys, time
from pagecache import warm_and_cold
binary, data, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
queries = [
    ["grundy", "1000000"],
    ["chess", "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1"],
    ["ttt", "--size", "4x4", "--k", "4", "x..............."],
    ["gops", "--cards", "10", "--mine", "2,5,9", "--theirs", "1,7,8", "--prizes", "3,4,10"],
]

def once(q):
    start = time.perf_counter()
    p = subprocess.run([binary, "query", *q, "--data", data], capture_output=True, text=True)
    ms = (time.perf_counter() - start) * 1000
    if p.returncode != 0 or not p.stdout.strip():
        sys.exit(f"query_latency: query {' '.join(q)} failed (exit {p.returncode}): {p.stderr.strip()}")
    return ms

for q in queries:
    warm, cold = warm_and_cold(lambda: once(q), data, runs)
    print(f"{'query ' + ' '.join(q):<62} warm {warm:8.2f} ms   cold {cold:8.2f} ms")
PY
