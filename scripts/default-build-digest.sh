#!/usr/bin/env bash
# Builds the embedded default configuration into a fresh directory and prints
# the sha256 of every output file (the job locks left out) and one digest
# over that list. Two commits that must produce the same bytes must print the
# same last line; diff the lists to see which tables moved.
#   scripts/default-build-digest.sh [OUT_LIST]   (default: default-build.sha256)
set -euo pipefail
cd "$(dirname "$0")/.."
list="${1:-default-build.sha256}"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
cargo build --release --quiet
"${CARGO_TARGET_DIR:-target}/release/nimrod" build --data "$data" > "$data.log" 2>&1 || { cat "$data.log"; exit 1; }
rm -f "$data.log"
(cd "$data" && find . -type f ! -path './.locks/*' | LC_ALL=C sort | xargs sha256sum) > "$list"
echo "$(wc -l < "$list") files; digest $(sha256sum < "$list" | cut -c1-64)"
