#!/usr/bin/env bash
# One chess table built by Syzygy's generator (`rtbgen -g`/`rtbgenp -g`,
# github.com/syzygy1/tb, built in its own directory by
# scripts/syzygy_anchor.sh; not part of nimrod) and by one or more nimrod
# binaries (say, before and after a change), one thread each, alternating,
# on dependencies built beforehand: wall, user, system and peak RSS from
# /usr/bin/time, the sha256 of each nimrod table (every binary must write
# the same bytes), and the sweep engine's phase times (NIMROD_SWEEP_TRACE).
# Quote only ratios from one run: this machine's speed moves 10-30 %
# between runs.
#
#   benches/chess_side_by_side.sh TB_SRC SYZYGY_DIR DATA TABLE ROUNDS NAME=BINARY[:DATA]...
#     TB_SRC      the directory holding rtbgen and rtbgenp
#     SYZYGY_DIR  a directory holding Syzygy's tables the table reaches
#                 (its captures and promotions), e.g. made by rtbgen runs
#     DATA        a nimrod data directory holding the table's dependencies
#                 (`nimrod build` on a config naming the table builds them;
#                 the table itself is removed before each timed build)
#     TABLE       e.g. KQRvKR or KRPvKR
#     ROUNDS      1..10
#     NAME=BINARY a label and a nimrod binary (copied out of target/, so a
#                 rebuild during the run changes nothing); :DATA gives that
#                 binary a data directory of its own (a binary whose tables
#                 are of another format than DATA's)
# Output: a log in the current directory, side-TABLE-HHMM.txt, with one
# line per build and the traces beside it (trace-NAME.log).
set -euo pipefail
tb=${1:?usage: $0 TB_SRC SYZYGY_DIR DATA TABLE ROUNDS NAME=BINARY...}
syz=${2:?SYZYGY_DIR}
data=${3:?DATA}
table=${4:?TABLE}
rounds=${5:?ROUNDS}
shift 5
[[ $rounds =~ ^[0-9]+$ ]] && (( rounds >= 1 && rounds <= 10 )) || { echo "ROUNDS must be 1..10, not $rounds" >&2; exit 2; }
[[ $table =~ ^K[QRBNP]*vK[QRBNP]*$ ]] || { echo "TABLE: not a material like KQRvKR: $table" >&2; exit 2; }
(( $# >= 1 )) || { echo "give at least one NAME=BINARY" >&2; exit 2; }
gen=rtbgen
[[ $table == *P* ]] && gen=rtbgenp
[ -x "$tb/$gen" ] || { echo "$tb: no $gen" >&2; exit 2; }
[ -d "$data/chess" ] || { echo "$data: no chess/ (build the dependencies first)" >&2; exit 2; }
config=$(mktemp)
trap 'rm -f "$config"' EXIT
printf '[chess]\ntables = ["%s"]\n' "$table" > "$config"
out=$PWD/side-$table-$(date +%H%M).txt
echo "# $(hostname -s), $(nproc) cores, $(date -u '+%F %T') UTC, load $(cut -d' ' -f1-3 /proc/loadavg); $gen from $tb" > "$out"
for ((r = 1; r <= rounds; r++)); do
  (cd "$syz" && RTBWDIR=$PWD RTBZDIR=$PWD /usr/bin/time -a -o "$out" \
    -f "syzygy wall %e user %U sys %S maxrss_kb %M" "$tb/$gen" -t 1 -g "$table" > /dev/null)
  for pair in "$@"; do
    name=${pair%%=*}
    bin=${pair#*=}
    dir=$data
    if [[ $bin == *:* ]]; then dir=${bin#*:}; bin=${bin%%:*}; fi
    [ -d "$dir/chess" ] || { echo "$dir: no chess/ (build the dependencies first)" >&2; exit 2; }
    rm -f "$dir/chess/$table.nmt"
    NIMROD_SWEEP_TRACE=1 /usr/bin/time -a -o "$out" -f "$name wall %e user %U sys %S maxrss_kb %M" \
      "$bin" build --config "$config" --data "$dir" --threads 1 --only "chess/$table" \
      > /dev/null 2> "trace-$name.log"
    echo "$name sha256 $(sha256sum "$dir/chess/$table.nmt" | cut -c1-16)" >> "$out"
    # The phases: first passes, odd plies (candidate losses checked),
    # even plies (wins offered), in seconds.
    awk -v name="$name" '
      function secs(t) { if (t ~ /ms$/) { sub("ms", "", t); return t / 1000 }
        if (t ~ /µs$/) { sub("µs", "", t); return t / 1e6 }
        if (t ~ /ns$/) { sub("ns", "", t); return t / 1e9 }
        sub("s", "", t); return t + 0 }
      /^first pass/ { first += secs($3) }
      /^ply [0-9]+: [0-9]+ in/ { split($0, a, " in "); if (($2 + 0) % 2) odd += secs(a[2]); else even += secs(a[2]) }
      END { printf "%s phases: first pass %.1f s, odd plies %.1f s, even plies %.1f s\n", name, first, odd, even }
    ' "trace-$name.log" >> "$out"
  done
done
echo "# done $(date -u '+%T') UTC, load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
cat "$out"
