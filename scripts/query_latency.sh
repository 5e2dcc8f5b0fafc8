#!/usr/bin/env bash
# Cold and warm wall time of single CLI queries (process start included).
# Cold: the data directory's table files are evicted from the page cache
# (posix_fadvise DONTNEED) before every run. Prints the median of RUNS.
# Usage: scripts/query_latency.sh [NIMROD_BINARY] [DATA_DIR] [RUNS]
set -euo pipefail
bin=${1:-target/release/nimrod}
data=${2:-data}
runs=${3:-21}
evict() {
  python3 - "$data" <<'PY'
import os, sys
for root, _, files in os.walk(sys.argv[1]):
    for f in files:
        fd = os.open(os.path.join(root, f), os.O_RDONLY)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
PY
}
median_ms() { sort -n | awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)]}'; }
time_one() { # prints ms
  local s e
  s=$(date +%s%N); "$bin" query "$@" --data "$data" >/dev/null; e=$(date +%s%N)
  echo "scale=3; ($e - $s) / 1000000" | bc
}
for q in "grundy 1000000" "chess 8/8/8/8/2r5/8/2k5/K6Q_w_-_-_0_1" "ttt --size 4x4 --k 4 x..............." "gops --cards 10 --mine 2,5,9 --theirs 1,7,8 --prizes 3,4,10"; do
  # shellcheck disable=SC2206
  args=(${q})
  args=("${args[@]//_/ }")
  warm=$(for _ in $(seq "$runs"); do time_one "${args[@]}"; done | median_ms)
  cold=$(for _ in $(seq "$runs"); do evict; time_one "${args[@]}"; done | median_ms)
  printf '%-62s warm %8s ms   cold %8s ms\n' "query $q" "$warm" "$cold"
done
