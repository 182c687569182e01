#!/usr/bin/env bash
# A private single-node Slurm cluster for the course's tests: munged, slurmctld and
# slurmd from Debian's packages (slurmctld slurmd slurm-client munge), started by
# hand without systemd and without cgroups (proctrack/linuxproc, task/none), with
# their own munge key and socket, ports, state, spool, logs and pid files all in one
# folder. The node is this machine, as `slurmd -C` sees it.
#
#   tests/slurm/cluster.sh start DIR     start it; DIR/env sets SLURM_CONF for clients
#   tests/slurm/cluster.sh stop DIR      cancel every job, stop every daemon, check none is left
#
# Exit status of start: 0 when the node is idle and takes jobs; 77 when this machine
# cannot run it (not root, packages missing, a daemon that cannot start here), with
# the reason; with COURSE_SLURM_REQUIRED=1 (CI) that last case is an error (1) instead.
# Root is needed: slurmd starts each job as the user who submitted it.
set -euo pipefail

usage() {
  echo "usage: tests/slurm/cluster.sh start|stop DIR" >&2
  exit 2
}
(($# == 2)) || usage
action=$1
dir=$2

skip() {
  echo "slurm test cluster: SKIPPED: $*" >&2
  exit 77
}

# A daemon that does not start: a skip where Slurm cannot run here, an error in CI.
cannot_start() {
  echo "slurm test cluster: $*" >&2
  local log
  for log in "$dir"/log/*.log "$dir"/munge/munged.log; do
    [[ -f $log ]] || continue
    echo "--- last lines of $log" >&2
    tail -n 20 "$log" >&2
  done
  stop_cluster >&2 || true
  if [[ ${COURSE_SLURM_REQUIRED:-0} == 1 ]]; then
    exit 1
  fi
  exit 77
}

pid_of() {
  local file=$dir/$1
  [[ -s $file ]] && cat "$file"
}

# Waits up to SECONDS for COMMAND to succeed.
wait_until() {
  local seconds=$1
  shift
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || return 1
    sleep 0.5
  done
}

# Two free TCP ports, distinct: both sockets are held while the kernel picks them (two
# separate picks could return the same port).
free_ports() {
  python3 -c 'import socket
held = [socket.socket() for _ in range(2)]
for s in held:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in held))'
}

start_cluster() {
  ((EUID == 0)) || skip "needs root (slurmd starts each job as the user who submitted it)"
  local command missing=()
  for command in munged slurmctld slurmd sbatch squeue scontrol scancel python3; do
    command -v "$command" >/dev/null 2>&1 || missing+=("$command")
  done
  ((${#missing[@]} == 0)) ||
    skip "not installed: ${missing[*]} (Debian: apt-get install slurmctld slurmd slurm-client munge; .ci/run does it)"
  [[ ! -e $dir/slurm.conf ]] || { echo "slurm test cluster: $dir is already in use" >&2; exit 2; }

  mkdir -p "$dir"/{munge,state,log,spool/slurmd-localhost}
  dir=$(cd "$dir" && pwd)
  # munged refuses a socket that other users cannot reach.
  chmod 755 "$dir" "$dir/munge"
  local parent=$dir
  while [[ $parent != / ]]; do
    parent=$(dirname "$parent")
    [[ $(stat -c %A "$parent") == ?????????[xt] ]] ||
      cannot_start "munged needs every folder above its socket searchable by all users: chmod o+x $parent"
  done
  head -c 1024 /dev/urandom >"$dir/munge/munge.key"
  chmod 400 "$dir/munge/munge.key"
  munged --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
    --log-file="$dir/munge/munged.log" --pid-file="$dir/munged.pid" --seed-file="$dir/munge/munged.seed" ||
    cannot_start "munged does not start"

  # This machine as Slurm sees it; some memory left to the system.
  local node memory
  node=$(slurmd -C 2>/dev/null | head -n 1) || true
  [[ $node == NodeName=* ]] || cannot_start "slurmd -C does not describe this machine"
  memory=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$node")
  memory=$((memory > 2048 ? memory - 1024 : memory / 2))
  node=$(sed -e 's/^NodeName=[^ ]*/NodeName=localhost NodeAddr=127.0.0.1/' \
    -e "s/RealMemory=[0-9]*/RealMemory=$memory/" <<<"$node")

  local ctld_port slurmd_port
  read -r ctld_port slurmd_port <<<"$(free_ports)"
  [[ -n $slurmd_port ]] || cannot_start "no free TCP ports for slurmctld and slurmd"
  cat >"$dir/slurm.conf" <<EOF
# Written by tests/slurm/cluster.sh: a private single-node cluster for the tests.
ClusterName=coursetest
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/slurmd-%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
MailProg=/bin/true
# No systemd, no cgroups.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=60
InactiveLimit=0
KillWait=10
# Finished jobs stay visible to scontrol (exit codes) for the whole test.
MinJobAge=3600
$node State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  echo "export SLURM_CONF=$dir/slurm.conf" >"$dir/env"

  slurmctld -f "$SLURM_CONF" || cannot_start "slurmctld does not start"
  wait_until 30 scontrol ping || cannot_start "slurmctld does not answer (scontrol ping)"
  slurmd -f "$SLURM_CONF" -N localhost || cannot_start "slurmd does not start"
  node_idle() { [[ $(sinfo -h -n localhost -o %t) == idle ]]; }
  wait_until 60 node_idle || cannot_start "the node does not become idle: $(sinfo -h -N -o '%N %t %E' 2>&1)"
  echo "slurm test cluster: up in $dir ($(sed -n 's/.*\(CPUs=[0-9]*\).*/\1/p' <<<"$node"), RealMemory=$memory MB)"
}

stop_cluster() {
  [[ -d $dir ]] || return 0
  dir=$(cd "$dir" && pwd)
  export SLURM_CONF=$dir/slurm.conf
  local pids=() name pid
  for name in slurmd.pid slurmctld.pid; do
    pid=$(pid_of "$name") && pids+=("$pid")
  done
  if [[ -f $SLURM_CONF ]] && scontrol ping >/dev/null 2>&1; then
    # Jobs first, so that no job step outlives its daemons.
    local jobs
    jobs=$(squeue -h -o %A 2>/dev/null | sort -u | tr '\n' ' ')
    if [[ -n ${jobs// /} ]]; then
      # shellcheck disable=SC2086 # a list of job ids
      scancel $jobs 2>/dev/null || true
      queue_empty() { [[ -z $(squeue -h -o %A 2>/dev/null) ]]; }
      wait_until 60 queue_empty || echo "slurm test cluster: jobs still listed after 60 s: $jobs" >&2
    fi
    scontrol shutdown >/dev/null 2>&1 || true
  fi
  local alive
  gone() {
    local p
    for p in "${pids[@]}"; do
      kill -0 "$p" 2>/dev/null && return 1
    done
    return 0
  }
  if ((${#pids[@]})); then
    wait_until 30 gone || {
      for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
      wait_until 10 gone || for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    }
  fi
  if pid=$(pid_of munged.pid); then
    munged --stop --socket="$dir/munge/munge.socket" >/dev/null 2>&1 || kill -TERM "$pid" 2>/dev/null || true
    pids+=("$pid")
    wait_until 10 gone || kill -KILL "$pid" 2>/dev/null || true
  fi
  alive=()
  for pid in "${pids[@]}"; do
    kill -0 "$pid" 2>/dev/null && alive+=("$pid")
  done
  if ((${#alive[@]})); then
    echo "slurm test cluster: processes still running after stop: ${alive[*]}" >&2
    return 1
  fi
  rm -f "$dir"/{slurmd,slurmctld,munged}.pid
  echo "slurm test cluster: stopped ($dir)"
}

case $action in
  start) start_cluster ;;
  stop) stop_cluster ;;
  *) usage ;;
esac
