#!/usr/bin/env bash
# Two nimrod binaries build the same octal codes to the same bound, one at a
# time on one thread, alternating: CPU seconds (user+sys, /usr/bin/time),
# peak memory, and whether the values are the same byte for byte (the
# payloads are compared; the statistics may differ between solver versions).
# Usage: [OLD_THREADS=1] [NEW_THREADS=1] benches/octal_side_by_side.sh OLD NEW BOUND ROUNDS CODE...
#   e.g. benches/octal_side_by_side.sh /tmp/nimrod-1d29513 target/release/nimrod 4194304 2 0.6 0.161
#   NEW_THREADS=2 benches/octal_side_by_side.sh B B ... compares one binary's
#   one and two threads (the helper thread); then the whole files must match.
# Build OLD from its commit as the project builds it (cargo build --release in
# its own checkout). Stop anything else that runs (SIGSTOP) for the window.
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: $0 OLD NEW BOUND ROUNDS CODE..." >&2; exit 2; }
old=$1 new=$2 bound=$3 rounds=$4; shift 4
old_threads=${OLD_THREADS:-1} new_threads=${NEW_THREADS:-1}
for t in "$old_threads" "$new_threads"; do
  [[ $t =~ ^[12]$ ]] || { echo "$0: OLD_THREADS and NEW_THREADS must be 1 or 2, not '$t'" >&2; exit 2; }
done
for b in "$old" "$new"; do [ -x "$b" ] || { echo "$0: $b is not an executable" >&2; exit 2; }; done
[[ $bound =~ ^[0-9]+$ ]] && [ "$bound" -ge 1024 ] && [ "$bound" -le 4294967296 ] ||
  { echo "$0: BOUND must be an integer in 1024..=2^32, not '$bound'" >&2; exit 2; }
[[ $rounds =~ ^[0-9]+$ ]] && [ "$rounds" -ge 1 ] && [ "$rounds" -le 20 ] ||
  { echo "$0: ROUNDS must be 1..=20, not '$rounds'" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "# octal side by side, bound $bound, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "# old $old ($old_threads threads), new $new ($new_threads threads); one build at a time"
printf '%-8s %5s %-4s %9s %9s %9s\n' code round bin cpu_s wall_s rss_KiB
payload_bytes=$(( 2 * (bound + 1) ))
for code in "$@"; do
  printf '[octal]\ngames = ["%s"]\nbound = %s\n' "$code" "$bound" > "$work/c.toml"
  for r in $(seq 1 "$rounds"); do
    for which in old new; do
      bin=$old threads=$old_threads
      [ "$which" = new ] && bin=$new threads=$new_threads
      rm -rf "$work/$which"
      /usr/bin/time -f '%U %S %e %M' -o "$work/time" \
        "$bin" build --config "$work/c.toml" --data "$work/$which" --threads "$threads" > /dev/null 2>&1
      read -r user sys wall rss < "$work/time"
      printf '%-8s %5s %-4s %9.2f %9.2f %9s\n' "$code" "$r" "$which" "$(echo "$user + $sys" | bc)" "$wall" "$rss"
    done
    # Values: the payload starts at 4096 (nimrod info: "payload N bytes at 4096").
    for which in old new; do
      "$new" info "$work/$which/octal/$code.nmt" | grep -q "payload    $payload_bytes bytes at 4096" || {
        echo "$0: $code ($which): not a full table of $payload_bytes bytes at 4096 (a period ended it early?)" >&2; exit 1; }
    done
    if [ "$old" -ef "$new" ]; then
      # One binary: its statistics too, and so every byte, must match.
      if cmp -s "$work/old/octal/$code.nmt" "$work/new/octal/$code.nmt"; then
        echo "$code: the same file, byte for byte"
      else
        echo "$code: FILES DIFFER" >&2; exit 1
      fi
    elif cmp -s -n "$payload_bytes" -i 4096:4096 "$work/old/octal/$code.nmt" "$work/new/octal/$code.nmt"; then
      echo "$code: the same $((bound + 1)) values"
    else
      echo "$code: VALUES DIFFER" >&2; exit 1
    fi
  done
done
