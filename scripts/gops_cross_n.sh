#!/usr/bin/env bash
# Cross-checks a big GOPS build against a smaller direct one: a subgame's
# value depends only on the cards left, so every state of the N = BIG
# tables whose cards all lie in 1..SMALL must have the very value (same
# bits) that a direct N = SMALL build gives. Builds N = SMALL up to level
# K in a scratch directory, then queries SAMPLES random such states per
# level 1..K in both and compares the printed values exactly.
#   scripts/gops_cross_n.sh BIG_DATA [BIG] [SMALL] [K] [SAMPLES] [NIMROD]
set -euo pipefail
big_data=${1:?usage: gops_cross_n.sh BIG_DATA [BIG] [SMALL] [K] [SAMPLES] [NIMROD]}
big=${2:-15}
small=${3:-$((big - 1))}
k_max=${4:-6}
samples=${5:-100}
cd "$(dirname "$0")/.."
nimrod=${6:-target/release/nimrod}
for v in "$big" "$small" "$k_max" "$samples"; do
    [[ $v =~ ^[0-9]+$ ]] || { echo "not a number: $v" >&2; exit 2; }
done
if (( small >= big || small < 2 || big > 16 || k_max < 1 || k_max > small || samples < 1 || samples > 100000 )); then
    echo "need 2 <= SMALL < BIG <= 16, 1 <= K <= SMALL, 1 <= SAMPLES <= 100000" >&2
    exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '[gops]\ncards = %d\n' "$small" > "$work/c.toml"
"$nimrod" build --config "$work/c.toml" --data "$work/d" \
    --only "gops/n$(printf %02d "$small")/k$(printf %02d "$k_max")" > /dev/null
python3 - "$nimrod" "$big_data" "$big" "$work/d" "$small" "$k_max" "$samples" <<'PY'
import json, random, subprocess, sys
nimrod, big_data, big, small_data, small, k_max, samples = sys.argv[1:]
big, small, k_max, samples = int(big), int(small), int(k_max), int(samples)
rng = random.Random(20261127)
def value(data, cards, prizes, mine, theirs):
    out = subprocess.run([nimrod, "query", "gops", "--cards", str(cards), "--data", data,
                          "--prizes", ",".join(map(str, prizes)), "--mine", ",".join(map(str, mine)),
                          "--theirs", ",".join(map(str, theirs)), "--json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out, parse_float=str)["value"]
compared = mismatches = 0
for k in range(1, k_max + 1):
    for _ in range(samples):
        cards = range(1, small + 1)
        prizes, mine, theirs = (sorted(rng.sample(cards, k)) for _ in range(3))
        a = value(big_data, big, prizes, mine, theirs)
        b = value(small_data, small, prizes, mine, theirs)
        compared += 1
        if a != b:
            mismatches += 1
            print(f"MISMATCH k={k} prizes={prizes} mine={mine} theirs={theirs}: N={big} {a}, N={small} {b}")
    print(f"level {k}: {samples} states compared")
print(f"{compared} states of N = {big} within 1..{small} against a direct N = {small} build: {mismatches} mismatches")
sys.exit(1 if mismatches else 0)
PY
