#!/usr/bin/env bash
# The issue-15 regression at full size: builds GOPS N = 12 up to hand size 7
# (about 16 s on 2 cores), queries the state whose matrix game solver 1 got
# wrong (it printed -10.740), checks the answer against the independent LP
# value -5.747 (HiGHS on the same payoffs), and re-solves every matrix game
# of level 7 with `nimrod verify --all-entries`.
# Usage: scripts/gops_n12_example.sh [DATA_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
data=${1:-$(mktemp -d)}
printf '[gops]\ncards = 12\n' > "$data/n12.toml"
./target/release/nimrod build --config "$data/n12.toml" --data "$data" --only gops/n12/k07 > /dev/null
out=$(./target/release/nimrod query gops --cards 12 --mine 1,3,4,5,8,10,11 --theirs 2,3,6,7,8,9,12 \
  --prizes 1,4,6,7,9,10,11 --upcard 11 --data "$data" --json)
echo "$out" | python3 -c '
import json, sys
v = json.load(sys.stdin)["upcards"][0]
value = v["value"]
print(f"upcard 11: value {value:.6f} (independent LP: -5.747)")
assert abs(value + 5.746994) < 1e-5, value
for who in ("player_one", "player_two"):
    p = [e["probability"] for e in v[who]]
    assert min(p) >= 0 and abs(sum(p) - 1) < 1e-9, (who, p)
print("both strategies are probability vectors")
'
./target/release/nimrod verify --all-entries "$data/gops/n12/k07.nmt"
