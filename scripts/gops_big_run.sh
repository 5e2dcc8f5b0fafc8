#!/usr/bin/env bash
# The big GOPS run (score objective) on one machine, level by level, the big
# levels in parts (`build --shard`), resumable after any interruption: a
# finished level or part is skipped, a killed one restarts from its last
# finished part. Each part's wall, CPU and peak memory (max RSS) is appended
# to a CSV as it finishes, with the level's fallbacks and worst certificate
# gap once merged.
#
#   scripts/gops_big_run.sh N DATA [CSV]
#     N     cards (e.g. 15)
#     DATA  data directory (needs about 2x the largest level free on disk;
#           PACK=1 packs each level once the level two above starts)
#     CSV   per-part figures (default benches/results/gops/nNN-run.csv)
#
# Parts per level: enough that one part's output and the rows of the level
# below it reads stay near PART_BYTES (default 3 GB): see `nimrod plan`.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:?usage: $0 N DATA [CSV]}
data=${2:?usage: $0 N DATA [CSV]}
nn=$(printf '%02d' "$n")
csv=${3:-benches/results/gops/n$nn-run.csv}
part_bytes=${PART_BYTES:-3000000000}
threads=${THREADS:-$(nproc)}
bin=${NIMROD:-./target/release/nimrod}
[ -x "$bin" ] || cargo build --release --quiet
mkdir -p "$data" "$(dirname "$csv")"
cfg="$data/gops-n$nn.toml"
printf '[gops]\ncards = %d\n' "$n" > "$cfg"
[ -s "$csv" ] || echo "date,machine,level,part,parts,wall_s,user_s,sys_s,max_rss_mib,threads" > "$csv"
machine="$(hostname -s) $(nproc) cores $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"

# level id, parts: from the plan's estimates (output + the level below read).
"$bin" plan --config "$cfg" --json | python3 -c '
import json, sys, math
limit = int(sys.argv[1])
for j in json.load(sys.stdin)["jobs"]:
    e = j["estimate"]
    parts = max(1, math.ceil(e["memory_bytes"] / limit)) if e else 1
    print(j["id"], parts)
' "$part_bytes" > "$data/levels.txt"

timed() { # level part parts -- command…
  local level=$1 part=$2 parts=$3; shift 4
  /usr/bin/time -f '%e %U %S %M' -o "$data/time.txt" "$@" > /dev/null
  read -r wall user sys kb < "$data/time.txt"
  echo "$(date -u +%FT%TZ),$machine,$level,$part,$parts,$wall,$user,$sys,$((kb / 1024)),$threads" >> "$csv"
}

prev= prev2=
while read -r id parts; do
  table="$data/$id.nmt"
  # Two levels down is read by nothing still to build: with PACK=1 it is
  # packed (zstd, checked, raw removed) to leave the disk to the big levels,
  # and a packed level counts as built.
  if [ -f "$table.zst" ] && [ ! -f "$table" ]; then
    echo "$id: done (packed)"
    prev2=$prev prev=$id
    continue
  fi
  if [ "${PACK:-0}" = 1 ] && [ -n "$prev2" ] && [ -f "$data/$prev2.nmt" ]; then
    "$bin" pack --level 3 --remove "$data/$prev2.nmt"
  fi
  prev2=$prev prev=$id
  if [ -f "$table" ] && "$bin" build --config "$cfg" --data "$data" --only "$id" --json 2>/dev/null \
      | python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["jobs"][-1]["state"] == "skipped" else 1)'; then
    echo "$id: done"
    continue
  fi
  if [ "$parts" -gt 1 ]; then
    for i in $(seq 1 "$parts"); do
      part="$data/$id.part-$(printf %04d "$i")-of-$(printf %04d "$parts").nmt"
      if [ -f "$part" ]; then echo "$id: part $i/$parts done"; continue; fi
      echo "$id: part $i/$parts"
      timed "$id" "$i" "$parts" -- "$bin" build --config "$cfg" --data "$data" --threads "$threads" --only "$id" --shard "$i/$parts"
    done
    echo "$id: merge"
    timed "$id" merge "$parts" -- "$bin" build --config "$cfg" --data "$data" --threads "$threads" --only "$id"
  else
    echo "$id: whole"
    timed "$id" whole 1 -- "$bin" build --config "$cfg" --data "$data" --threads "$threads" --only "$id"
  fi
  "$bin" info "$table" --json | python3 -c '
import json, sys
s = json.load(sys.stdin)["meta"]["stats"]
v = s["solve"]
print("%s: %d states, %d games, fallbacks %d Bland + %d exact, worst gap %.3g, full game %s" % (
    sys.argv[1], v["states"], v["matrix_games"], v["fallback_bland"], v["fallback_exact"],
    v["worst_gap"], s["full_game_value"]))
' "$id" | tee -a "${csv%.csv}-levels.txt"
done < "$data/levels.txt"
echo "GOPS N = $n: every level built"
