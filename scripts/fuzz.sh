#!/usr/bin/env bash
# Seed corpus and a short timed run of every fuzz target.
#
#   scripts/fuzz.sh corpus        build fuzz/corpus/<target>/ only (stable Rust)
#   scripts/fuzz.sh [SECONDS]     corpus, then each target for SECONDS
#                                 (default 60; needs nightly and cargo-fuzz:
#                                 rustup toolchain install nightly;
#                                 cargo install cargo-fuzz)
#
# Seeds: the golden tables (tests/fixtures/golden), raw and packed, for
# table_reader; fuzz/seeds/NAME.txt (one input per line) for the text
# parsers; the shipped configs for config; the README's query lines for
# query_parsers. CI only type-checks the targets (`cargo check` in .ci/run);
# tests/mutation.rs runs the same properties on stable with seeded mutations.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=fuzz/corpus
rm -rf "$corpus"
mkdir -p "$corpus"/{table_reader,query_parsers,fen,octal_code,material,klondike_rules,config}

bin=${NIMROD:-target/release/nimrod}
[ -x "$bin" ] || cargo build --release --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
while IFS= read -r -d '' t; do
  i=$((i + 1))
  cp "$t" "$corpus/table_reader/golden-$i.nmt"
  cp "$t" "$tmp/t.nmt"
  "$bin" pack "$tmp/t.nmt" > /dev/null
  mv "$tmp/t.nmt.zst" "$corpus/table_reader/golden-$i.nmt.zst"
  rm -f "$tmp/t.nmt"
done < <(find tests/fixtures/golden -name '*.nmt' -print0 | sort -z)

for name in fen octal_code material klondike_rules; do
  n=0
  while IFS= read -r line; do
    n=$((n + 1))
    printf '%s' "$line" > "$corpus/$name/seed-$n"
  done < "fuzz/seeds/$name.txt"
done
for c in config/*.toml tests/fixtures/*.toml; do
  cp "$c" "$corpus/config/$(basename "$c")"
done
n=0
grep -ho '\$ nimrod query [^`]*' README.md docs/*.md 2>/dev/null | sed 's/^\$ nimrod query //' | sort -u |
  while IFS= read -r line; do
    n=$((n + 1))
    printf '%s' "$line" > "$corpus/query_parsers/readme-$n"
  done

for d in "$corpus"/*; do
  echo "$(basename "$d"): $(find "$d" -type f | wc -l) seeds, $(du -sk "$d" | cut -f1) KiB"
done
[ "${1:-}" = corpus ] && exit 0

seconds=${1:-60}
for target in table_reader query_parsers fen octal_code material klondike_rules config; do
  echo "== $target, $seconds s"
  (cd fuzz && cargo +nightly fuzz run "$target" "corpus/$target" -- -max_total_time="$seconds")
done
