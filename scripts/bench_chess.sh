#!/usr/bin/env bash
# Chess endgame tables: per-table build time (wall and CPU, 1 and 2 threads),
# peak memory, file size raw and packed; the total for every 3- and 4-piece
# table; query latency (cold process).
# Usage: scripts/bench_chess.sh [TABLE…]
#   default tables: KQvK KRvK KPvK KBNvK KQvKR KPvKP KQQvK
#   (5-piece tables such as KRPvKR or KQRvKR work too; they need their
#   4-piece dependencies, which are built first and not timed).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=./target/release/nimrod
tables=("$@")
[ ${#tables[@]} -gt 0 ] || tables=(KQvK KRvK KPvK KBNvK KQvKR KPvKP KQQvK)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== all 3- and 4-piece tables from scratch, 2 threads"
printf '[chess]\npieces = [3, 4]\n' > "$work/all.toml"
/usr/bin/time -f '%e %U %S %M' -o "$work/time" $bin build --config "$work/all.toml" \
  --data "$work/data" --threads 2 > /dev/null 2>&1
read -r wall user sys kb < "$work/time"
printf 'wall %.1f s, cpu %.1f s, peak %.0f MiB\n' "$wall" "$(echo "$user + $sys" | bc)" "$(echo "$kb / 1024" | bc)"

echo "== per table (dependencies prebuilt)"
printf '%-8s %-7s %9s %9s %9s %12s %12s %7s\n' table threads wall_s cpu_s peak_MiB raw_bytes packed_bytes ratio
for t in "${tables[@]}"; do
  printf '[chess]\ntables = ["%s"]\n' "$t" > "$work/one.toml"
  $bin build --config "$work/one.toml" --data "$work/data" > /dev/null 2>&1
  for threads in 1 2; do
    # Delete the table rather than --force, which would rebuild its
    # dependencies too.
    rm -f "$work/data/chess/$t.nmt"
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" $bin build --config "$work/one.toml" \
      --data "$work/data" --only "chess/$t" --threads "$threads" > /dev/null 2>&1
    read -r wall user sys kb < "$work/time"
    raw=$(stat -c %s "$work/data/chess/$t.nmt")
    rm -f "$work/data/chess/$t.nmt.zst"
    $bin pack "$work/data/chess/$t.nmt" > /dev/null 2>&1 || true
    packed=$(stat -c %s "$work/data/chess/$t.nmt.zst" 2>/dev/null || echo 0)
    rm -f "$work/data/chess/$t.nmt.zst"
    awk -v t="$t" -v th="$threads" -v w="$wall" -v u="$user" -v s="$sys" -v kb="$kb" -v r="$raw" -v p="$packed" 'BEGIN {
      printf "%-8s %-7s %9.2f %9.2f %9.1f %12d %12d %7.1f\n", t, th, w, u + s, kb / 1024, r, p, (p > 0 ? r / p : 0) }'
  done
done

echo "== query latency, cold process (KQvKR position, mean of 20)"
fen="8/8/8/8/2r5/8/2k5/K6Q w - - 0 1"
start=$(date +%s.%N)
for _ in $(seq 20); do $bin query chess "$fen" --data "$work/data" > /dev/null; done
end=$(date +%s.%N)
echo "$start $end" | awk '{ printf "%.1f ms per query (value, every move rated, principal variation)\n", ($2 - $1) * 1000 / 20 }'
echo "(warm library probes: cargo bench --bench chess_probe)"
