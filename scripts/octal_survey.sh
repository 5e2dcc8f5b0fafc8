#!/usr/bin/env bash
# Builds octal games by the sparse-space method to a bound, one job at a
# time on one thread, and prints one row per code: heaps computed, why the
# build stopped, the period if proved, the sparse set (mask, kind, rare
# heaps, the last rare heap), the largest value, the step-2 scan cost, the
# CPU seconds (/usr/bin/time) and peak memory of each build.
# Usage: scripts/octal_survey.sh BOUND CODE...
#   e.g. scripts/octal_survey.sh 4194304 0.6 0.16 0.106 0.161 0.167 0.1777
# Checks against published periods where the script knows one:
#   0.16: 149,459 from heap 105,351 (Gangolli and Plambeck 1989; OEIS A071430)
#   0.1777: 60,620,715, last exception at heap 160,949,017 (Flammenkamp;
#   OEIS A071509; as for 0.16, our preperiod is the last exception + 1)
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 BOUND CODE..." >&2; exit 2; }
bound=$1; shift
cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "octal survey, bound $bound, $(date -u +%Y-%m-%d), $(nproc) cores, commit $(git rev-parse --short HEAD)"
printf '%-8s %12s %-8s %-24s %6s %-6s %6s %12s %6s %14s %8s %8s\n' \
  code computed_to stopped period mask kind rare last_rare max_v scanned_splits cpu_s rss_MiB
for code in "$@"; do
  printf '[octal]\ngames = ["%s"]\nbound = %s\n' "$code" "$bound" > "$work/c.toml"
  /usr/bin/time -f '%U %S %M' -o "$work/time" \
    ./target/release/nimrod build --config "$work/c.toml" --data "$work/data" --threads 1 > /dev/null
  read -r user sys rss_kb < "$work/time"
  ./target/release/nimrod info --json "$work/data/octal/$code.nmt" > "$work/info.json"
  python3 - "$code" "$user" "$sys" "$rss_kb" "$work/info.json" <<'PY'
import json, sys
code, user, sys_s, rss_kb, path = sys.argv[1:]
info = json.load(open(path))
st = info["meta"]["stats"] if "meta" in info else info["stats"]
sp = st["sparse"]
p = st["period"]
period = f'{p["period"]} from {p["preperiod"]}' if p else "none"
stopped = "bound" if st["stopped"] is None else ("period" if st["stopped"].startswith("period") else "dense")
kind = "dense" if sp.get("dense") else ("domain" if sp["domain"] else "range")
print(f'{code:<8} {st["computed_to"]:>12} {stopped:<8} {period:<24} {sp["mask"]:>6} {kind:<6} '
      f'{sp["rare_heaps"]:>6} {sp["last_rare_heap"]:>12} {st["max_value"]:>6} {sp["scanned_splits"]:>14} '
      f'{float(user) + float(sys_s):>8.1f} {int(rss_kb) / 1024:>8.0f}')
published = {"0.16": (149459, 105351), "0.1777": (60620715, 160949018)}
if code in published and p:
    want = published[code]
    if (p["period"], p["preperiod"]) != want:
        print(f"MISMATCH: {code} period {p['period']} from {p['preperiod']}, published {want}", file=sys.stderr)
        sys.exit(1)
PY
  rm -rf "$work/data"
done
