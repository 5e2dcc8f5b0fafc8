#!/usr/bin/env bash
# 5- and 6-piece tables of a build against Syzygy tables regenerated here with
# Syzygy's own generator (github.com/syzygy1/tb, GPL, built separately with
# scripts/syzygy_anchor.sh, in its own directory; not part of nimrod): the WDL of every
# STRIDE-th stored position, both sides to move, without the 50-move rule
# (a cursed win counts as a win).
#
#   scripts/chess_syzygy5.sh TB_SRC DATA STRIDE TABLE…
#     TB_SRC  the directory holding rtbgen and rtbgenp
#     DATA    a data directory holding the tables (raw or packed)
#     STRIDE  compare every STRIDE-th slot (1: all)
#     TABLE   5- or 6-piece tables, e.g. KQRvKR KRBvKR KQRvKRB
#
# Long runs (a 6-piece table: about an hour of rtbgen and hours of probes)
# resume: SYZYGY_KEEP=DIR generates into DIR and keeps the files (a table
# whose .rtbw is there is not generated again; a file appears there only
# once its generator has finished), PROGRESS=DIR notes each
# table's finished parts of the comparison there (DIR/TABLE.progress), so a
# rerun with the same arguments goes on where the last one stopped. A
# progress file names our table by its payload's checksum, not by machine:
# PROGRESS=benches/results/chess/syzygy-progress keeps it in the repository,
# and a session on a new machine rebuilds both tables (ours is the same
# bytes every build) and goes on with the parts not yet compared.
#
# The 3- and 4-piece Syzygy files come from ../shared/oracles/chess/syzygy;
# the 5-piece ones are generated into a temporary directory (about 30 s of
# CPU and a few hundred MB each for pawnless tables). A table with pawns
# needs the 5-piece tables its promotions reach (KRPvKR: KQRvKR, KRRvKR,
# KRBvKR, KRNvKR): name them first on the command line, or set
# SYZYGY_MORE to a directory of Syzygy files to link beside the others.
# SYZYGY_INPUTS="T1 T2 …" names tables to generate first (kept with
# SYZYGY_KEEP) but not to compare: a six-piece table with a pawn needs
# Syzygy's files of its promotions (KQQQvKP: KQQQvK, KQQvKQ, KQQvKR, KQQvKB,
# KQQvKN, KQQvKP, then KQQQvKQ, KQQQvKR, KQQQvKB, KQQQvKN), in that order.
# SYZYGY_GENERATE_ONLY=1 stops once Syzygy's files are there (our tables
# may still be building; DATA is not read).
set -euo pipefail
cd "$(dirname "$0")/.."
tb=${1:?usage: $0 TB_SRC DATA STRIDE TABLE…}
data=${2:?DATA}
stride=${3:?STRIDE}
shift 3
[ $# -gt 0 ] || { echo "name at least one table" >&2; exit 2; }
[[ $stride =~ ^[1-9][0-9]{0,9}$ ]] || { echo "STRIDE must be a positive integer" >&2; exit 2; }
[ -x "$tb/rtbgen" ] && [ -x "$tb/rtbgenp" ] || { echo "$tb: no rtbgen/rtbgenp" >&2; exit 2; }
[ -n "${SYZYGY_GENERATE_ONLY:-}" ] || [ -d "$data/chess" ] || { echo "$data: no chess tables" >&2; exit 2; }
small=../shared/oracles/chess/syzygy
[ -d "$small" ] || { echo "SKIPPED: $small is absent"; exit 0; }
if [ -n "${SYZYGY_KEEP:-}" ]; then
  mkdir -p "$SYZYGY_KEEP"
  work=$(realpath "$SYZYGY_KEEP")
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
for f in "$small"/*; do [ -e "$work/$(basename "$f")" ] || ln -s "$(realpath "$f")" "$work/"; done
if [ -n "${SYZYGY_MORE:-}" ]; then
  [ -d "$SYZYGY_MORE" ] || { echo "SYZYGY_MORE=$SYZYGY_MORE: not a directory" >&2; exit 2; }
  for f in "$SYZYGY_MORE"/*.rtb[wz]; do [ -e "$work/$(basename "$f")" ] || ln -s "$(realpath "$f")" "$work/"; done
fi
inputs=()
read -r -a inputs <<< "${SYZYGY_INPUTS:-}"
for t in "${inputs[@]}" "$@"; do
  [[ $t =~ ^K[QRBNP]*vK[QRBNP]*$ ]] || { echo "TABLE: not a material like KQRvKR: $t" >&2; exit 2; }
  if [ -s "$work/$t.rtbw" ]; then echo "syzygy $t: kept from an earlier run"; continue; fi
  gen=rtbgen
  [[ $t == *P* ]] && gen=rtbgenp
  # Generated in a folder of its own and moved beside the others only once
  # the generator has finished: a killed run leaves no file to be kept.
  rm -rf "$work/.gen-$t"
  mkdir "$work/.gen-$t"
  /usr/bin/time -f "syzygy $t: %e s wall, %U s user, %M KiB" \
    env -C "$work/.gen-$t" RTBPATH="$work" "$tb/$gen" -t "$(nproc)" -w "$t" > "$work/$t.log" 2>&1 \
    || { cat "$work/$t.log" >&2; exit 1; }
  [ -s "$work/.gen-$t/$t.rtbw" ] || { echo "syzygy $t: the generator wrote no $t.rtbw" >&2; exit 1; }
  mv "$work/.gen-$t/$t.rtbw" "$work/$t.rtbw"
  rm -rf "$work/.gen-$t"
  tail -1 "$work/$t.log"
done
if [ -n "${SYZYGY_GENERATE_ONLY:-}" ]; then echo "syzygy: generated, not compared (SYZYGY_GENERATE_ONLY)"; exit 0; fi
if [ -n "${PROGRESS:-}" ]; then mkdir -p "$PROGRESS"; export NIMROD_CHESS_PROGRESS; NIMROD_CHESS_PROGRESS=$(realpath "$PROGRESS"); fi
NIMROD_SYZYGY5="$work" NIMROD_CHESS_DATA="$(realpath "$data")" NIMROD_CHESS_STRIDE="$stride" \
  NIMROD_CHESS_TABLES="$*" \
  cargo test --release --test chess five_piece_tables_match_regenerated_syzygy -- --ignored --nocapture 2>&1 \
  | grep -E "agree|resumed|panicked|test result"
