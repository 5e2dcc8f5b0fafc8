#!/usr/bin/env bash
# Ships chess tables and checks every position of each comes back exactly.
#
#   scripts/chess_ship_check.sh BIN DATA [TABLE...]
#
# For each TABLE (default: every chess table in DATA/chess): hard-links the
# raw tables into a scratch directory beside DATA, runs `BIN pack` on
# TABLE, then restores it with `BIN unpack` (the raw table moved aside, the
# smaller tables raw beside it) and compares the restored file with the
# raw one byte for byte. A restore evaluates every legal position of both
# sides through the shipped table's probe rules and must match the raw
# table's checksums before it is written, so "same" means every position
# answers exactly. Prints one line per table (raw and shipped bytes, the
# side kept, pack and unpack wall seconds, same/DIFF) and the totals; the
# exit status is 1 if any table differs or fails.
#
# For a whole set, which takes hours: SHIP_LOG=FILE appends each table's
# line to FILE as it finishes and skips the tables FILE already has as
# "same" (a rerun resumes; a killed run loses the table it was on), and
# SHIP_KEEP=DIR keeps each shipped file in DIR/chess/.
set -euo pipefail
bin=$(realpath "$1")
data=$(realpath "$2")
shift 2
tables=("$@")
if [ ${#tables[@]} -eq 0 ]; then
    for f in "$data"/chess/*.nmt; do tables+=("$(basename "$f" .nmt)"); done
fi
work=$(mktemp -d "$data/.ship-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/chess" "$work/aside"
for f in "$data"/chess/*.nmt; do
    ln "$f" "$work/chess/" 2>/dev/null || cp "$f" "$work/chess/"
done
log=${SHIP_LOG:-/dev/null}
keep=${SHIP_KEEP:-}
[ -n "$keep" ] && mkdir -p "$keep/chess"
printf '%-8s %13s %11s %13s %8s %8s %s\n' table raw_bytes shipped kept pack_s unpack_s result
bad=0
total_raw=0
total_shipped=0
for t in "${tables[@]}"; do
    if [ -f "$log" ] && grep -q "^$t .* same$" "$log"; then
        continue
    fi
    raw="$work/chess/$t.nmt"
    start=$(date +%s.%N)
    kept=$("$bin" pack --json "$raw" | python3 -c 'import json,sys; k=json.load(sys.stdin)[0]["kept"].split(); print(k[0]+"/"+k[-2])')
    mid=$(date +%s.%N)
    mv "$raw" "$work/aside/$t.nmt"
    if "$bin" unpack "$raw.zst" > /dev/null; then
        end=$(date +%s.%N)
        if cmp -s "$raw" "$work/aside/$t.nmt"; then result=same; else result=DIFF; bad=1; fi
        rm -f "$raw"
    else
        end=$(date +%s.%N)
        result=FAILED
        bad=1
    fi
    mv "$work/aside/$t.nmt" "$raw"
    r=$(stat -c %s "$raw")
    s=$(stat -c %s "$raw.zst")
    total_raw=$((total_raw + r))
    total_shipped=$((total_shipped + s))
    line=$(printf '%-8s %13d %11d %13s %8.1f %8.1f %s' "$t" "$r" "$s" "$kept" \
        "$(echo "$mid - $start" | bc)" "$(echo "$end - $mid" | bc)" "$result")
    echo "$line"
    [ "$log" = /dev/null ] || echo "$line" >> "$log"
    if [ -n "$keep" ] && [ "$result" = same ]; then
        mv "$raw.zst" "$keep/chess/$t.nmt.zst"
    fi
    rm -f "$raw.zst"
done
printf '%-8s %13d %11d\n' total "$total_raw" "$total_shipped"
exit $bad
