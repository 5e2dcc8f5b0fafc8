#!/usr/bin/env bash
# Pushes the Klondike solver's undecided deals further: each deal of a list
# (the unknowns of an earlier run, say) is solved at a bigger node budget in
# a process of its own, and its CSV line (deal, verdict, nodes, CPU seconds)
# lands in OUT_DIR/DEAL.csv by rename, so a killed campaign loses at most the
# deal it was on and a rerun goes on where it stopped. Wins are replayed by
# the rules engine, and every loss gets the plain second search (up to 10^7
# positions), as in any bench run. Prints the totals over OUT_DIR at the end.
#
#   scripts/klondike_tail.sh RULES DEALS_FILE BUDGET OUT_DIR [--relaxed FILE]
#
# e.g. scripts/klondike_tail.sh 1/unlimited unknown.txt 100000000 tail-d1
# (at 10^8 positions a deal took 1 to 4.5 CPU minutes on the development
# machine, version 9 and 10).
set -euo pipefail
if [ $# -lt 4 ]; then
    sed -n '2,14p' "$0" >&2
    exit 2
fi
rules="$1"
deals="$2"
budget="$3"
out="$4"
shift 4
[ -r "$deals" ] || { echo "klondike_tail: cannot read the deal list $deals" >&2; exit 2; }
case "$budget" in
    '' | *[!0-9]*) echo "klondike_tail: the budget must be a number of positions, not '$budget'" >&2; exit 2 ;;
esac
mkdir -p "$out"
manifest="$(dirname "$0")/../Cargo.toml"
cargo bench --manifest-path "$manifest" --bench klondike --no-run --quiet
for deal in $(tr ',' ' ' < "$deals"); do
    [ -s "$out/$deal.csv" ] && continue
    echo "$deal" > "$out/$deal.deal"
    cargo bench --manifest-path "$manifest" --quiet --bench klondike -- solver "$rules" 0 0 "$budget" 1 1 \
        --deals "$out/$deal.deal" --csv "$out/$deal.csv.tmp" "$@" > "$out/$deal.log" 2>&1 ||
        { echo "klondike_tail: deal $deal failed; see $out/$deal.log" >&2; exit 1; }
    mv "$out/$deal.csv.tmp" "$out/$deal.csv"
    rm -f "$out/$deal.deal"
    tail -n +2 "$out/$deal.csv"
done
# One header, every deal's line, and the verdict counts.
shopt -s nullglob
{
    echo "deal,verdict,nodes,cpu_seconds"
    for f in "$out"/*.csv; do tail -n +2 "$f"; done | sort -t, -k1,1n
} > "$out.csv"
echo "$rules at $budget: $(tail -n +2 "$out.csv" | cut -d, -f2 | sort | uniq -c | tr -s ' ' | tr '\n' ' ')(all lines: $out.csv)"
