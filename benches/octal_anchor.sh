#!/usr/bin/env bash
# nimrod's octal solver beside Tomek Czajka's `analyze` (github.com/tczajka/octal-games, old/src/analyze_exec.cc, a
# per-heap sparse-space solver in C++), one code at a time on one thread each, to 2^K heaps:
#   - time: `analyze` prints a line at each power of two and runs on (to 2^28), so its time to 2^K is the wall time
#     at which its 2^K line appears (it runs alone on its core, so wall is CPU); nimrod's is user+sys of a build to 2^K;
#   - statistics, compared field by field: the largest value and its first heap, the mask, the rare heaps (heap 0
#     counted, as `analyze` counts it) and the last rare heap. The two share no code.
# CODE may be `grundy` (Grundy's game, whose rare values are fixed: the bits above the lowest, mask fe while the values
# stay below 256; nimrod's `grundy/values`, whose rare count includes heap 0).
# Usage: benches/octal_anchor.sh ANCHOR_SRC NIMROD K CODE...
#   ANCHOR_SRC: a checkout of tczajka/octal-games; its old/ is built here with the flags of its old/Makefile
#   (g++ -O2 -std=c++11), into a directory of its own. K: 12..=28.
#   e.g. benches/octal_anchor.sh /work/run/tcz target/release/nimrod 22 0.6 0.161 0.167
# Stop anything else that runs (SIGSTOP) for the window.
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 ANCHOR_SRC NIMROD K CODE..." >&2; exit 2; }
src=$1 nimrod=$2 k=$3; shift 3
[ -f "$src/old/src/analyze_exec.cc" ] || { echo "$0: $src/old/src/analyze_exec.cc not found (a checkout of tczajka/octal-games?)" >&2; exit 2; }
[ -x "$nimrod" ] || { echo "$0: $nimrod is not an executable" >&2; exit 2; }
[[ $k =~ ^[0-9]+$ ]] && [ "$k" -ge 12 ] && [ "$k" -le 28 ] || { echo "$0: K must be 12..=28, not '$k'" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
anchor_dir=$work/anchor
mkdir -p "$anchor_dir"
( cd "$src/old" && g++ -O2 -std=c++11 -Wall -Wextra -pthread -Isrc src/analyze_exec.cc src/game.cc src/game_util.cc \
    src/hadamard.cc -o "$anchor_dir/analyze" -lpthread )
bound=$((1 << k))
echo "# octal solvers side by side to 2^$k, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "# anchor: tczajka/octal-games $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?') old/analyze (g++ -O2); nimrod: $nimrod"
for code in "$@"; do
  # `analyze` writes codes without the leading 0 (".6").
  acode=${code#0}
  [[ $code == grundy || $code =~ ^0\.[0-7]+$ ]] || { echo "$0: '$code' is not a code 0.DIGITS nor grundy" >&2; exit 2; }
  start=$(date +%s.%N)
  line=""
  while IFS= read -r l; do
    if [[ $l == "n=2^$k "* ]]; then line=$l; break; fi
    [[ $l == Found* ]] && { echo "$0: $code: the anchor found a period before 2^$k ($l): nothing to compare at 2^$k" >&2; exit 1; }
  done < <(timeout 3600 "$anchor_dir/analyze" "$acode")
  end=$(date +%s.%N)
  pkill -f "$anchor_dir/analyze" 2>/dev/null || true
  [ -n "$line" ] || { echo "$0: $code: the anchor printed no 2^$k line (stopped or timed out)" >&2; exit 1; }
  anchor_s=$(echo "$end - $start" | bc)
  if [ "$code" = grundy ]; then
    printf '[grundy]\nbound = %s\n' "$bound" > "$work/c.toml"; only=grundy/values; table=grundy/values.nmt
  else
    printf '[octal]\ngames = ["%s"]\nbound = %s\n' "$code" "$bound" > "$work/c.toml"; only=octal/$code; table=octal/$code.nmt
  fi
  rm -rf "$work/data"
  /usr/bin/time -f '%U %S' -o "$work/time" "$nimrod" build --config "$work/c.toml" --data "$work/data" --only "$only" \
    --threads 1 > /dev/null 2>&1
  read -r user sys < "$work/time"
  "$nimrod" info --json "$work/data/$table" > "$work/info.json"
  python3 - "$code" "$line" "$anchor_s" "$(echo "$user + $sys" | bc)" "$work/info.json" "$bound" <<'PY'
import json, re, sys
code, line, anchor_s, ours_s, path, bound = sys.argv[1:]
m = re.match(r"n=2\^\d+ largest G\[(\d+)\]=(\d+) rare_mask=([0-9a-f]+)(pos)? num_rare=(\d+) last_rare=(\d+)", line)
if not m:
    sys.exit(f"{code}: cannot read the anchor's line: {line}")
info = json.load(open(path))
st = info["meta"]["stats"] if "meta" in info else info["stats"]
# The statistics cover heaps 0..=bound; `analyze` prints them before computing heap `bound` (heaps 0..bound-1): the
# first heap of the largest value and the rare heaps agree unless heap `bound` itself is one, which the check names.
theirs = {"largest value": int(m[2]), "its first heap": int(m[1]), "mask": int(m[3], 16),
          "domain kind": m[4] is not None, "rare heaps (heap 0 counted)": int(m[5]), "last rare heap": int(m[6])}
if code == "grundy":
    # The rare values are fixed (the bits above the lowest): the anchor's mask is not compared.
    del theirs["mask"], theirs["domain kind"]
    ours = {"largest value": st["max_value"], "its first heap": st["max_value_first_heap"],
            "rare heaps (heap 0 counted)": st["rare_count"], "last rare heap": st["last_rare_heap"]}
else:
    sp = st["sparse"]
    # nimrod counts rare heaps from 1; heap 0 (value 0) is rare in the range kind, and in the domain kind when the
    # first split removal t is even (parity 0 against the parity of 0 - t).
    t = next(i + 1 for i, d in enumerate(code.split(".")[1]) if int(d) & 4)
    heap0_rare = (not sp["domain"]) or t % 2 == 0
    ours = {"largest value": st["max_value"], "its first heap": sp["max_value_first_heap"], "mask": sp["mask"],
            "domain kind": sp["domain"], "rare heaps (heap 0 counted)": sp["rare_heaps"] + int(heap0_rare),
            "last rare heap": sp["last_rare_heap"]}
differ = [k for k in theirs if theirs[k] != ours[k]]
print(f"{code}: anchor {float(anchor_s):.2f} s, nimrod {float(ours_s):.2f} CPU-s, ratio {float(ours_s) / float(anchor_s):.2f}x")
print(f"{code}: " + ", ".join(f"{k} {ours[k]}" for k in ours) +
      ("; the same as the anchor's" if not differ else "; DIFFER from the anchor's: " +
       ", ".join(f"{k} {theirs[k]} (anchor) vs {ours[k]}" for k in differ)))
PY
done
