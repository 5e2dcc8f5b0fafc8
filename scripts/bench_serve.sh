#!/usr/bin/env bash
# `nimrod serve` under load on loopback: requests a second and latency
# percentiles (wrk --latency) for chess look-ups (/standard, every legal
# move rated) and a Grundy look-up (/api/grundy), with raw and with packed
# tables. Bounded: C connections, D seconds each.
# Usage: scripts/bench_serve.sh [CONNECTIONS] [SECONDS]
#   needs wrk (Debian: apt-get install wrk); builds the 3- and 4-piece
#   chess tables and the small config's others into a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."
conns=${1:-16}
secs=${2:-10}
[[ $conns =~ ^[1-9][0-9]{0,3}$ ]] || { echo "CONNECTIONS: 1 to 9999" >&2; exit 2; }
[[ $secs =~ ^[1-9][0-9]{0,3}$ ]] || { echo "SECONDS: 1 to 9999" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }
cargo build --release --quiet
bin=./target/release/nimrod
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$work"' EXIT
sed 's/^pieces = \[3\]$/pieces = [3, 4]/' tests/fixtures/small.toml > "$work/serve.toml"
$bin build --config "$work/serve.toml" --data "$work/raw" > /dev/null 2>&1
cp -r "$work/raw" "$work/packed"
find "$work/packed" -name '*.nmt' -print0 | xargs -0 $bin pack --seekable --remove > /dev/null
echo "# $(date -u +%F), $(hostname), $(nproc) cores, nimrod $(git rev-parse --short HEAD), wrk -t2 -c$conns -d${secs}s --latency"
fen='8/8/8/8/2r5/8/2k5/K6Q_w_-_-_0_1'   # KQvKR, 23 legal moves
for form in raw packed; do
  $bin serve --data "$work/$form" --bind 127.0.0.1:0 > "$work/serve.log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do grep -q http:// "$work/serve.log" && break; sleep 0.1; done
  addr=$(sed -n 's|.*http://\([^/]*\)/.*|\1|p' "$work/serve.log" | head -1)
  for route in "/standard?fen=$fen" "/api/grundy?args=1000"; do
    out=$(wrk -t2 -c"$conns" -d"${secs}s" --latency "http://$addr$route")
    rps=$(awk '/Requests\/sec/ {print $2}' <<< "$out")
    p50=$(awk '$1 == "50%" {print $2}' <<< "$out")
    p99=$(awk '$1 == "99%" {print $2}' <<< "$out")
    errors=$(grep -E "Non-2xx|Socket errors" <<< "$out" | tr '\n' ' ' || true)
    printf '%-7s %-45s %10s req/s  p50 %8s  p99 %8s %s\n' "$form" "${route:0:45}" "$rps" "$p50" "$p99" "$errors"
  done
  kill $pid; wait $pid 2>/dev/null || true; pid=
done
