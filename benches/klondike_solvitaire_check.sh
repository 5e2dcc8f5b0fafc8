#!/usr/bin/env bash
# Solvitaire itself (github.com/thecharlesblake/Solvitaire, GPL: built
# locally, not part of nimrod) on the seeds of one of our Solvitaire sweep
# chunks: does the authors' own solver, dealing its own seed, agree with
# our verdict? Runs `solvitaire --type klondike[-deal-1] --random S
# --classify` with a time limit per seed on every seed we call lost and on
# the first WINS seeds we call won, in seed order, up to LIMIT seeds.
#
#   benches/klondike_solvitaire_check.sh SOLVITAIRE CHUNK_CSV DRAW [TIMEOUT_S] [LIMIT] [WINS]
#     CHUNK_CSV  a chunk of scripts/klondike_sweep.sh (deal,verdict,classes,cpu_s)
#     DRAW       1 or 3 (unlimited redeals: Solvitaire's klondike-deal-1 / klondike)
#
# Writes benches/results/klondike/solvitaire-check-<date>-d<DRAW>-<chunk>.csv
# (seed, our verdict, Solvitaire's: solvable / unsolvable / timeout, its CPU s)
# and prints the tally. Exit 1 if Solvitaire decides any seed against us.
set -euo pipefail
cd "$(dirname "$0")/.."
solv=${1:?usage: $0 SOLVITAIRE CHUNK_CSV DRAW [TIMEOUT_S] [LIMIT] [WINS]}
chunk=${2:?CHUNK_CSV}
draw=${3:?DRAW}
timeout_s=${4:-30}
limit=${5:-40}
wins=${6:-12}
[ -x "$solv" ] || { echo "$solv: not an executable" >&2; exit 2; }
[ -r "$chunk" ] || { echo "$chunk: cannot read" >&2; exit 2; }
case "$draw" in 1) type=klondike-deal-1 ;; 3) type=klondike ;; *) echo "DRAW must be 1 or 3" >&2; exit 2;; esac
for v in "$timeout_s" "$limit" "$wins"; do
    [[ $v =~ ^[0-9]+$ ]] && (( v >= 1 && v <= 100000 )) || { echo "TIMEOUT_S, LIMIT, WINS: 1..100000 (got $v)" >&2; exit 2; }
done
out=benches/results/klondike/solvitaire-check-$(date +%F)-d$draw-$(basename "$chunk" .csv).csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -F, -v wins="$wins" 'NR > 1 && ($2 == "lost" || ($2 == "won" && w++ < wins)) { print $1, $2 }' "$chunk" \
    | head -n "$limit" > "$tmp/seeds"
echo "seed,ours,solvitaire,solvitaire_cpu_s" > "$out"
while read -r seed ours; do
    verdict=timeout
    if /usr/bin/time -f "%U" -o "$tmp/t" timeout "$timeout_s" "$solv" --type "$type" --random "$seed" --classify > "$tmp/o" 2>&1; then
        verdict=$(tail -1 "$tmp/o" | awk -F', ' '{print $NF}')
    fi
    cpu=$(grep -E '^[0-9.]+$' "$tmp/t" | tail -1 || true)
    echo "$seed,$ours,$verdict,${cpu:-$timeout_s}" >> "$out"
done < "$tmp/seeds"
python3 - "$out" <<'PY'
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
tally = collections.Counter((r["ours"], r["solvitaire"]) for r in rows)
against = sum(n for (o, s), n in tally.items() if (o, s) in (("lost", "solved"), ("won", "unsolvable")))
print(sys.argv[1])
for (o, s), n in sorted(tally.items()):
    print(f"  ours {o:4}  solvitaire {s:10}  {n}")
print(f"{len(rows)} seeds, {against} decided against our verdict")
sys.exit(1 if against else 0)
PY
