#!/usr/bin/env bash
# Times Grundy's game (values table) at 2^20, 2^22, 2^24 heaps, full and
# streaming mode, with 1 and 2 threads; reports wall time, ns per heap and
# peak memory (max RSS from /usr/bin/time).
# Usage: scripts/bench_grundy.sh [exponent…]   (default: 20 22 24)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
exps=("$@")
[ ${#exps[@]} -gt 0 ] || exps=(20 22 24)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-6s %-10s %-7s %10s %10s %10s %10s\n' heaps mode threads wall_s ns/heap peak_MiB B/heap
for e in "${exps[@]}"; do
  n=$((1 << e))
  for mode in full streaming; do
    cat > "$work/c.toml" <<CFG
[grundy]
bound = $n
mode = "$mode"
window = 131072
misere_bound = 3
CFG
    for t in 1 2; do
      rm -rf "$work/data"
      /usr/bin/time -f '%e %M' -o "$work/time" ./target/release/nimrod build --config "$work/c.toml" \
        --only grundy/values --data "$work/data" --threads "$t" > /dev/null 2>&1
      read -r wall kb < "$work/time"
      awk -v e="$e" -v n="$n" -v m="$mode" -v t="$t" -v w="$wall" -v kb="$kb" 'BEGIN {
        printf "2^%-4s %-10s %-7s %10.2f %10.0f %10.1f %10.2f\n", e, m, t, w, w * 1e9 / n, kb / 1024, kb * 1024 / n }'
    done
  done
done
