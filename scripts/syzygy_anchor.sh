#!/usr/bin/env bash
# Builds the chess anchor, Syzygy's generator (github.com/syzygy1/tb, GPL;
# not part of nimrod), as its own project builds it: its own directory, its
# own Makefile and flags. `rtbgen` and `rtbgenp` are made one at a time (a
# parallel `make all` once stopped on an LTO internal compiler error).
# Prints the directory to hand to benches/chess_reference.sh and
# scripts/chess_syzygy5.sh as TB_SRC.
#
#   scripts/syzygy_anchor.sh SOURCE OUT
#     SOURCE  a checkout of syzygy1/tb, or the git directory of a mirror
#             (the search tool's fetch gives /work/.mirror/syzygy1+tb/repo)
#     OUT     a directory to build in (created; its src/ is the TB_SRC)
set -euo pipefail
src=${1:?usage: $0 SOURCE OUT}
out=${2:?usage: $0 SOURCE OUT}
[ -e "$out/src/rtbgen" ] && [ -e "$out/src/rtbgenp" ] && { echo "$out/src"; exit 0; }
# Its one outside dependency: zstd's headers (Debian's libzstd-dev).
if [ ! -f /usr/include/zstd.h ]; then
  (apt-get install -y -qq libzstd-dev || (apt-get update -qq && apt-get install -y -qq libzstd-dev)) >/dev/null 2>&1 \
    || { echo "zstd.h is missing: install libzstd-dev" >&2; exit 2; }
fi
mkdir -p "$out"
if [ -f "$src/src/Makefile" ]; then
  cp -r "$src/src" "$out/"
elif git --git-dir="$src" rev-parse --verify -q HEAD >/dev/null; then
  git --git-dir="$src" archive HEAD src | tar -x -C "$out"
  git --git-dir="$src" log -1 --format='syzygy1/tb %h %cs' > "$out/VERSION"
else
  echo "$src: neither a checkout of syzygy1/tb nor its git directory" >&2
  exit 2
fi
(cd "$out/src" && make rtbgen >"$out/make-rtbgen.log" 2>&1 && make rtbgenp >"$out/make-rtbgenp.log" 2>&1) \
  || { tail -20 "$out"/make-*.log >&2; exit 1; }
echo "$out/src"
