#!/usr/bin/env bash
# Runs every README/docs example, including those that need the default
# configuration's tables (GOPS N = 10, chess, Klondike), against a default
# build, and compares each with the output shown under it.
#   scripts/readme_examples.sh [DATA]   (DATA: a default build to reuse;
#                                        default: build one in a temp dir)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-}
if [ -z "$data" ]; then
  data=$(mktemp -d)
  trap 'rm -rf "$data"' EXIT
fi
cargo build --release --quiet
target/release/nimrod build --data "$data" > /dev/null
NIMROD_EXAMPLES_DATA="$(cd "$data" && pwd)" cargo test --test readme_examples -- --nocapture
