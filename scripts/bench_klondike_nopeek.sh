#!/usr/bin/env bash
# The no-peek Klondike player: win rate and cost against samples a decision.
# Plays deals 0..DEALS under draw one and draw three (unlimited redeals)
# at each sample count, one thread, under /usr/bin/time, and prints per
# rule set and count: wins, CPU a game, a decision and a move (the table's
# own move and decision counts), then the report's paired lines.
# Usage: scripts/bench_klondike_nopeek.sh [DEALS] [SAMPLES...]
#   default: 100 deals at 1 4 16 64 samples (about 25 CPU-minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
deals=${1:-100}
shift || true
counts=("${@:-}")
[ -z "${counts[0]}" ] && counts=(1 4 16 64)
[[ $deals =~ ^[1-9][0-9]{0,5}$ ]] || { echo "DEALS: 1 to 999999" >&2; exit 2; }
for s in "${counts[@]}"; do
  [[ $s =~ ^[1-9][0-9]{0,3}$ ]] && [ "$s" -le 4096 ] || { echo "SAMPLES: 1 to 4096, got $s" >&2; exit 2; }
done
cargo build --release --quiet
bin=./target/release/nimrod
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
list=$(IFS=,; echo "${counts[*]}")
cat > "$work/np.toml" <<TOML
[klondike]
rules = ["1/unlimited", "3/unlimited"]
greedy_deals = $deals
solver_deals = $deals
solver_budget = 50000000
nopeek_deals = $deals
nopeek_samples = [$list]
TOML
echo "# $(date -u +%F), $(hostname), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), nimrod $(git rev-parse --short HEAD), one thread, deals 0..$deals"
for rules in d1-unlimited d3-unlimited; do
  for s in "${counts[@]}"; do
    job=klondike/nopeek-$rules-s$s
    /usr/bin/time -f "%U %S %M" -o "$work/time" \
      $bin build --config "$work/np.toml" --data "$work/data" --only "$job" --threads 1 > /dev/null 2>&1
    read -r user sys rss < "$work/time"
    $bin info "$work/data/$job.nmt" --json > "$work/info.json"
    python3 - "$work/info.json" "$user" "$sys" "$rss" "$job" <<'PY'
import json, sys
info = json.load(open(sys.argv[1]))
st = info.get("stats") or info["meta"]["stats"]
cpu = float(sys.argv[2]) + float(sys.argv[3])
n = st["deals"]
print(f"{sys.argv[5]:<36} won {st['wins']:>5}/{n:<5} {100*st['win_rate']:6.2f}%  "
      f"CPU {cpu/n:7.3f} s/game  {1000*cpu/(n*st['mean_decisions']):8.1f} ms/decision  "
      f"{1000*cpu/(n*st['mean_moves']):7.2f} ms/move  {st['mean_solves']:7.0f} solves/game  peak {int(sys.argv[4])//1024} MiB")
PY
  done
done
$bin build --config "$work/np.toml" --data "$work/data" > /dev/null 2>&1
$bin query klondike --report --data "$work/data" | sed -n '/^no-peek/,/^solver/p' | grep -v '^solver'
