#!/usr/bin/env bash
# The record runs of issue 60, started or resumed in the background so that
# they outlive the shell (docs/grundy.md "Record scale", docs/octal.md):
#
#   scripts/longrun.sh start RUN [THREADS]   start, or resume from the last save
#   scripts/longrun.sh status                each run: process, last progress, last save
#                                            (and what that save holds), CPU and memory
#   scripts/longrun.sh sample PID            (started by start) a line a minute of PID's
#                                            CPU, wall and RSS, to RUN/usage.log
#   scripts/longrun.sh stop RUN              SIGTERM (the last save stays; start resumes it)
#   scripts/longrun.sh keep RUN PID          (started by start for grundy35) while PID lives,
#                                            copies each new save to values.nmt.extend, the
#                                            state a build to a larger bound goes on from
#                                            (the run's binary predates keeping it itself)
#   scripts/longrun.sh after RUN NEXT [THREADS]
#                                            in the background: once RUN's process has
#                                            ended with its table written, start NEXT
#                                            (nothing if RUN stopped unfinished); the
#                                            waiter logs to $LONGRUN/NEXT.after.log
#
# RUN is grundy35 (config/record.toml, grundy/values to 2^35), octal06
# (config/big.toml, octal/0.6 to 2^32) or grundy36 (config/record36.toml:
# 2^36 in grundy35's data directory, extending its finished table from the
# state kept beside it; its first start needs a binary that extends,
# target/release/nimrod of 2026-12-06 or later). Each run lives in $LONGRUN/RUN
# (default /root/longrun): data/, run.log, and nimrod.bin, a copy of
# target/release/nimrod made when the run is first started. A resume uses
# that copy, never a newer build: a checkpoint another solver version
# refuses makes the build start over from heap 0. The run saves every 15
# minutes (NIMROD_CHECKPOINT_MINUTES) and runs at nice 19 in its own
# autogroup (setsid puts it in a new one at nice 0, which would not yield
# to other work; the script sets it to 19). Run from the repository root.
set -euo pipefail
root=${LONGRUN:-/root/longrun}

config_of() {
    case $1 in
        grundy35) echo "config/record.toml grundy/values" ;;
        octal06) echo "config/big.toml octal/0.6" ;;
        grundy36) echo "config/record36.toml grundy/values" ;;
        *) echo "unknown run '$1' (grundy35, octal06 or grundy36)" >&2; exit 2 ;;
    esac
}

pid_of() { pgrep -f "$root/$1/nimrod.bin build" || true; }

# The finished table of a run (written only when its build completes).
table_of() {
    case $1 in
        grundy35 | grundy36) echo "$root/$1/data/grundy/values.nmt" ;;
        octal06) echo "$root/$1/data/octal/0.6.nmt" ;;
    esac
}

case ${1:-} in
    start)
        run=${2:?start needs a run: grundy35, octal06 or grundy36}
        threads=${3:-1}
        [[ $threads =~ ^[12]$ ]] || { echo "THREADS must be 1 or 2 (the solves use at most two)" >&2; exit 2; }
        spec=$(config_of "$run")
        config=${spec% *} only=${spec#* }
        dir=$root/$run
        if [[ -n $(pid_of "$run") ]]; then
            echo "$run is already running (pid $(pid_of "$run"))" >&2
            exit 1
        fi
        if [[ $run == grundy36 && ! -e $dir/data ]]; then
            # The 2^35 run's directory: its table, and the state kept beside it.
            mkdir -p "$dir" && ln -s "$root/grundy35/data" "$dir/data"
        fi
        mkdir -p "$dir/data"
        if [[ ! -x $dir/nimrod.bin ]]; then
            [[ -x target/release/nimrod ]] || cargo build --release
            cp target/release/nimrod "$dir/nimrod.bin"
            git rev-parse HEAD > "$dir/BUILD"
        fi
        if [[ $run == grundy36 && -f $dir/data/grundy/values.nmt && ! -f $dir/data/grundy/values.nmt.partial ]] &&
            ! "$dir/nimrod.bin" info "$dir/data/grundy/values.nmt.extend" > /dev/null 2>&1; then
            echo "grundy36: $dir/nimrod.bin cannot read the kept state $dir/data/grundy/values.nmt.extend" >&2
            echo "  (missing, or a binary that does not extend tables: it would start 2^36 from heap 0)" >&2
            exit 1
        fi
        echo "== $(date -u '+%F %T') start: threads $threads, binary of $(cat "$dir/BUILD" 2>/dev/null || echo '?')" >> "$dir/run.log"
        NIMROD_CHECKPOINT_MINUTES=${NIMROD_CHECKPOINT_MINUTES:-15} setsid nohup nice -n 19 \
            "$dir/nimrod.bin" build --config "$config" --data "$dir/data" --only "$only" \
            --threads "$threads" >> "$dir/run.log" 2>&1 < /dev/null &
        sleep 2
        pid=$(pid_of "$run")
        [[ -n $pid ]] || { echo "$run did not start:" >&2; tail -n 5 "$dir/run.log" >&2; exit 1; }
        echo 19 > "/proc/$pid/autogroup" 2>/dev/null || echo "note: could not set the autogroup's nice" >&2
        setsid nohup bash "$0" sample "$pid" >> "$dir/usage.log" 2>&1 < /dev/null &
        if [[ $run == grundy35 ]]; then
            setsid nohup bash "$0" keep "$run" "$pid" >> "$dir/keep.log" 2>&1 < /dev/null &
        fi
        echo "$run started: pid $pid, log $dir/run.log, usage $dir/usage.log"
        ;;
    sample)
        # Every minute while PID lives: its CPU (all threads), wall, RSS
        # and peak RSS, one line each. A session's end kills the run
        # without a word, so /usr/bin/time would report nothing; the last
        # line of each start (within a minute of its end) is what it used.
        pid=${2:?sample needs a pid}
        tick=$(getconf CLK_TCK)
        boot=$(awk '/^btime/ { print $2 }' /proc/stat)
        while [[ -r /proc/$pid/stat ]]; do
            line=$(awk -v tick="$tick" -v boot="$boot" -v now="$(date +%s)" '
                FNR == 1 && FILENAME ~ /stat$/ { sub(/^.*\) /, ""); start = boot + int($20 / tick);
                    cpu = ($12 + $13) / tick }
                /^VmRSS:/ { rss = $2 / 1024 } /^VmHWM:/ { hwm = $2 / 1024 }
                END { printf "start %d cpu_s %.1f wall_s %d rss_mib %d hwm_mib %d", start, cpu, now - start, rss, hwm }
            ' "/proc/$pid/stat" "/proc/$pid/status" 2>/dev/null) || break
            echo "$(date -u +%FT%TZ) pid $pid $line"
            sleep 60
        done
        ;;
    after)
        run=${2:?after needs a run to wait for} next=${3:?after needs the run to start next}
        threads=${4:-1}
        config_of "$run" > /dev/null
        config_of "$next" > /dev/null
        [[ $threads =~ ^[12]$ ]] || { echo "THREADS must be 1 or 2" >&2; exit 2; }
        [[ $run != "$next" ]] || { echo "a run cannot wait for itself" >&2; exit 2; }
        setsid nohup bash "$0" wait-then "$run" "$next" "$threads" >> "$root/$next.after.log" 2>&1 < /dev/null &
        echo "$next starts on $threads thread(s) once $run has written $(table_of "$run") (log $root/$next.after.log)"
        ;;
    wait-then)
        run=$2 next=$3 threads=$4
        echo "$(date -u +%FT%TZ) waiting for $run to finish, then $next"
        while [[ -n $(pid_of "$run") ]]; do sleep 20; done
        if [[ -f $(table_of "$run") ]]; then
            echo "$(date -u +%FT%TZ) $run finished: starting $next"
            bash "$0" start "$next" "$threads"
        else
            echo "$(date -u +%FT%TZ) $run stopped without its table: $next not started"
        fi
        ;;
    keep)
        # A copy, made whole under another name and renamed into place, of
        # each save newer than the last copy: the finished table's build
        # removes its checkpoint, and the copy stays beside the table.
        run=${2:?keep needs a run} pid=${3:?keep needs a pid}
        ck=$root/$run/data/grundy/values.nmt.checkpoint
        kept=$root/$run/data/grundy/values.nmt.extend
        while [[ -r /proc/$pid/stat ]]; do
            if [[ -f $ck && ( ! -f $kept || $ck -nt $kept ) ]]; then
                if cp -p "$ck" "$root/$run/extend.copying" 2>/dev/null; then
                    mv "$root/$run/extend.copying" "$kept"
                    echo "$(date -u +%FT%TZ) kept the save of $(date -u -r "$kept" +%FT%TZ) as $kept"
                fi
            fi
            sleep 30
        done
        ;;
    stop)
        run=${2:?stop needs a run}
        config_of "$run" > /dev/null
        pid=$(pid_of "$run")
        [[ -n $pid ]] || { echo "$run is not running" >&2; exit 1; }
        kill -TERM "$pid"
        echo "$run: SIGTERM sent to $pid"
        ;;
    status)
        for run in grundy35 octal06 grundy36; do
            dir=$root/$run
            [[ -d $dir ]] || continue
            pid=$(pid_of "$run")
            if [[ -n $pid ]]; then echo "== $run: running, pid $pid"; else echo "== $run: not running"; fi
            grep "state saved" "$dir/run.log" 2>/dev/null | tail -n 1 || true
            grep -E "values [0-9]+ of" "$dir/run.log" 2>/dev/null | tail -n 1 || true
            # The rate over the last ten minutes of progress lines (of one
            # resume: the clock restarts at each), and what is left at it.
            grep -E "values [0-9]+ of" "$dir/run.log" 2>/dev/null | tail -n 21 |
                sed -E 's/^\[ *([0-9.]+)s\].*values ([0-9]+) of ([0-9]+).*/\1 \2 \3/' |
                awk '$1 < t { t0 = 0 } !t0 { t0 = $1; n0 = $2 } { t = $1; n = $2; m = $3 }
                     END { if (t > t0 && n > n0) { r = (t - t0) / (n - n0);
                         printf "  rate       %.2f µs of wall a heap over the last %.0f s; at that rate %.1f h to go\n",
                             r * 1e6, t - t0, (m - n) * r / 3600 } }' || true
            # CPU and memory: the last sample of each start (usage.log).
            if [[ -f $dir/usage.log ]]; then
                awk '$4 == "start" { last[$5] = $0; order[$5] = NR }
                    END { for (s in last) { split(last[s], f, " "); cpu += f[7]; wall += f[9];
                              if (f[13] > hwm) hwm = f[13]; n++;
                              if (order[s] > latest) { latest = order[s]; now = last[s] } }
                          if (n) { split(now, f, " ");
                              printf "  usage      this start %.0f CPU-s in %d s of wall (%.2f cores), peak RSS %d MiB\n",
                                  f[7], f[9], f[9] ? f[7] / f[9] : 0, f[13];
                              printf "             %d starts sampled: %.0f CPU-s in %d s of wall, peak RSS %d MiB\n",
                                  n, cpu, wall, hwm } }' "$dir/usage.log"
            fi
            # What the last save holds (nimrod info reads Grundy and octal states).
            case $run in
                grundy35 | grundy36) ck=$dir/data/grundy/values.nmt.checkpoint ;;
                octal06) ck=$dir/data/octal/0.6.nmt.checkpoint ;;
            esac
            if [[ -f $ck && -x target/release/nimrod ]]; then
                target/release/nimrod info "$ck" | sed -n '3,8p' || true
            fi
        done
        ;;
    *)
        sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
esac
