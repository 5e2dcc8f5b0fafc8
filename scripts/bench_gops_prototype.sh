#!/usr/bin/env bash
# GOPS side by side: nimrod against the independent prototype in
# ../shared/bench/gops-prototype, same N, one thread each, runs alternating
# (ROUNDS of each). CPU is user + system at microsecond resolution
# (scripts/lib/measure.py, getrusage). Prints one CSV row per run, the
# machine's load before and after, and the ratio of the medians.
#   scripts/bench_gops_prototype.sh [N] [ROUNDS] [NIMROD]
#
# The prototype is built as its own project builds it: copied into a
# directory of its own outside this tree and built there, so that this
# project's .cargo/config.toml (target-cpu=x86-64-v3), which cargo applies
# to every build started under our tree, is not applied to it. Until
# 2026-11-28 it was built from our root with our flags; see
# benches/results/gops/README.md for what that changed.
#
# A run that cannot measure fails (exit 1): no prototype, a failed build,
# a failed run.
set -euo pipefail
n=${1:-11}
rounds=${2:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
nimrod=${3:-$here/target/release/nimrod}
proto_src=$here/../shared/bench/gops-prototype
measure=$here/scripts/lib/measure.py
die() { echo "bench_gops_prototype: $*" >&2; exit 1; }
[[ -f $proto_src/Cargo.toml ]] || die "the prototype is not at $proto_src (shared material beside the project: cannot measure)"
(( n >= 2 && n <= 13 )) || die "N must be 2..13 (got $n): larger N take hours and the prototype's memory"
(( rounds >= 1 && rounds <= 50 )) || die "ROUNDS must be 1..50 (got $rounds)"
if [[ -z ${3:-} ]]; then
    (cd "$here" && cargo build --release --quiet) || die "cannot build nimrod"
fi
[[ -x $nimrod ]] || die "no nimrod binary at $nimrod"
work=$(mktemp -d /tmp/nimrod-gops-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
# Its own directory, its own flags: no RUSTFLAGS from our environment, no
# .cargo/config.toml of ours (none above /tmp), its own target directory.
cp -r "$proto_src" "$work/proto"
chmod -R u+w "$work/proto"
(cd "$work/proto" && env -u RUSTFLAGS -u CARGO_BUILD_RUSTFLAGS -u CARGO_TARGET_DIR cargo build --release --quiet) \
    || die "cannot build the prototype in $work/proto"
proto=$work/proto/target/release/gops_bench
printf '[gops]\ncards = %d\n' "$n" > "$work/c.toml"
echo "# $(hostname -s), $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# busiest other processes before: $(ps -eo pcpu,comm --sort=-pcpu --no-headers | head -3 | tr -s ' ' | paste -sd';')"
echo "tool,round,cpu_s,user_s,sys_s,wall_s,max_rss_kib"
for r in $(seq 1 "$rounds"); do
    "$measure" "$work/t" -- "$proto" "$n" 1 > /dev/null || die "the prototype failed (round $r)"
    read -r wall cpu user sys rss _ < "$work/t"
    echo "prototype,$r,$cpu,$user,$sys,$wall,$rss"
    rm -rf "$work/d"
    "$measure" "$work/t" -- "$nimrod" build --config "$work/c.toml" --data "$work/d" --threads 1 > /dev/null 2> "$work/err" \
        || die "nimrod failed (round $r): $(tail -3 "$work/err")"
    read -r wall cpu user sys rss _ < "$work/t"
    echo "nimrod,$r,$cpu,$user,$sys,$wall,$rss"
done | tee "$work/rows"
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/rows" <<'PY'
import sys, statistics
rows = [l.strip().split(",") for l in open(sys.argv[1]) if not l.startswith(("#", "tool"))]
med = {t: statistics.median(float(r[2]) for r in rows if r[0] == t) for t in ("prototype", "nimrod")}
spread = {t: (min(float(r[2]) for r in rows if r[0] == t), max(float(r[2]) for r in rows if r[0] == t)) for t in med}
print(f"median CPU (user + system): prototype {med['prototype']:.3f} s ({spread['prototype'][0]:.3f}-{spread['prototype'][1]:.3f}), "
      f"nimrod {med['nimrod']:.3f} s ({spread['nimrod'][0]:.3f}-{spread['nimrod'][1]:.3f}), ratio nimrod/prototype {med['nimrod'] / med['prototype']:.3f}")
PY
