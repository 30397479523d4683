#!/usr/bin/env bash
# A single-node Slurm cluster on localhost (Debian 12's Slurm 22.05 and munge), for trying
# `ddalab slurm` and for its CTest test: no systemd, no cgroups, no accounting, its own munge
# key and ports, everything under one folder.
#
#   scripts/slurm-local.sh start    start munged, slurmctld and slurmd; wait until the node is
#                                   idle; print the SLURM_CONF to export
#   scripts/slurm-local.sh status   whether it runs (exit 0) and the node's state
#   scripts/slurm-local.sh stop     stop what start started (by the PIDs it recorded)
#
# DDALAB_SLURM_DIR (default /tmp/ddalab-slurm) holds its configuration, keys, spool, logs and
# PIDs; DDALAB_SLURM_PORT (default 16817) is slurmctld's port, slurmd takes the next one.
# Needs root (slurmd runs jobs as their users) and the packages slurmctld slurmd slurm-client
# munge (scripts/install-deps.sh installs them). Exit code 77 means "cannot start here" (not
# root, a package missing, a port taken), which the CTest test reports as skipped.
set -uo pipefail
dir=${DDALAB_SLURM_DIR:-/tmp/ddalab-slurm}
port=${DDALAB_SLURM_PORT:-16817}
node=ddalab-node
conf="$dir/slurm.conf"
export SLURM_CONF="$conf"

cannot() { echo "slurm-local: cannot start: $*" >&2; exit 77; }

# pid_of NAME: the recorded PID of NAME if that process still runs.
pid_of() {
  local pid
  pid=$(cat "$dir/$1.pid" 2>/dev/null) || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

port_free() {  # port_free PORT: nobody listens on it
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

write_config() {
  local cpus memory
  cpus=$(nproc)
  memory=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2))
  mkdir -p "$dir/munge" "$dir/spool/ctld" "$dir/spool/d" "$dir/log"
  chmod 755 "$dir" "$dir/munge"  # munged refuses a socket folder others may write
  cat >"$conf" <<EOF
ClusterName=ddalab
SlurmctldHost=$(hostname)(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/spool/ctld
SlurmdSpoolDir=$dir/spool/d
SlurmctldPidFile=$dir/slurmctld.daemon.pid
SlurmdPidFile=$dir/slurmd.daemon.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
SlurmdParameters=config_overrides
MailProg=/bin/true
ReturnToService=2
SchedulerParameters=batch_sched_delay=0,sched_interval=2
MpiDefault=none
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$(hostname) CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

start() {
  if pid_of slurmctld >/dev/null; then
    echo "slurm-local: already running; export SLURM_CONF=$conf"
    return 0
  fi
  [ "$(id -u)" = 0 ] || cannot "needs root (slurmd runs each job as its user)"
  for tool in munged slurmctld slurmd sinfo sbatch; do
    command -v "$tool" >/dev/null || cannot "$tool is missing (apt-get install slurmctld slurmd slurm-client munge)"
  done
  for p in "$port" "$((port + 1))"; do port_free "$p" || cannot "port $p is taken (set DDALAB_SLURM_PORT)"; done
  write_config
  [ -f "$dir/munge/munge.key" ] || { dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null &&
    chmod 400 "$dir/munge/munge.key"; }
  munged -F --force --key-file "$dir/munge/munge.key" --socket "$dir/munge/munge.socket" \
    --pid-file "$dir/munge/munged.daemon.pid" --log-file "$dir/log/munged.log" \
    --seed-file "$dir/munge/munge.seed" >>"$dir/log/munged.out" 2>&1 &
  echo $! >"$dir/munged.pid"
  for _ in $(seq 50); do [ -S "$dir/munge/munge.socket" ] && break; sleep 0.1; done
  [ -S "$dir/munge/munge.socket" ] || { stop; cannot "munged did not start (see $dir/log/munged.log)"; }
  slurmctld -D -f "$conf" >>"$dir/log/slurmctld.out" 2>&1 &
  echo $! >"$dir/slurmctld.pid"
  slurmd -D -N "$node" -f "$conf" >>"$dir/log/slurmd.out" 2>&1 &
  echo $! >"$dir/slurmd.pid"
  for _ in $(seq 150); do
    if [ "$(sinfo -h -n "$node" -o %t 2>/dev/null)" = idle ]; then
      echo "slurm-local: node $node idle; export SLURM_CONF=$conf"
      return 0
    fi
    sleep 0.2
  done
  echo "slurm-local: the node did not become idle; logs in $dir/log" >&2
  tail -5 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 2>/dev/null
  stop
  exit 1
}

stop() {
  local name pid
  for name in slurmd slurmctld munged; do
    pid=$(pid_of "$name") || continue
    kill "$pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
    rm -f "$dir/$name.pid"
  done
  echo "slurm-local: stopped"
}

status() {
  if pid_of slurmctld >/dev/null && pid_of slurmd >/dev/null; then
    echo "slurm-local: running (SLURM_CONF=$conf); node $node $(sinfo -h -n "$node" -o %t 2>/dev/null)"
    return 0
  fi
  echo "slurm-local: not running"
  return 1
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
