#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for nimrod's tests and for
# trying `nimrod slurm` without a real cluster. Debian, as root, no systemd
# needed: the daemons are started by hand and stopped by their pids.
#
#   scripts/slurm/local-cluster.sh start   # install if needed, start, wait until ready
#   scripts/slurm/local-cluster.sh stop    # stop the daemons it started (refused while
#                                          # a test holds the cluster; --force stops anyway)
#   scripts/slurm/local-cluster.sh status
#   scripts/slurm/local-cluster.sh hold    # hold every queued job, requeueing running ones
#   scripts/slurm/local-cluster.sh release # release the jobs `hold` held
#
# What it sets up: munge (authentication) started as user munge; a
# slurm.conf for this host ($(hostname -s)) with every core and 90% of the
# memory, cons_tres selecting cores and memory (so --mem is enforced),
# cgroup process tracking, no accounting daemon; slurmctld and slurmd run
# as root. The state lives under $NIMROD_SLURM_STATE (default
# /var/lib/nimrod-slurm), the pids in its run/ folder.
set -euo pipefail

STATE=${NIMROD_SLURM_STATE:-/var/lib/nimrod-slurm}
RUN=$STATE/run
CONF_DIR=/etc/slurm

die() { echo "local-cluster: $*" >&2; exit 1; }

need_root() { [ "$(id -u)" = 0 ] || die "must run as root (it installs packages and starts daemons)"; }

install_packages() {
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null; then
        return
    fi
    echo "local-cluster: installing slurm-wlm and munge"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge >/dev/null \
        || { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge >/dev/null; } \
        || die "cannot install slurm-wlm and munge with apt-get"
}

alive() { [ -f "$RUN/$1.pid" ] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }

start_munge() {
    if alive munged; then return; fi
    if [ ! -s /etc/munge/munge.key ]; then
        mkdir -p /etc/munge
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    fi
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
    mkdir -p /run/munge /var/lib/munge /var/log/munge
    chown munge:munge /run/munge /var/lib/munge /var/log/munge
    chmod 755 /run/munge
    runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/munged.pid --force
    for _ in $(seq 50); do [ -s /run/munge/munged.pid ] && break; sleep 0.1; done
    cp /run/munge/munged.pid "$RUN/munged.pid"
    munge -n </dev/null | unmunge >/dev/null || die "munge does not work (see /var/log/munge/munged.log)"
}

write_config() {
    local host cpus mem_mb
    host=$(hostname -s)
    cpus=$(nproc)
    mem_mb=$(awk '/MemTotal/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
    mkdir -p "$CONF_DIR" "$STATE/ctld" "$STATE/d" "$STATE/log"
    cat >"$CONF_DIR/slurm.conf" <<EOF
# Written by nimrod's scripts/slurm/local-cluster.sh: one node, this host.
ClusterName=nimrod-local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/d
SlurmctldPidFile=$RUN/slurmctld.pid
SlurmdPidFile=$RUN/slurmd.pid
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd.log
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ProctrackType=proctrack/cgroup
TaskPlugin=task/cgroup
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=defer_batch=0
MinJobAge=300
NodeName=$host CPUs=$cpus Sockets=1 CoresPerSocket=$cpus ThreadsPerCore=1 RealMemory=$mem_mb State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    cat >"$CONF_DIR/cgroup.conf" <<EOF
CgroupPlugin=autodetect
ConstrainCores=yes
ConstrainRAMSpace=yes
EOF
}

start() {
    need_root
    mkdir -p "$RUN"
    install_packages
    start_munge
    if alive slurmctld && alive slurmd; then
        echo "local-cluster: already running"
        return
    fi
    write_config
    alive slurmctld || slurmctld
    alive slurmd || slurmd
    for _ in $(seq 120); do
        if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
            echo "local-cluster: ready ($(sinfo -h -o '%N %c CPUs %m MB %T'))"
            return
        fi
        sleep 0.5
    done
    die "the node did not come up in 60 s; see $STATE/log/slurmctld.log and $STATE/log/slurmd.log"
}

stop() {
    # A test of nimrod's holds $STATE/in-use.lock (an flock) while it uses
    # the cluster: stopping under it made one test fail and one hang.
    if [ "${1:-}" != "--force" ] && [ -e "$STATE/in-use.lock" ] \
        && ! flock -n "$STATE/in-use.lock" true; then
        die "a test is using the cluster ($STATE/in-use.lock is locked); stop it later, or: $0 stop --force"
    fi
    for d in slurmd slurmctld munged; do
        if alive "$d"; then
            kill "$(cat "$RUN/$d.pid")" || true
            for _ in $(seq 50); do alive "$d" || break; sleep 0.1; done
        fi
        rm -f "$RUN/$d.pid"
    done
    echo "local-cluster: stopped"
}

status() {
    for d in munged slurmctld slurmd; do
        if alive "$d"; then echo "$d: running (pid $(cat "$RUN/$d.pid"))"; else echo "$d: not running"; fi
    done
    if alive slurmctld; then sinfo; fi
}

# slurmctld keeps its queue across a stop (StateSaveLocation), and a job
# whose node went away is requeued when the node comes back. A cluster
# started for a test run can so inherit a long build that takes the whole
# node: one CI run waited 1500 s behind a 21 GB chess task. `hold` parks
# every job in the queue (running ones go back to the queue, held; the
# build resumes from its saved state when released) and writes their ids
# to $STATE/held; `release` lets exactly those go again.
hold() {
    alive slurmctld || die "slurmctld is not running"
    : >"$STATE/held"
    squeue -h -o '%A %T' | while read -r id state; do
        case "$state" in
            RUNNING|CONFIGURING|COMPLETING|SUSPENDED) scontrol requeuehold "$id" || continue ;;
            *) scontrol hold "$id" || continue ;;
        esac
        echo "$id" >>"$STATE/held"
        echo "local-cluster: held job $id ($state), queued before this start"
    done
}

release() {
    [ -s "$STATE/held" ] || return 0
    alive slurmctld || die "slurmctld is not running; $STATE/held lists the jobs to release"
    while read -r id; do
        scontrol release "$id" 2>/dev/null && echo "local-cluster: released job $id"
    done <"$STATE/held"
    rm -f "$STATE/held"
}

case "${1:-}" in
    start) start ;;
    hold) hold ;;
    release) release ;;
    stop) stop "${2:-}" ;;
    status) status ;;
    *) echo "usage: $0 start|stop [--force]|status|hold|release" >&2; exit 2 ;;
esac
