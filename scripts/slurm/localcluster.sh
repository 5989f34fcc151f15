#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A one-node Slurm cluster on this machine, everything under one directory:
# munged, slurmctld and slurmd on localhost, no cgroups
# (ProctrackType=proctrack/linuxproc, TaskPlugin=task/none), no accounting,
# no GPUs. For trying scripts/slurm/ and for the test tests/e2e/test_slurm.c.
# Needs root (slurmd runs jobs as their users) and Debian's slurm-wlm and
# munge packages.
#
#   scripts/slurm/localcluster.sh start DIR   # writes DIR/slurm.conf; prints `export SLURM_CONF=...`
#   SLURM_CONF=DIR/slurm.conf sbatch ...      # use it
#   scripts/slurm/localcluster.sh stop DIR    # stops the three daemons by their pids
#
# Ports: BR_SLURM_PORT (slurmctld) and BR_SLURM_PORT + 1 (slurmd); default
# 16817 + (this shell's pid mod 1000) * 2, so that two clusters can coexist.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

stop() {
  local rc=0
  for name in slurmd slurmctld munged; do
    local pidfile="$dir/$name.pid"
    [ -s "$pidfile" ] || continue
    local pid
    pid=$(cat "$pidfile")
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" || rc=1
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" || rc=1; fi
    fi
    rm -f "$pidfile"
  done
  return $rc
}

# Wait until `cmd...` succeeds, at most $1 seconds.
wait_for() {
  local limit=$1
  shift
  for _ in $(seq 1 $((limit * 5))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  return 1
}

start() {
  [ "$(id -u)" -eq 0 ] || { echo "$0: needs root" >&2; exit 77; }
  for tool in munged slurmctld slurmd sbatch sinfo; do
    command -v "$tool" >/dev/null || { echo "$0: $tool not found (apt-get install slurm-wlm munge)" >&2; exit 77; }
  done
  local port=${BR_SLURM_PORT:-$((16817 + ($$ % 1000) * 2))}
  local host
  host=$(hostname -s)
  mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
  chmod 700 "$dir/munge"
  # munge: its own key and socket, run as root (--force).
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1 count=1024 status=none
  chmod 400 "$dir/munge/munge.key"
  munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed"
  wait_for 10 test -S "$dir/munge/munge.socket" || { echo "$0: munged did not start ($dir/munged.log)" >&2; stop; exit 1; }
  # The node as slurmd sees it (CPUs, sockets, memory), less a little memory.
  local node
  node=$(slurmd -C | head -1)
  cat >"$dir/slurm.conf" <<EOF
ClusterName=brlocal
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SlurmctldTimeout=30
SlurmdTimeout=30
KillWait=5
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF="$dir/slurm.conf"
  slurmctld -f "$SLURM_CONF" -i
  slurmd -f "$SLURM_CONF"
  if ! wait_for 60 sh -c "sinfo -h -o %T | grep -qE '^(idle|mixed|allocated)'"; then
    echo "$0: the node did not come up; $dir/slurmctld.log and $dir/slurmd.log say why" >&2
    sinfo >&2 || true
    stop
    exit 1
  fi
  echo "export SLURM_CONF=$SLURM_CONF"
}

case $cmd in
start) start ;;
stop) stop ;;
*) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
