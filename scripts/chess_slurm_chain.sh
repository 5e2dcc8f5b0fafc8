#!/usr/bin/env bash
# A chain of chess tables built through Slurm on this machine's local cluster
# (scripts/slurm/local-cluster.sh): `nimrod slurm --submit --wait`, one task a
# table with afterok dependencies along the job graph, every task timed by
# /usr/bin/time -v. Then one line a table: its task's wall, CPU and peak RSS.
#
#   scripts/chess_slurm_chain.sh CONFIG DATA [MEM]
#     CONFIG  a config naming the tables, e.g. one with
#             [chess] tables = ["KQQQvKP"]
#             (KQQQvKP, the four six-piece tables its promotions reach,
#             and the five-piece tables below them)
#     DATA    the data directory (tables already built there are skipped)
#     MEM     --mem of every task (default 20G: on a 24 GiB node Slurm then
#             runs the six-piece tasks one at a time)
#
# NIMROD_BIN=PATH runs that binary instead of building target/release/nimrod
# (a `cargo test` running meanwhile holds cargo's lock on target/).
#
# Without an accounting daemon the local cluster keeps no sacct figures,
# hence /usr/bin/time in each task's log (DATA/slurm/logs). A run that is
# stopped resumes: run the script again; finished tables are skipped and a
# table's saved state (NIMROD_CHECKPOINT_MINUTES, default 20 here) is
# picked up by its next task. Long: the KQQQvKP chain is about 7 core-hours.
set -euo pipefail
cd "$(dirname "$0")/.."
config=$(realpath "${1:?usage: $0 CONFIG DATA [MEM]}")
mkdir -p "${2:?DATA}"
data=$(realpath "$2")
mem=${3:-20G}
[[ $mem =~ ^[1-9][0-9]{0,6}[MG]$ ]] || { echo "MEM must be like 20G or 4000M: $mem" >&2; exit 2; }
bin=${NIMROD_BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=target/release/nimrod
fi
[ -x "$bin" ] || { echo "NIMROD_BIN: not an executable: $bin" >&2; exit 2; }
bash scripts/slurm/local-cluster.sh start
# The tasks run a copy, so a rebuild while they wait changes nothing.
mkdir -p "$data/slurm"
cp "$bin" "$data/slurm/nimrod-bin.new"
mv "$data/slurm/nimrod-bin.new" "$data/slurm/nimrod-bin"
printf '#!/bin/bash\nexec /usr/bin/time -v %q "$@"\n' "$data/slurm/nimrod-bin" > "$data/slurm/nimrod-timed"
chmod +x "$data/slurm/nimrod-timed"
started=$(date +%s)
rc=0
NIMROD_CHECKPOINT_MINUTES=${NIMROD_CHECKPOINT_MINUTES:-20} \
  "$data/slurm/nimrod-bin" slurm --config "$config" --data "$data" --mem "$mem" \
  --cpus-per-task "$(nproc)" --nimrod "$data/slurm/nimrod-timed" --submit --wait || rc=$?
echo "chain: $(( $(date +%s) - started )) s of wall, exit $rc"
# One line a task that ran this time (its log newer than the start).
find "$data/slurm/logs" -name '*.out' -newermt "@$started" | sort | while read -r log; do
  awk -v log="$(basename "$log")" '
    /Elapsed \(wall clock\)/ { wall = $NF }
    /User time/ { user = $NF }
    /System time/ { sys = $NF }
    /Maximum resident set size/ { rss = $NF }
    END { printf "%s: wall %s, user %s s, system %s s, peak RSS %s KiB\n", log, wall, user, sys, rss }
  ' "$log"
done
exit "$rc"
