#!/usr/bin/env bash
# Two nimrod binaries (say, before and after a change) building the same
# chess table at the same time, one thread each, pinned one to each core
# (taskset), the cores swapped every other run: both see the same machine
# at the same moment, so the host's drift (10-30 % between runs on the
# 2-core VM of benches/results/chess/) cancels in their ratio. Compare
# nimrod with Syzygy's generator with chess_side_by_side.sh (one at a time,
# as the floor asks); use this one to choose between two versions of ours.
#
#   benches/chess_paired.sh DATA TABLE ROUNDS A B
#     DATA    a nimrod data directory holding the table's dependencies
#             (copied twice into a scratch directory; the table is built
#             there, never in DATA)
#     TABLE   e.g. KQRvKR
#     ROUNDS  1..10 (each round is two paired runs, cores swapped)
#     A, B    nimrod binaries (copy them out of target/ first)
# Output: one line per build (CPU from /usr/bin/time, the phases from
# NIMROD_SWEEP_TRACE) and whether the two tables are the same bytes.
set -euo pipefail
data=${1:?usage: $0 DATA TABLE ROUNDS A B}
table=${2:?TABLE}
rounds=${3:?ROUNDS}
a=$(realpath "${4:?A}")
b=$(realpath "${5:?B}")
[[ $rounds =~ ^[0-9]+$ ]] && (( rounds >= 1 && rounds <= 10 )) || { echo "ROUNDS must be 1..10, not $rounds" >&2; exit 2; }
[[ $table =~ ^K[QRBNP]*vK[QRBNP]*$ ]] || { echo "TABLE: not a material like KQRvKR: $table" >&2; exit 2; }
[ -d "$data/chess" ] || { echo "$data: no chess/ (build the dependencies first)" >&2; exit 2; }
(( $(nproc) >= 2 )) || { echo "needs two cores" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for d in A B; do
  mkdir -p "$scratch/$d/chess"
  find "$data/chess" -maxdepth 1 -name '*.nmt' ! -name "$table.nmt" -exec cp {} "$scratch/$d/chess/" \;
done
printf '[chess]\ntables = ["%s"]\n' "$table" > "$scratch/config.toml"
echo "# $(hostname -s), $(nproc) cores, $(date -u '+%F %T') UTC, load $(cut -d' ' -f1-3 /proc/loadavg); A=$a B=$b"
one() { # NAME BINARY DIR CPU
  rm -f "$scratch/$3/chess/$table.nmt"
  NIMROD_SWEEP_TRACE=1 /usr/bin/time -o "$scratch/$3.time" -f "wall %e user %U sys %S maxrss_kb %M" \
    taskset -c "$4" "$2" build --config "$scratch/config.toml" --data "$scratch/$3" --threads 1 \
    --only "chess/$table" > /dev/null 2> "$scratch/$3.trace"
  awk -v n="$1" -v c="$4" -v t="$(cat "$scratch/$3.time")" '
    /^first pass/ { fp = $3 }
    /^ply/ { x = $5; if (x ~ /ms$/) { sub("ms", "", x); x /= 1000 } else sub("s", "", x)
             if ($2 % 2 == 0) even += x; else odd += x }
    END { printf "%s cpu%s %s first_pass %s odd_plies %.2f even_plies %.2f\n", n, c, t, fp, odd, even }' \
    "$scratch/$3.trace"
}
for ((r = 1; r <= rounds; r++)); do
  for cores in "0 1" "1 0"; do
    set -- $cores
    one A "$a" A "$1" > "$scratch/A.line" &
    pid_a=$!
    one B "$b" B "$2" > "$scratch/B.line" &
    pid_b=$!
    # Each waited for by its pid (a bare `wait` returns 0 even when a
    # build failed), both before either failure stops the run.
    status_a=0 status_b=0
    wait "$pid_a" || status_a=$?
    wait "$pid_b" || status_b=$?
    (( status_a == 0 )) || { echo "A failed ($a): $(tail -n 3 "$scratch/A.trace")" >&2; exit 1; }
    (( status_b == 0 )) || { echo "B failed ($b): $(tail -n 3 "$scratch/B.trace")" >&2; exit 1; }
    cat "$scratch/A.line" "$scratch/B.line"
    if cmp -s "$scratch/A/chess/$table.nmt" "$scratch/B/chess/$table.nmt"; then echo "same bytes"; else echo "DIFFERENT BYTES"; fi
  done
done
echo "# done $(date -u '+%T') UTC"
