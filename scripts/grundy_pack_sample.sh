#!/usr/bin/env bash
# Estimates what `nimrod pack` would make of a Grundy values table too big
# to pack beside the disk's other work: SAMPLES slices of 64 MiB of the
# payload, evenly spaced, each cut into the 256 KiB frames `nimrod pack`
# uses and compressed one frame at a time with the zstd tool at level 9
# (the pack's level). Prints each slice's bits a heap, the mean, and the
# packed size it implies for the whole table. A sample, not a pack: the
# figure is labelled an estimate wherever it is quoted.
# Usage: scripts/grundy_pack_sample.sh TABLE [SAMPLES]
set -euo pipefail
table=$1; samples=${2:-16}
[[ -f $table ]] || { echo "no table at $table" >&2; exit 1; }
(( samples >= 1 && samples <= 256 )) || { echo "SAMPLES must be 1..256" >&2; exit 1; }
command -v zstd >/dev/null || { echo "the zstd tool is not installed" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
read -r offset count width < <(PYTHONPATH="$here" python3 - "$table" <<'PY'
import sys
from grundy_mex_check import Values
v = Values(sys.argv[1])
print(v.offset, v.count, v.width)
PY
)
slice=$((64 << 20)); frame=$((256 << 10))
payload=$((count * width))
(( payload >= slice )) || { echo "$table: payload of $payload bytes is smaller than one 64 MiB slice" >&2; exit 1; }
echo "table $table: $count heaps, $width byte(s) a heap, payload at byte $offset"
total=0
for ((k = 0; k < samples; k++)); do
    within=$(( (payload - slice) * k / (samples > 1 ? samples - 1 : 1) / frame * frame ))
    start=$(( offset + within ))
    dd if="$table" of="$work/slice" iflag=skip_bytes,count_bytes skip=$start count=$slice bs=4M status=none
    (cd "$work" && split -b $frame slice f. && rm slice && zstd -q -9 --rm f.*)
    packed=$(cat "$work"/f.*.zst | wc -c); rm -f "$work"/f.*
    total=$((total + packed))
    awk -v s="$start" -v o="$offset" -v w="$width" -v p="$packed" -v n="$slice" \
        'BEGIN { printf "heap %14.0f: %d bytes packed, %.3f bits a heap\n", (s - o) / w, p, p * 8 * w / n }'
done
awk -v t="$total" -v k="$samples" -v n="$slice" -v w="$width" -v c="$count" 'BEGIN {
    bits = t * 8 * w / (k * n)
    printf "mean %.3f bits a heap over %d slices: about %.2f GB packed (estimate)\n", bits, k, bits * c / 8 / 1e9 }'
