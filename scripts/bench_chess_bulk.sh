#!/usr/bin/env bash
# Bulk probing from the command line (`nimrod query chess --fens`): positions
# a second on a file of random legal FENs, text and JSON, from raw tables and
# from the same tables packed (`nimrod pack`, zstd seekable). The FENs are
# drawn with `query chess --sample` (seeded, uniform over each table's legal
# positions, both sides to move), COUNT split evenly over the TABLEs.
# The packed copy is made in a scratch directory beside DATA's tables.
# Every run's exit code and line count are checked.
# Usage: scripts/bench_chess_bulk.sh NIMROD_BINARY DATA_DIR COUNT TABLE...
set -euo pipefail
bin=${1:?usage: bench_chess_bulk.sh NIMROD_BINARY DATA_DIR COUNT TABLE...}
data=${2:?data directory}
count=${3:?number of FENs}
shift 3
(( $# >= 1 )) || { echo "bench_chess_bulk: name at least one TABLE (e.g. KQRvKR)" >&2; exit 1; }
[[ -x $bin ]] || { echo "bench_chess_bulk: no nimrod binary at $bin" >&2; exit 1; }
[[ -d $data/chess ]] || { echo "bench_chess_bulk: no chess tables in $data" >&2; exit 1; }
(( count >= 1 && count <= 100000000 )) || { echo "bench_chess_bulk: COUNT must be 1..1e8" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/chess-bulk.XXXXXX")
trap 'rm -rf "$work"' EXIT

per=$(( (count + $# - 1) / $# ))
for t in "$@"; do
  left=$per seed=1
  while (( left > 0 )); do
    n=$(( left < 100000 ? left : 100000 ))
    "$bin" query chess --sample "$n" --table "$t" --seed "$seed" --data "$data" | cut -d' ' -f1-6 >> "$work/fens.txt"
    left=$(( left - n )) seed=$(( seed + 1 ))
  done
done
head -n "$count" "$work/fens.txt" > "$work/fens" && mv "$work/fens" "$work/fens.txt"
lines=$(wc -l < "$work/fens.txt")

# The packed copy: every table, packed beside a hard link (the raw data
# directory is not touched).
mkdir -p "$work/packed/chess"
for f in "$data"/chess/*.nmt; do ln "$f" "$work/packed/chess/" 2>/dev/null || cp "$f" "$work/packed/chess/"; done
"$bin" pack --seekable --remove "$work"/packed/chess/*.nmt > /dev/null
raw_bytes=$(du -cb "$data"/chess/*.nmt | tail -1 | cut -f1)
packed_bytes=$(du -cb "$work"/packed/chess/*.zst | tail -1 | cut -f1)

echo "# $(hostname), $(nproc) cores; $(date -u +%F); $lines FENs from: $*; nimrod $("$bin" --version | cut -d' ' -f2)"
echo "# raw tables $raw_bytes bytes, packed $packed_bytes bytes; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for form in raw packed; do
  dir=$data; [[ $form == packed ]] && dir=$work/packed
  for mode in text json; do
    flag=(); [[ $mode == json ]] && flag=(--json)
    start=$(date +%s.%N)
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$bin" query chess --fens "$work/fens.txt" --data "$dir" "${flag[@]}" > "$work/out"
    end=$(date +%s.%N)
    got=$(wc -l < "$work/out")
    (( got == lines )) || { echo "bench_chess_bulk: $form $mode printed $got lines for $lines FENs" >&2; exit 1; }
    read -r wall user sys rss < "$work/time"
    awk -v f="$form" -v m="$mode" -v n="$lines" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" \
      'BEGIN { printf "%-6s %-4s %9d FENs  wall %8.2f s  cpu %8.2f s  %9.0f FENs/s wall  %7.1f us cpu/FEN  peak %6.1f MiB\n", f, m, n, w, u + s, n / w, (u + s) * 1e6 / n, r / 1024 }'
  done
  sha=$(sha256sum < "$work/out" | cut -c1-16)
  echo "# $form json output sha256 $sha"
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
