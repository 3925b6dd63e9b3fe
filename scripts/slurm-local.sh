#!/usr/bin/env bash
# A single-node Slurm on this machine, for trying `scripts/sweep.py --slurm` and for the test
# suite (sweep.slurm): Debian's slurm-wlm and munge, installed if missing; munged, slurmctld and
# slurmd started as root; the node is this host with its cores and memory, partition "debug".
# Configuration, state and logs live in build-deps/slurm/ (SLURM_CONF points there; nothing is
# written to /etc/slurm). Idempotent: start does only what is not running.
#
#   scripts/slurm-local.sh start     # install if missing, write slurm.conf, start the daemons, wait for the node
#   scripts/slurm-local.sh stop      # stop the daemons this script started
#   scripts/slurm-local.sh status    # sinfo, or "not running"
#   scripts/slurm-local.sh env       # the export line for Slurm's commands: eval "$(scripts/slurm-local.sh env)"
#
# Exit status: 0 done; 77 the packages cannot be installed (no package mirror: the test suite
# skips its Slurm test); 1 anything else (the daemons would not start: see build-deps/slurm/*.log).
# Leaves out accounting (slurmdbd), cgroups and more than one node.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

dir="$PWD/build-deps/slurm"
conf="$dir/slurm.conf"
node="$(hostname -s)"
export SLURM_CONF="$conf"

say() { echo "slurm-local: $*" >&2; }

install_packages() {
  local missing=()
  for p in slurm-wlm munge; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  say "installing ${missing[*]}"
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
         --no-install-recommends "${missing[@]}" >/dev/null; }; then
    say "cannot install ${missing[*]}"
    exit 77
  fi
}

write_conf() {
  mkdir -p "$dir/state" "$dir/spool"
  local cpus mem
  cpus=$(nproc)
  mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024 ))
  cat >"$conf.new" <<EOF
# Written by scripts/slurm-local.sh: a single-node Slurm for sweeps and tests.
ClusterName=ssdvp-local
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=60
KillWait=5
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  if ! cmp -s "$conf.new" "$conf" 2>/dev/null; then
    mv "$conf.new" "$conf"
    return 0
  fi
  rm -f "$conf.new"
}

running() {  # pid file -> running?
  [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

start() {
  install_packages
  write_conf
  if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
    install -d -o munge -g munge -m 0755 /run/munge
    install -d -o munge -g munge -m 0700 /var/log/munge /var/lib/munge
    [ -f /etc/munge/munge.key ] || { mungekey --create 2>/dev/null || dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=128 status=none; }
    chown munge:munge /etc/munge/munge.key
    chmod 0400 /etc/munge/munge.key
    runuser -u munge -- munged
    touch "$dir/started-munged"
    munge -n </dev/null | unmunge >/dev/null || { say "munged does not answer"; exit 1; }
  fi
  running "$dir/slurmctld.pid" || slurmctld -f "$conf"
  running "$dir/slurmd.pid" || slurmd -f "$conf"
  local state=""
  for _ in $(seq 60); do
    state=$(sinfo -h -N -n "$node" -o %T 2>/dev/null || true)
    case "$state" in
      idle|mixed|allocated) say "up: node $node $state, partition debug (SLURM_CONF=$conf)"; return 0 ;;
      down*|drain*) scontrol update nodename="$node" state=resume 2>/dev/null || true ;;
    esac
    sleep 1
  done
  say "the node did not come up (state '${state:-none}'); logs: $dir/slurmctld.log $dir/slurmd.log"
  tail -5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 2>/dev/null || true
  exit 1
}

stop_pid() {  # pid file, name
  if running "$1"; then
    kill "$(cat "$1")"
    for _ in $(seq 20); do running "$1" || break; sleep 0.25; done
    say "stopped $2"
  fi
}

stop() {
  [ -f "$conf" ] && scancel --user=root 2>/dev/null || true
  stop_pid "$dir/slurmd.pid" slurmd
  stop_pid "$dir/slurmctld.pid" slurmctld
  if [ -f "$dir/started-munged" ]; then
    stop_pid /run/munge/munged.pid munged
    rm -f "$dir/started-munged"
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status)
    if [ -f "$conf" ] && running "$dir/slurmctld.pid"; then sinfo; else echo "slurm-local: not running"; fi ;;
  env) echo "export SLURM_CONF=$conf" ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
