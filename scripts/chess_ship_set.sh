#!/usr/bin/env bash
# The 3-5 set's shipping totals (issue 56), table by table, from nothing:
# builds each table of config/big.toml (and what it depends on) into DATA,
# then runs scripts/chess_ship_check.sh (pack, restore, byte-for-byte
# compare) and scripts/chess_wdl_set.sh (the WDL form's size) on it,
# appending to SHIP_LOG and WDL_LOG. Resumable from the logs alone: a table
# both logs already have is skipped without building it, so a run can go on
# from committed logs on a fresh machine (the tables it needs are rebuilt;
# the sweep engine's bytes do not depend on the machine or thread count).
#
#   scripts/chess_ship_set.sh BIN DATA SHIP_LOG WDL_LOG [TABLE...]
#
# TABLE defaults to every chess table of config/big.toml, in name order
# (C collation, as the logs so far). Shipped files are not kept.
set -euo pipefail
bin=$(realpath "$1")
data=$2
ship_log=$(realpath "$3")
wdl_log=$(realpath "$4")
shift 4
here=$(dirname "$(realpath "$0")")
config="$here/../config/big.toml"
mkdir -p "$data/chess"
tables=("$@")
if [ ${#tables[@]} -eq 0 ]; then
    mapfile -t tables < <("$bin" plan --config "$config" --json | python3 "$here/lib/chess_tables.py" --sorted)
fi
for t in "${tables[@]}"; do
    shipped=0
    grep -q "^$t .* same$" "$ship_log" && shipped=1
    wdl=0
    grep -q "^$t " "$wdl_log" && wdl=1
    [ $shipped = 1 ] && [ $wdl = 1 ] && continue
    if [ ! -e "$data/chess/$t.nmt" ]; then
        "$bin" build --config "$config" --data "$data" --only "chess/$t" > /dev/null
    fi
    [ $shipped = 1 ] || SHIP_LOG="$ship_log" bash "$here/chess_ship_check.sh" "$bin" "$data" "$t" > /dev/null
    if [ $wdl = 0 ]; then
        out=$(mktemp -d)
        bash "$here/chess_wdl_set.sh" "$bin" "$data" "$out" "$wdl_log" "$t" > /dev/null
        rm -rf "$out"
    fi
done
echo "done: $(grep -c ' same$' "$ship_log") tables shipped, $(grep -vc '^#' "$wdl_log") WDL"
