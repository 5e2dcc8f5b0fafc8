#!/usr/bin/env bash
# Every figure issue 60 asks of a finished Grundy's game record run, in one
# go, each step timed by /usr/bin/time (CPU, wall, peak RSS):
#   1. `nimrod info` of the table (its statistics: the largest value and its
#      first heap, the rare heaps and the last, the zeros, every value's
#      first heap);
#   2. scripts/grundy_census.py: the same statistics and the count of every
#      value, read from the payload by code that shares nothing with nimrod;
#   3. scripts/grundy_mex_check.py --named [HEAP...]: the plain mex over
#      every split of the largest value's first heap, the last rare heap,
#      the last heap and any HEAP given (minutes a heap near 2^35);
#   4. scripts/grundy_query_scale.sh: `nimrod query grundy N` warm and cold;
#   5. scripts/grundy_rate.py over the run's logs: wall time a heap by range;
#   6. the run's sampled CPU, wall and memory (scripts/longrun.sh status).
# Usage: scripts/grundy_record_report.sh RUN_DIR [HEAP...] > REPORT.txt
#   RUN_DIR is a scripts/longrun.sh run directory (default /root/longrun/grundy35):
#   data/grundy/values.nmt, run*.log, usage.log, nimrod.bin.
# Run from the repository root. Exits non-zero if a step fails (a mex
# disagreement included); the steps after it still run.
set -uo pipefail
dir=${1:-/root/longrun/grundy35}
shift || true
for h in "$@"; do
    [[ $h =~ ^[0-9]{1,12}$ ]] || { echo "HEAP must be a number, not '$h'" >&2; exit 2; }
done
table=$dir/data/grundy/values.nmt
[[ -f $table ]] || { echo "$table: no finished table (is the run done?)" >&2; exit 2; }
bin=$dir/nimrod.bin
[[ -x $bin ]] || bin=target/release/nimrod
[[ -x $bin ]] || { echo "no nimrod binary ($dir/nimrod.bin or target/release/nimrod)" >&2; exit 2; }
# numpy for the census: the first python3 that has it.
py=""
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done
failed=0
step() {
    local title=$1; shift
    echo
    echo "## $title"
    echo "\$ $*"
    /usr/bin/time -f "# %e s wall, %U s user, %S s system, peak RSS %M KiB" "$@" 2>&1
    local rc=$?
    if (( rc != 0 )); then echo "# exit status $rc"; failed=1; fi
}
echo "# Grundy record run report, $(date -u '+%F %T') UTC, $(hostname), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "# table $table ($(stat -c %s "$table") bytes), binary $bin (build $(cat "$dir/BUILD" 2>/dev/null || echo '?'))"
echo "# load while reporting: $(cut -d' ' -f1-3 /proc/loadavg)"
step "nimrod info" "$bin" info "$table"
if [[ -n $py ]]; then
    step "census (scripts/grundy_census.py)" "$py" scripts/grundy_census.py "$table"
else
    echo; echo "## census skipped: no python3 with numpy (apt install python3-numpy)"; failed=1
fi
step "plain mex (scripts/grundy_mex_check.py)" python3 scripts/grundy_mex_check.py "$table" "$@" --named
step "query latency (scripts/grundy_query_scale.sh)" scripts/grundy_query_scale.sh "$bin" "$dir/data" "$table" 5
mapfile -t logs < <(ls "$dir"/run*.log 2>/dev/null)
if (( ${#logs[@]} )); then
    step "wall time a heap by range (scripts/grundy_rate.py)" python3 scripts/grundy_rate.py "${logs[@]}"
fi
echo
echo "## CPU, wall and memory sampled over the run's starts (scripts/longrun.sh status)"
LONGRUN=$(dirname "$dir") scripts/longrun.sh status 2>&1 | sed -n "/== $(basename "$dir")/,/^==/p" | grep -E "usage|starts sampled" || echo "(no usage.log)"
exit $failed
