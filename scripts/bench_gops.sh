#!/usr/bin/env bash
# Times the full GOPS solve (every level 1..N) for N = 8..13 with 1 and 2
# threads: wall time, peak memory (max RSS from /usr/bin/time), matrix games
# per second (from the level statistics).
# Usage: scripts/bench_gops.sh [N…]   (default: 8 9 10 11 12 13)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(8 9 10 11 12 13)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-4s %-7s %10s %10s %14s %12s\n' N threads wall_s peak_MiB matrix_games games/s
for n in "${sizes[@]}"; do
  printf '[gops]\ncards = %d\n' "$n" > "$work/c.toml"
  for t in 1 2; do
    rm -rf "$work/data"
    /usr/bin/time -f '%e %M' -o "$work/time" ./target/release/nimrod build --config "$work/c.toml" \
      --data "$work/data" --threads "$t" > /dev/null 2>&1
    read -r wall kb < "$work/time"
    games=0
    for f in "$work"/data/gops/n*/k*.nmt; do
      g=$(./target/release/nimrod info "$f" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["meta"]["stats"]["solve"]["matrix_games"])')
      games=$((games + g))
    done
    awk -v n="$n" -v t="$t" -v w="$wall" -v kb="$kb" -v g="$games" 'BEGIN {
      printf "%-4s %-7s %10.2f %10.1f %14d %12.3g\n", n, t, w, kb / 1024, g, g / (w > 0 ? w : 0.01) }'
  done
done
