#!/usr/bin/env bash
# Checks Grundy's game against Flammenkamp's published count: 1287 sparse
# ("rare") values are known (heap 0 included). Builds the values to 2^26
# (about 1 min on 2 cores, 140 MiB) and compares the table's statistics.
# Usage: scripts/grundy_flammenkamp.sh [bound]   (default 2^26)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bound=${1:-67108864}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/c.toml" <<CFG
[grundy]
bound = $bound
misere_bound = 3
CFG
./target/release/nimrod build --config "$work/c.toml" --only grundy/values --data "$work/data" > /dev/null
stats=$(./target/release/nimrod info "$work/data/grundy/values.nmt")
rare=$(sed -n 's/.*"rare_count": \([0-9]*\).*/\1/p' <<< "$stats")
last=$(sed -n 's/.*"last_rare_heap": \([0-9]*\).*/\1/p' <<< "$stats")
echo "bound $bound: $rare rare values, the last at heap $last (Flammenkamp: 1287 known)"
# The last of the 1287, as nimrod finds it: 48,399,022 (2026-11-22).
if [ "$bound" -ge 48399022 ] && [ "$rare" -ne 1287 ]; then
  echo "MISMATCH: expected 1287 rare values by heap 48,399,022" >&2
  exit 1
fi
