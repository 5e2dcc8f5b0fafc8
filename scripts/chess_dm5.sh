#!/usr/bin/env bash
# Checks our DTM against the 5-piece Gaviota vectors of
# ../shared/oracles/chess/vectors/endgame-dm-5.epd: builds the tables the
# chosen vectors need (default: the pawnless ones, a few minutes on 2 cores)
# and compares `nimrod query chess FEN --json` with each vector's "dm".
# Usage: scripts/chess_dm5.sh [DATA_DIR] [TABLE…]
#   (default tables: KRRNvK KRRRvK KQBBvK KQRNvK KNNvKN KBNvKB; vectors whose
#   table is absent from DATA_DIR are listed as skipped)
set -euo pipefail
cd "$(dirname "$0")/.."
epd=../shared/oracles/chess/vectors/endgame-dm-5.epd
[ -f "$epd" ] || { echo "SKIPPED: $epd is absent"; exit 0; }
data=${1:-data}
shift || true
tables=("$@")
[ ${#tables[@]} -gt 0 ] || tables=(KRRNvK KRRRvK KQBBvK KQRNvK KNNvKN KBNvKB)
cargo build --release --quiet
cfg=$(mktemp)
trap 'rm -f "$cfg"' EXIT
list=$(printf '"%s", ' "${tables[@]}")
printf '[chess]\ntables = [%s]\n' "${list%, }" > "$cfg"
/usr/bin/time -f 'built in %e s wall, %M KB peak' ./target/release/nimrod build --config "$cfg" --data "$data" 2>&1 | tail -1
python3 - "$epd" "$data" <<'PY'
import json, re, subprocess, sys
epd, data = sys.argv[1], sys.argv[2]
compared = mismatched = skipped = 0
for line in open(epd):
    line = line.strip()
    if not line or line.startswith('#') or ' dm ' not in line:
        continue
    fields = line.split()
    fen = ' '.join(fields[:4]) + ' 0 1'
    dm = int(line.split(' dm ')[1].split(';')[0])
    r = subprocess.run(['./target/release/nimrod', 'query', 'chess', fen, '--json', '--data', data],
                       capture_output=True, text=True)
    if r.returncode != 0:
        skipped += 1
        need = re.search(r'table (chess/\w+) not found', r.stderr)
        print(f"skipped  {fen}: {need.group(1) + ' not built' if need else r.stderr.strip()}")
        continue
    ours = json.loads(r.stdout)['dtm_moves']
    compared += 1
    ok = ours == dm
    mismatched += not ok
    print(f"{'agree   ' if ok else 'MISMATCH'} {fen}: ours {ours}, Gaviota {dm}")
print(f'dm-5 vectors: {compared} compared, {mismatched} mismatches, {skipped} skipped (no table)')
sys.exit(1 if mismatched else 0)
PY
