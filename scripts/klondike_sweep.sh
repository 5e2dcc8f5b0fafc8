#!/usr/bin/env bash
# Decides a range of Klondike deals with the quotient solver, in chunks of
# CHUNK deals, each chunk's per-deal CSV kept as it finishes: a rerun skips
# the chunks already done (resumable after any interruption).
#
#   scripts/klondike_sweep.sh RULES NUMBERING FIRST LAST OUT_DIR [BUDGET] [CHUNK]
#     RULES      e.g. 1/unlimited, 3/unlimited
#     NUMBERING  ours or solvitaire
#     FIRST LAST deals FIRST..LAST (LAST excluded)
#     OUT_DIR    where the chunk files go (NUMBERING-dD-FROM-TO.csv)
#     BUDGET     classes per deal (default 50000000)
#     CHUNK      deals per chunk (default 2000)
# REPROVE=K sends every Kth loss to the independent exhaustive search
# (default 25; it can cost more than the solving: raise it for big ranges).
# Then prints the totals over every chunk of the range that exists
# (benches/reference/sweep_summary.py).
set -euo pipefail
cd "$(dirname "$0")/.."
rules=${1:?usage: $0 RULES NUMBERING FIRST LAST OUT_DIR [BUDGET] [CHUNK]}
numbering=${2:?NUMBERING}
first=${3:?FIRST}
last=${4:?LAST}
out=${5:?OUT_DIR}
budget=${6:-50000000}
chunk=${7:-2000}
bench=${BENCH:-}
if [ -z "$bench" ]; then
  cargo bench --bench klondike_quotient --no-run --quiet 2>/dev/null
  bench=$(ls -t target/release/deps/klondike_quotient-* | grep -v '\.d$' | head -1)
fi
mkdir -p "$out"
tag="$numbering-d${rules%%/*}-${rules#*/}"
tag=${tag//\//-}
for ((from = first; from < last; from += chunk)); do
  to=$((from + chunk < last ? from + chunk : last))
  file="$out/$tag-$from-$to.csv"
  [ -s "$file" ] && [ "$(wc -l < "$file")" -eq $((to - from + 1)) ] && continue
  "$bench" "$rules" "$from" "$to" "$budget" --numbering "$numbering" --reprove "${REPROVE:-25}" --csv "$file.part" > "$file.log"
  mv "$file.part" "$file"
done
python3 benches/reference/sweep_summary.py "$out"/"$tag"-*.csv
