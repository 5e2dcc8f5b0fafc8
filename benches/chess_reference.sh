#!/usr/bin/env bash
# Our chess table builder beside Syzygy's generator (github.com/syzygy1/tb,
# GPL, built separately with `make rtbgen rtbgenp` in its src/; not part of
# nimrod), the strongest public generator, on the same endgames, one after
# the other: wall, CPU and peak memory of each.
#
#   benches/chess_reference.sh TB_SRC THREADS [TABLE…]
#     TB_SRC   the directory holding rtbgen and rtbgenp
#     THREADS  threads for both builders
#     TABLE    5-piece tables to time one by one (default KQRvKR KBNvKB)
#
# First both build every 3- and 4-piece table (timed as a whole: ours with
# `nimrod build` on pieces = [3, 4]; Syzygy's as 35 rtbgen/rtbgenp runs);
# then each 5-piece table on top of them. The outputs differ: ours stores
# distance to mate for both sides to move with statistics, Syzygy's WDL
# and DTZ (rtbgen -g: generated, neither compressed nor written), so the
# ratio is of the work to solve the same endgame, not of identical files.
set -euo pipefail
cd "$(dirname "$0")/.."
tb=${1:?usage: $0 TB_SRC THREADS [TABLE…]}
threads=${2:?THREADS}
shift 2
tables=("$@")
[ ${#tables[@]} -gt 0 ] || tables=(KQRvKR KBNvKB)
[ -x "$tb/rtbgen" ] && [ -x "$tb/rtbgenp" ] || { echo "$tb: no rtbgen/rtbgenp" >&2; exit 2; }
cargo build --release --quiet
bin=$PWD/target/release/nimrod
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ours" "$work/syzygy"

timed() { # label command…: prints label wall cpu peak
  local label=$1; shift
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" > "$work/out.log" 2>&1 || { cat "$work/out.log" >&2; exit 1; }
  read -r wall user sys kb < "$work/time"
  awk -v l="$label" -v w="$wall" -v u="$user" -v s="$sys" -v kb="$kb" \
    'BEGIN { printf "%-28s wall %8.2f s  cpu %8.2f s  peak %7.1f MiB\n", l, w, u + s, kb / 1024 }'
}

printf '[chess]\npieces = [3, 4]\n' > "$work/small.toml"
timed "ours: 35 tables of 3-4" "$bin" build --config "$work/small.toml" --data "$work/ours" --threads "$threads"

order=(Q R B N P)
small=()
for ((i = 0; i < 5; i++)); do small+=("K${order[i]}vK"); done
for ((i = 0; i < 5; i++)); do
  for ((j = i; j < 5; j++)); do small+=("K${order[i]}${order[j]}vK" "K${order[i]}vK${order[j]}"); done
done
{
  echo 'set -e'
  echo "cd '$work/syzygy'"
  for t in "${small[@]}"; do
    gen=rtbgen
    [[ $t == *P* ]] && gen=rtbgenp
    echo "RTBPATH='$work/syzygy' '$tb/$gen' -t $threads $t"
  done
} > "$work/syzygy_small.sh"
timed "syzygy: ${#small[@]} tables of 3-4" bash "$work/syzygy_small.sh"

for t in "${tables[@]}"; do
  printf '[chess]\ntables = ["%s"]\n' "$t" > "$work/one.toml"
  timed "ours: $t" "$bin" build --config "$work/one.toml" --data "$work/ours" --only "chess/$t" --threads "$threads"
  gen=rtbgen
  [[ $t == *P* ]] && gen=rtbgenp
  timed "syzygy: $t (-g)" env -C "$work/syzygy" RTBPATH="$work/syzygy" "$tb/$gen" -t "$threads" -g "$t"
done
