#!/usr/bin/env bash
# GOPS side by side: nimrod against the independent prototype in
# ../shared/bench/gops-prototype, same N, one thread each, alternating runs
# (ROUNDS of each), user CPU seconds from /usr/bin/time. Prints one CSV row
# per run and the ratio of the medians.
#   scripts/bench_gops_prototype.sh [N] [ROUNDS] [NIMROD]
set -euo pipefail
n=${1:-11}
rounds=${2:-3}
cd "$(dirname "$0")/.."
nimrod=${3:-target/release/nimrod}
proto_dir=../shared/bench/gops-prototype
if [[ ! -d $proto_dir ]]; then
    echo "skipped: $proto_dir is absent (the prototype is shared material, not ours)" >&2
    exit 0
fi
if (( n < 2 || n > 13 )); then
    echo "N must be 2..13 (got $n): larger N take hours and the prototype's memory" >&2
    exit 2
fi
[[ -n ${3:-} ]] || cargo build --release --quiet
cargo build --release --quiet --manifest-path $proto_dir/Cargo.toml --target-dir target/gops-prototype
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '[gops]\ncards = %d\n' "$n" > "$work/c.toml"
echo "tool,round,user_s,wall_s,max_rss_kib"
for r in $(seq 1 "$rounds"); do
    /usr/bin/time -f "%U %e %M" -o "$work/t" target/gops-prototype/release/gops_bench "$n" 1 > /dev/null
    echo "prototype,$r,$(tr ' ' , < "$work/t")"
    rm -rf "$work/d"
    /usr/bin/time -f "%U %e %M" -o "$work/t" "$nimrod" build --config "$work/c.toml" --data "$work/d" --threads 1 > /dev/null 2>&1
    echo "nimrod,$r,$(tr ' ' , < "$work/t")"
done | tee "$work/rows"
python3 - "$work/rows" <<'PY'
import sys, statistics
rows = [l.strip().split(",") for l in open(sys.argv[1])]
med = {t: statistics.median(float(r[2]) for r in rows if r[0] == t) for t in ("prototype", "nimrod")}
print(f"median user CPU: prototype {med['prototype']:.2f} s, nimrod {med['nimrod']:.2f} s, ratio {med['nimrod'] / med['prototype']:.3f}")
PY
