#!/bin/bash
# Re-derives every value of every finished chess table in a data directory
# (`nimrod verify --all-entries`), one table at a time, and appends one
# line per table to LOG: name, ok or FAILED, user and system CPU seconds,
# wall seconds, peak RSS in KiB. Resumable: a table already "ok" in LOG
# is skipped, so a killed run loses only the table it was on.
#
#   scripts/chess_verify_set.sh DATA LOG [NIMROD]
#
# Tables still being built are not touched (the build writes temporaries
# and renames them when done); a raw table packed meanwhile is read from
# the file opened.
set -u
data=${1:?usage: chess_verify_set.sh DATA LOG [NIMROD]}
log=${2:?usage: chess_verify_set.sh DATA LOG [NIMROD]}
nimrod=${3:-target/release/nimrod}
[ -d "$data/chess" ] || { echo "chess_verify_set.sh: $data/chess: no such directory" >&2; exit 2; }
[ -x "$nimrod" ] || { echo "chess_verify_set.sh: $nimrod: not an executable" >&2; exit 2; }
touch "$log"
for f in "$data"/chess/*.nmt "$data"/chess/*.nmt.zst; do
  [ -e "$f" ] || continue
  name=$(basename "$f"); name=${name%.zst}; name=${name%.nmt}
  grep -q "^$name ok " "$log" && continue
  t=$(mktemp)
  if /usr/bin/time -f '%U %S %e %M' -o "$t" "$nimrod" verify --all-entries "$f" --data "$data" > "$t.out" 2>&1; then
    verdict=ok
  else
    verdict=FAILED
    sed 's/^/  /' "$t.out" >> "$log"
  fi
  echo "$name $verdict $(tail -1 "$t")" >> "$log"
  rm -f "$t" "$t.out"
done
