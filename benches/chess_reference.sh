#!/usr/bin/env bash
# Our chess table builder beside Syzygy's generator (github.com/syzygy1/tb,
# GPL, built in its own directory by scripts/syzygy_anchor.sh; not part of
# nimrod), the strongest public generator, on the same endgames, one after
# the other: wall, CPU and peak memory of each.
#
#   benches/chess_reference.sh TB_SRC THREADS [TABLE…]
#     TB_SRC   the directory holding rtbgen and rtbgenp
#     THREADS  threads for both builders
#     TABLE    5-piece tables to time one by one (default KQRvKR KBNvKB)
#     ROUNDS=R (environment) times each 5-piece table R times, alternating (default 3)
#
# CPU is user + system at microsecond resolution (scripts/lib/measure.py).
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
rounds=${ROUNDS:-3}
(( rounds >= 1 && rounds <= 20 )) || { echo "ROUNDS must be 1..20" >&2; exit 2; }
[ -x "$tb/rtbgen" ] && [ -x "$tb/rtbgenp" ] || { echo "$tb: no rtbgen/rtbgenp" >&2; exit 2; }
cargo build --release --quiet
bin=$PWD/target/release/nimrod
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ours" "$work/syzygy"

timed() { # label command…: prints label wall cpu peak, and keeps a CSV row
  local label=$1; shift
  scripts/lib/measure.py "$work/time" -- "$@" > "$work/out.log" 2>&1 || { cat "$work/out.log" >&2; echo "$label: failed" >&2; exit 1; }
  read -r wall cpu _ _ kb _ < "$work/time"
  echo "$label,$wall,$cpu,$kb" >> "$work/rows.csv"
  awk -v l="$label" -v w="$wall" -v c="$cpu" -v kb="$kb" \
    'BEGIN { printf "%-28s wall %8.3f s  cpu %8.3f s  peak %7.1f MiB\n", l, w, c, kb / 1024 }'
}
echo "# $(hostname -s), $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg); rounds: $rounds (alternating)"

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

# Each 5-piece table ROUNDS times, the two builders alternating (one run
# each, back to back, was at the mercy of whatever else ran then); the
# ratio is of the medians.
for ((r = 1; r <= rounds; r++)); do
  for t in "${tables[@]}"; do
    printf '[chess]\ntables = ["%s"]\n' "$t" > "$work/one.toml"
    timed "ours: $t" "$bin" build --config "$work/one.toml" --data "$work/ours" --only "chess/$t" --threads "$threads" --force
    gen=rtbgen
    [[ $t == *P* ]] && gen=rtbgenp
    timed "syzygy: $t (-g)" env -C "$work/syzygy" RTBPATH="$work/syzygy" "$tb/$gen" -t "$threads" -g "$t"
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/rows.csv" <<'PY'
import collections, statistics, sys
cpu = collections.defaultdict(list)
for line in open(sys.argv[1]):
    label, wall, c, kb = line.strip().rsplit(",", 3)
    cpu[label].append(float(c))
for label in sorted(l for l in cpu if l.startswith("ours: ") and "tables of" not in l):
    t = label[len("ours: "):]
    theirs = cpu.get(f"syzygy: {t} (-g)")
    if theirs:
        o, s = statistics.median(cpu[label]), statistics.median(theirs)
        print(f"{t}: median CPU ours {o:.3f} s, syzygy {s:.3f} s over {len(cpu[label])} rounds: ratio {o / s:.2f}")
PY
