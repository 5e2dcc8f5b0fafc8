#!/bin/bash
# Builds the chess tables of a config one table per process (in the plan's
# order), so that each table's CPU time and peak memory are measured on
# their own, and appends one line per table to LOG:
#   TABLE user_s system_s wall_s max_rss_kib
# A table already in the data directory (raw or packed) is skipped, so a
# killed run loses only the table it was building. The build's own
# progress lines go to LOG.stages (for scripts/chess_set_figures.py).
#
#   scripts/chess_set_build.sh CONFIG DATA LOG [NIMROD] [THREADS]
set -u
config=${1:?usage: chess_set_build.sh CONFIG DATA LOG [NIMROD] [THREADS]}
data=${2:?usage: chess_set_build.sh CONFIG DATA LOG [NIMROD] [THREADS]}
log=${3:?usage: chess_set_build.sh CONFIG DATA LOG [NIMROD] [THREADS]}
nimrod=${4:-target/release/nimrod}
threads=${5:-$(nproc)}
[ -x "$nimrod" ] || { echo "chess_set_build.sh: $nimrod: not an executable" >&2; exit 2; }
here=$(dirname "$(realpath "$0")")
names=$("$nimrod" plan --config "$config" --json | python3 "$here/lib/chess_tables.py") \
  || { echo "chess_set_build.sh: nimrod plan --config $config failed" >&2; exit 2; }
for name in $names; do
  id=chess/$name
  [ -e "$data/chess/$name.nmt" ] || [ -e "$data/chess/$name.nmt.zst" ] && continue
  t=$(mktemp)
  if /usr/bin/time -f '%U %S %e %M' -o "$t" "$nimrod" build --config "$config" --data "$data" \
      --threads "$threads" --only "$id" >> "$log.stages" 2>&1; then
    echo "$name $(tail -1 "$t")" >> "$log"
  else
    echo "chess_set_build.sh: $id failed (see $log.stages)" >&2
    rm -f "$t"
    exit 1
  fi
  rm -f "$t"
done
