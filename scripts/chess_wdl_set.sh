#!/usr/bin/env bash
# Packs every chess table of a data directory in the WDL form and logs
# the sizes; resumable (the figures behind the 3-5 WDL total, issue 56).
#
#   scripts/chess_wdl_set.sh BIN DATA OUT LOG [TABLE...]
#
# For each TABLE (default: every DATA/chess/*.nmt, name order): skips it if LOG already has its
# line; else hard-links the raw tables into a scratch directory beside
# DATA, runs `BIN pack --wdl` on it (its captures and promotions read the
# raw tables), moves the file to OUT/chess/ and appends "table raw_bytes
# wdl_bytes user_s wall_s" to LOG. A killed run loses the table it was
# on. The exactness of the form is the tests' and
# `ship::entries_by_probe_rules`'s business; this script only measures.
set -euo pipefail
bin=$(realpath "$1")
data=$(realpath "$2")
out=$3
log=$4
shift 4
tables=("$@")
if [ ${#tables[@]} -eq 0 ]; then
    for f in "$data"/chess/*.nmt; do tables+=("$(basename "$f" .nmt)"); done
fi
mkdir -p "$out/chess"
touch "$log"
work=$(mktemp -d "$data/.wdl-set.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/chess"
for f in "$data"/chess/*.nmt; do
    ln "$f" "$work/chess/" 2>/dev/null || cp "$f" "$work/chess/"
done
for t in "${tables[@]}"; do
    f="$data/chess/$t.nmt"
    if grep -q "^$t " "$log"; then
        continue
    fi
    times=$(mktemp)
    /usr/bin/time -f '%U %e' -o "$times" "$bin" pack --wdl "$work/chess/$t.nmt" > /dev/null
    mv "$work/chess/$t.nmt.zst" "$out/chess/$t.nmt.zst"
    read -r user wall < "$times"
    rm -f "$times"
    echo "$t $(stat -c %s "$f") $(stat -c %s "$out/chess/$t.nmt.zst") $user $wall" >> "$log"
done
awk '{raw += $2; wdl += $3; n++} END {printf "total %d tables %d raw bytes %d wdl bytes\n", n, raw, wdl}' "$log"
