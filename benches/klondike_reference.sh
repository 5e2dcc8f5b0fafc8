#!/usr/bin/env bash
# Our Klondike solver (the quotient solver) beside lonelybot
# (github.com/vuonghy2442/lonelybot, MIT), the fastest open solver, on the
# same deals, one core each, one after the other: the verdicts deal by deal,
# and each side's CPU.
#
#   benches/klondike_reference.sh LONECLI FIRST LAST [DRAW] [NUMBERING] [BUDGET]
#     LONECLI    lonelybot's command-line program, built with
#                `cargo build --release -p lonecli` in its checkout
#     FIRST LAST deals FIRST..LAST (LAST excluded)
#     DRAW       1 or 3 (default 1); unlimited redeals, worrying back
#     NUMBERING  ours (default: fed to lonelybot as exact permutations,
#                benches/reference/lonelybot_exact.py) or solvitaire (both
#                deal Solvitaire's seeds themselves)
#     BUDGET     our classes per deal (default 50000000)
#
# Writes benches/results/klondike/reference-<date>-d<DRAW>-<numbering>-<FIRST>-<LAST>.csv
# (with -2, -3, … when a run of the same day has that name)
# (deal, our verdict, our CPU s, lonelybot's verdict, its CPU s, its max RSS
# KiB) and prints the totals. Our CPU per deal is the solving thread's CPU
# clock; lonelybot's is its process's user + system time at microsecond
# resolution (scripts/lib/measure.py, getrusage: GNU time's hundredths lost
# 25-45% of lonelybot's ~10 ms deals and overstated our ratio, 1.46x where
# 1.04x was right), which includes starting the process (about 1 ms): both
# totals are also printed as whole-run CPU.
#
# The two alternate by chunks of CHUNK=N deals (default 100), ours then
# lonelybot on the same deals.
# OURS_CSV=FILE takes our side from an earlier run's per-deal CSV (the
# bench's or `scripts/klondike_sweep.sh`'s chunks concatenated: deal,
# verdict, classes, cpu_s, one header) instead of solving again, for a
# long range where only the agreement is wanted (the CPU ratio then
# compares runs made at different times: say so when quoting it).
# LONE_TIMEOUT=S stops lonelybot after S seconds on a deal (its verdict is
# then unknown).
set -euo pipefail
cd "$(dirname "$0")/.."
lonecli=${1:?usage: $0 LONECLI FIRST LAST [DRAW] [NUMBERING] [BUDGET]}
first=${2:?FIRST}
last=${3:?LAST}
draw=${4:-1}
numbering=${5:-ours}
budget=${6:-50000000}
[ -x "$lonecli" ] || { echo "$lonecli: not an executable" >&2; exit 2; }
case "$draw" in 1|3) ;; *) echo "DRAW must be 1 or 3" >&2; exit 2;; esac
case "$numbering" in ours|solvitaire) ;; *) echo "NUMBERING: ours or solvitaire" >&2; exit 2;; esac
cargo bench --bench klondike_quotient --no-run --quiet 2>/dev/null
bench=$(ls -t target/release/deps/klondike_quotient-* | grep -v '\.d$' | head -1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=benches/results/klondike/reference-$(date +%F)-d$draw-$numbering-$first-$last.csv
# A second run the same day gets its own file (-2, -3, …) instead of
# overwriting the first.
base=${out%.csv}
run=2
while [ -e "$out" ] && [ "$run" -lt 1000 ]; do
  out=$base-$run.csv
  run=$((run + 1))
done

if [ -n "${OURS_CSV:-}" ]; then
  [ -r "$OURS_CSV" ] || { echo "OURS_CSV=$OURS_CSV: cannot read it" >&2; exit 2; }
  head -1 "$OURS_CSV" | grep -q '^deal,verdict,classes,cpu_s' \
    || { echo "OURS_CSV=$OURS_CSV: not a per-deal CSV (deal,verdict,classes,cpu_s)" >&2; exit 2; }
  awk -F, -v f="$first" -v l="$last" 'NR == 1 || ($1 >= f && $1 < l)' "$OURS_CSV" > "$tmp/ours.csv"
  [ "$(($(wc -l < "$tmp/ours.csv") - 1))" -eq $((last - first)) ] \
    || { echo "OURS_CSV=$OURS_CSV: does not hold exactly deals $first..$last" >&2; exit 2; }
  awk -F, 'NR > 1 { t += $4 } END { printf "%f 0 0\n", t }' "$tmp/ours.csv" > "$tmp/ours.time"
fi

if [ "$numbering" = ours ]; then
  "$bench" 1/unlimited "$first" "$last" 1 --layouts | python3 benches/reference/lonelybot_exact.py > "$tmp/seeds"
  kind=exact
else
  seq "$first" $((last - 1)) | awk '{print $1, $1}' > "$tmp/seeds"
  kind=solvitaire
fi
: > "$tmp/theirs.csv"
# lonelybot on the deals a..b (b excluded), one process a deal.
lonelybot_on() {
  awk -v a="$1" -v b="$2" '$1 >= a && $1 < b' "$tmp/seeds" | while read -r deal seed; do
    scripts/lib/measure.py "$tmp/one.time" -- ${LONE_TIMEOUT:+timeout "$LONE_TIMEOUT"} "$lonecli" solve "$kind" "$seed" "$draw" > "$tmp/one.txt" 2>&1 || true
    if grep -q '^Solvable' "$tmp/one.txt"; then v=won
    elif grep -q '^Impossible' "$tmp/one.txt"; then v=lost
    else v=unknown; fi
    [ -s "$tmp/one.time" ] || { echo "deal $deal: lonelybot was not measured" >&2; exit 1; }
    read -r _ cpu _ _ m _ < "$tmp/one.time"
    echo "$deal,$v,$cpu,$m" >> "$tmp/theirs.csv"
    rm -f "$tmp/one.time"
  done
}
if [ -n "${OURS_CSV:-}" ]; then
  lonelybot_on "$first" "$last"
else
  # The two alternate by chunks of CHUNK deals (default 100): ours on a
  # chunk, then lonelybot on the same deals, so that a change in the
  # machine's speed during the run falls on both.
  chunk=${CHUNK:-100}
  [ "$chunk" -ge 1 ] 2>/dev/null || { echo "CHUNK must be a positive number" >&2; exit 2; }
  echo "0 0 0" > "$tmp/ours.time"
  for ((a = first; a < last; a += chunk)); do
    b=$((a + chunk < last ? a + chunk : last))
    scripts/lib/measure.py "$tmp/m.time" -- \
      "$bench" "$draw/unlimited" "$a" "$b" "$budget" --numbering "$numbering" --csv "$tmp/chunk.csv" > "$tmp/ours.txt" \
      || { echo "our bench failed on deals $a..$b" >&2; exit 1; }
    if [ "$a" = "$first" ]; then cp "$tmp/chunk.csv" "$tmp/ours.csv"; else tail -n +2 "$tmp/chunk.csv" >> "$tmp/ours.csv"; fi
    read -r _ _ u s m _ < "$tmp/m.time"
    read -r tu ts tm < "$tmp/ours.time"
    awk -v u="$u" -v s="$s" -v m="$m" -v tu="$tu" -v ts="$ts" -v tm="$tm" \
      'BEGIN { printf "%f %f %d\n", tu + u, ts + s, (m > tm ? m : tm) }' > "$tmp/ours.time"
    lonelybot_on "$a" "$b"
  done
fi

python3 - "$tmp/ours.csv" "$tmp/theirs.csv" "$tmp/ours.time" "$out" "$(hostname -s) $(nproc) cores" "$draw" <<'PY'
import csv, sys, statistics
ours = {int(r["deal"]): r for r in csv.DictReader(open(sys.argv[1]))}
theirs = {}
for line in open(sys.argv[2]):
    d, v, t, m = line.strip().split(",")
    theirs[int(d)] = (v, float(t), int(m))
u, s, m = open(sys.argv[3]).read().split()
with open(sys.argv[4], "w") as f:
    f.write("deal,our_verdict,our_cpu_s,our_classes,lonelybot_verdict,lonelybot_cpu_s,lonelybot_max_rss_kib\n")
    for d in sorted(ours):
        o, t = ours[d], theirs[d]
        f.write(f"{d},{o['verdict']},{o['cpu_s']},{o['classes']},{t[0]},{t[1]:.6f},{t[2]}\n")
both = [d for d in ours if "unknown" not in (ours[d]["verdict"], theirs[d][0])]
disagree = [d for d in both if ours[d]["verdict"] != theirs[d][0]]
count = lambda xs, v: sum(1 for x in xs if x == v)
ov = [ours[d]["verdict"] for d in ours]
tv = [theirs[d][0] for d in theirs]
ot = [float(ours[d]["cpu_s"]) for d in ours]
tt = [theirs[d][1] for d in theirs]
n = len(ot)
print(f"machine {sys.argv[5]}; draw {sys.argv[6]}, unlimited redeals; {n} deals")
print(f"ours:      {count(ov,'won')} won, {count(ov,'lost')} lost, {count(ov,'unknown')} unknown; CPU {sum(ot):.2f} s (mean {sum(ot)/n*1000:.1f} ms, median {statistics.median(ot)*1000:.2f} ms, max {max(ot):.2f} s); whole run {float(u)+float(s):.2f} s CPU, max RSS {int(m)//1024} MiB")
print(f"lonelybot: {count(tv,'won')} won, {count(tv,'lost')} lost, {count(tv,'unknown')} unknown; CPU {sum(tt):.2f} s (mean {sum(tt)/n*1000:.1f} ms, median {statistics.median(tt)*1000:.2f} ms, max {max(tt):.2f} s), max RSS {max(theirs[d][2] for d in theirs)//1024} MiB")
print(f"agree on {len(both) - len(disagree)} of {len(both)} deals both decided; disagree: {disagree}")
print(f"CPU ratio ours / lonelybot: {sum(ot)/sum(tt):.2f} (per-deal clocks), {(float(u)+float(s))/sum(tt):.2f} (whole runs)")
PY
echo "per deal: $out"
