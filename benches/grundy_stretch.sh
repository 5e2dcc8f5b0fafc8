#!/usr/bin/env bash
# Grundy's game at record scale, a stretch at a time: copies a saved
# streaming state (values.nmt.checkpoint and values.nmt.partial of a
# `width = 8`, window 2^26 build such as config/record.toml's) and resumes
# it for SPAN heaps with each binary in turn, ROUNDS times, alternating.
# Prints per run: round, binary, threads, user CPU s, wall s, peak RSS KiB,
# and the table's sha256 prefix (equal for every binary and thread count,
# or something is wrong). Takes a heap count far past where a fresh build
# would start in seconds.
#
#   benches/grundy_stretch.sh STATE_DIR AT ROUNDS BIN...
#
# STATE_DIR holds the two files, AT the heap the checkpoint resumes at (the
# build log's "state saved at heap AT"). SPAN (default 2^24) and THREADS
# (default 1) come from the environment. Stop other work first.
set -euo pipefail
state=$1 at=$2 rounds=$3
shift 3
span=${SPAN:-16777216}
threads=${THREADS:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '[grundy]\nbound = %d\nmode = "streaming"\nwindow = 67108864\nwidth = 8\nmisere_bound = 90\n' \
    $((at + span)) > "$work/c.toml"
for r in $(seq "$rounds"); do
    for b in "$@"; do
        d="$work/d"
        rm -rf "$d"
        mkdir -p "$d/grundy"
        cp "$state/values.nmt.checkpoint" "$state/values.nmt.partial" "$d/grundy/"
        /usr/bin/time -f "%U %e %M" -o "$work/t" "$b" build --config "$work/c.toml" --data "$d" \
            --only grundy/values --threads "$threads" > "$work/log" 2>&1
        if ! grep -q "resumed at heap $at" "$work/log"; then
            echo "$b did not resume at heap $at:" >&2
            tail -3 "$work/log" >&2
            exit 1
        fi
        echo "$r $(basename "$b") $threads $(cat "$work/t") $(sha256sum "$d/grundy/values.nmt" | cut -c1-16)"
    done
done
