#!/usr/bin/env python3
"""Runs one command and prints what it cost, at microsecond resolution:

    scripts/lib/measure.py OUT_FILE -- COMMAND ARGS...

OUT_FILE gets one line "wall_s cpu_s user_s sys_s max_rss_kib exit_code":
CPU is user + system of the command and every child it waited for, from
getrusage through os.wait4 (GNU time's %U/%S truncate to hundredths of a
second and lost 25-45% of a ~10 ms lonelybot deal). The command is
started with posix_spawn, so it is charged little beyond its own work
(/bin/true: about 0.5 ms). The command's own
exit code is this script's exit code, so a caller under `set -e` stops on
a failed run instead of timing it.
"""
import os
import sys
import time


def main() -> int:
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        print("usage: measure.py OUT_FILE -- COMMAND ARGS...", file=sys.stderr)
        return 2
    out, cmd = sys.argv[1], sys.argv[3:]
    start = time.perf_counter()
    # posix_spawn (vfork and exec), not fork: a fork copies this Python
    # process's page tables, and the child was charged about 2.9 ms of
    # system CPU for /bin/true (0.5 ms spawned), a quarter of a lonelybot
    # deal. The max RSS has this process's size (about 13 MiB) as a floor.
    try:
        pid = os.posix_spawnp(cmd[0], cmd, os.environ)
    except OSError as e:
        print(f"measure.py: cannot run {cmd[0]}: {e}", file=sys.stderr)
        return 127
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    user, system = usage.ru_utime, usage.ru_stime
    with open(out, "w") as f:
        f.write(f"{wall:.6f} {user + system:.6f} {user:.6f} {system:.6f} {usage.ru_maxrss} {code}\n")
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main())
