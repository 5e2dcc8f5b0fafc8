#!/usr/bin/env bash
# Pushes the Klondike solver's undecided deals further: each deal of a list
# (the unknowns of a sweep, say) is solved at a bigger budget (classes
# stored) in a process of its own, and its CSV line (deal, verdict,
# classes, CPU seconds) lands in OUT_DIR/DEAL.csv by rename, so a killed
# campaign loses at most the deal it was on and a rerun goes on where it
# stopped. Wins are replayed by both rules engines, as in any bench run.
# Prints the totals over OUT_DIR at the end.
#
#   scripts/klondike_tail.sh RULES DEALS_FILE BUDGET OUT_DIR [NUMBERING]
#
# e.g. scripts/klondike_tail.sh 3/unlimited unknown.txt 500000000 tail-d3
# (NUMBERING: ours, the default, or solvitaire). The solver keeps about 16
# bytes a class: 5*10^8 is some 8 GB.
set -euo pipefail
if [ $# -lt 4 ]; then
    sed -n '2,15p' "$0" >&2
    exit 2
fi
rules="$1"
deals="$2"
budget="$3"
out="$4"
numbering="${5:-ours}"
[ -r "$deals" ] || { echo "klondike_tail: cannot read the deal list $deals" >&2; exit 2; }
case "$budget" in
    '' | *[!0-9]*) echo "klondike_tail: the budget must be a number of classes, not '$budget'" >&2; exit 2 ;;
esac
mkdir -p "$out"
cd "$(dirname "$0")/.."
bench=${BENCH:-}
if [ -z "$bench" ]; then
    cargo bench --bench klondike_quotient --no-run --quiet 2>/dev/null
    bench=$(ls -t target/release/deps/klondike_quotient-* | grep -v '\.d$' | head -1)
fi
for deal in $(tr ',' ' ' < "$deals"); do
    [ -s "$out/$deal.csv" ] && continue
    "$bench" "$rules" "$deal" $((deal + 1)) "$budget" --numbering "$numbering" \
        --csv "$out/$deal.csv.tmp" > "$out/$deal.log" 2>&1 ||
        { echo "klondike_tail: deal $deal failed; see $out/$deal.log" >&2; exit 1; }
    mv "$out/$deal.csv.tmp" "$out/$deal.csv"
    tail -n +2 "$out/$deal.csv"
done
# One header, every deal's line, and the verdict counts.
shopt -s nullglob
{
    echo "deal,verdict,classes,cpu_s"
    for f in "$out"/*.csv; do tail -n +2 "$f"; done | sort -t, -k1,1n
} > "$out.csv"
echo "$rules at $budget: $(tail -n +2 "$out.csv" | cut -d, -f2 | sort | uniq -c | tr -s ' ' | tr '\n' ' ')(all lines: $out.csv)"
