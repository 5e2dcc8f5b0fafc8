#!/usr/bin/env bash
# The chess checks too slow for CI: every position of every 4-piece table
# against Syzygy WDL (both sides to move), and a random sample of every 3-
# and 4-piece table against Gaviota DTM through the Python chess package.
# Usage: scripts/chess_oracles.sh [positions per table for Gaviota, default 2000]
set -euo pipefail
cd "$(dirname "$0")/.."
per_table=${1:-2000}
[ -d ../shared/oracles/chess ] || { echo "SKIPPED: ../shared/oracles/chess is absent"; exit 0; }
echo "== Syzygy: every 4-piece position"
cargo test --release --test chess every_four_piece_table_matches_syzygy -- --ignored --nocapture 2>&1 \
  | grep -E "agree|4-piece|panicked|test result"
echo "== Gaviota: $per_table random positions per table"
python3 -c 'import chess.gaviota' 2>/dev/null || pip install --quiet chess
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release --quiet
printf '[chess]\npieces = [3, 4]\n' > "$work/all.toml"
./target/release/nimrod build --config "$work/all.toml" --data "$work/data" > /dev/null 2>&1
python3 scripts/chess_gaviota.py --data "$work/data" --per-table "$per_table"
