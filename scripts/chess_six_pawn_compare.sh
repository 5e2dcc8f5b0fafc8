#!/usr/bin/env bash
# A six-piece chess table with a pawn against Syzygy's WDL, every position,
# in three steps that each resume where a stopped run left them, so the
# whole (about 5-6 hours of this 2-core machine for KQQQvKP) goes on across
# sessions on a machine that keeps its disk: run the same command again.
#
#   scripts/chess_six_pawn_compare.sh TB_SRC DATA KEEP [TABLE]
#     TB_SRC  Syzygy's generator (scripts/syzygy_anchor.sh prints it)
#     DATA    our data directory (tables built there are kept and skipped)
#     KEEP    where Syzygy's files are generated and kept
#     TABLE   default KQQQvKP
#
# 1. ours: `nimrod build --config config/big6.toml --only chess/TABLE`
#    (its cone first; a table's saved state is picked up by the next run);
# 2. Syzygy's: the files its promotions need, then TABLE's own `.rtbw`
#    (SYZYGY_INPUTS, default KQQQvKP's list; a file is kept once made);
# 3. the comparison, its finished parts noted in
#    benches/results/chess/syzygy-progress/TABLE.progress.
# One step at a time, never two beside each other: each generator peaks at
# 15-17 GB on a six-piece table. NIMROD_BIN=PATH runs that binary instead of
# building target/release/nimrod.
#
# SYZYGY_MORE=DIR (see scripts/chess_syzygy5.sh) supplies Syzygy's files
# made on another machine: when DIR or KEEP holds TABLE.rtbw, step 2 is
# skipped (the probes need TABLE's file and the five-piece files of its
# captures, not the six-piece files of its promotions), which saves the
# hours Syzygy's generator takes; benches/results/chess/syzygy-files/
# keeps KQQQvKP's.
set -euo pipefail
cd "$(dirname "$0")/.."
tb=${1:?usage: $0 TB_SRC DATA KEEP [TABLE]}
data=${2:?DATA}
keep=${3:?KEEP}
table=${4:-KQQQvKP}
[[ $table =~ ^K[QRBNP]*vK[QRBNP]*$ && $table == *P* ]] \
  || { echo "TABLE: not a material with a pawn, like KQQQvKP: $table" >&2; exit 2; }
have_file=""
for d in "$keep" "${SYZYGY_MORE:-}"; do
  [ -n "$d" ] && [ -s "$d/$table.rtbw" ] && have_file="$d/$table.rtbw"
done
# With TABLE's own file there, only what its probes reach (its captures'
# five-piece files); without it, what its generator reads (its promotions').
default_inputs=""
if [ -n "$have_file" ]; then
  [ "$table" = KQQQvKP ] && default_inputs="KQQQvK KQQvKP"
  reach="captures"
else
  [ "$table" = KQQQvKP ] && default_inputs="KQQQvK KQQvKQ KQQvKR KQQvKB KQQvKN KQQvKP KQQQvKQ KQQQvKR KQQQvKB KQQQvKN"
  reach="promotions"
fi
inputs=${SYZYGY_INPUTS:-$default_inputs}
[ -n "$inputs" ] || { echo "SYZYGY_INPUTS: name the tables $table's $reach reach" >&2; exit 2; }
bin=${NIMROD_BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=target/release/nimrod
fi
[ -x "$bin" ] || { echo "NIMROD_BIN: not an executable: $bin" >&2; exit 2; }
mkdir -p "$data" "$keep"
step() { echo "== $(date -u +%H:%M:%S) $*"; }

step "1/3 nimrod build chess/$table (and its cone)"
NIMROD_CHECKPOINT_MINUTES=${NIMROD_CHECKPOINT_MINUTES:-20} /usr/bin/time -v \
  "$bin" build --config config/big6.toml --data "$data" --only "chess/$table" --threads "$(nproc)"

if [ -n "$have_file" ]; then
  step "2/3 Syzygy's $table.rtbw is there ($have_file); its capture files: $inputs"
else
  step "2/3 Syzygy's files: $inputs $table"
fi
SYZYGY_GENERATE_ONLY=1 SYZYGY_INPUTS="$inputs" SYZYGY_KEEP="$keep" \
  bash scripts/chess_syzygy5.sh "$tb" "$data" 1 "$table"

step "3/3 every position of $table against Syzygy's WDL"
SYZYGY_INPUTS="$inputs" SYZYGY_KEEP="$keep" PROGRESS=benches/results/chess/syzygy-progress \
  bash scripts/chess_syzygy5.sh "$tb" "$data" 1 "$table"
step "done"
