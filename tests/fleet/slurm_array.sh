#!/bin/sh
# fleet/slurm_array: README.md's Slurm array script, submitted with
# `sbatch --array=0-3 --wait` to a one-node Slurm cluster this test starts
# (munged, slurmctld and slurmd on localhost, their keys, state, spool and
# logs in its own folder, on free ports), then the README's merge step. Every
# process the cluster started is stopped at the end, also after a failure.
name=fleet/slurm_array
. "$(dirname "$0")/lib.sh"

need sbatch slurm-client "sbatch submits the README's array"
need slurmctld slurmctld "the cluster's controller"
need slurmd slurmd "the cluster's node daemon"
need munged munge "Slurm's authentication"
need python3 python3 "finds free ports"
need jq jq "reads trak-replay --json"
[ "$(id -u)" = 0 ] || {
  echo "$name: skipped: slurmd runs jobs as their submitter's user only as root (CI runs the tests as root)" >&2
  exit 77
}

setup_work
cluster="$work/cluster"
mkdir -p "$cluster/munge" "$cluster/state" "$cluster/spool"
# Given to every daemon and client of this cluster, never to this shell: each
# of its processes, the daemons, their slurmstepd and the jobs' processes,
# carries it in its environment, which is how the cleanup finds each one,
# and no process of anyone else.
conf="$cluster/slurm.conf"
slurm() { env SLURM_CONF="$conf" "$@"; }
pids=""

stop_cluster() {
  [ -n "${jobid:-}" ] && slurm scancel "$jobid" 2>/dev/null
  for p in $pids; do kill "$p" 2>/dev/null; done
  t=0
  while [ $t -lt 50 ]; do
    alive=""
    for p in $pids; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
    [ -z "$alive" ] && break
    sleep 0.1
    t=$((t + 1))
  done
  for p in $pids; do kill -9 "$p" 2>/dev/null; done
  # What the daemons left behind (slurmstepd, a job still running): by the
  # exact SLURM_CONF of this run.
  for p in $(cluster_processes); do kill -9 "$p" 2>/dev/null; done
}

cluster_processes() {
  for d in /proc/[0-9]*; do
    { tr '\0' '\n' <"$d/environ"; } 2>/dev/null | grep -qxF "SLURM_CONF=$conf" && echo "${d#/proc/}"
  done
}

finish() {
  rc=$?
  stop_cluster
  sleep 0.2
  left=$(cluster_processes)
  if [ -n "$left" ]; then
    echo "$name: processes of the cluster still running after it was stopped: $left" >&2
    [ $rc = 0 ] && rc=1
  fi
  if [ $rc != 0 ] && [ $rc != 77 ]; then
    for f in "$cluster"/*.log "$cluster/munge/munged.log" "$work"/warm-*.log; do
      [ -f "$f" ] && { echo "--- $f" >&2; tail -n 20 "$f" >&2; }
    done
  fi
  rm -rf "$work"
  exit $rc
}
trap finish EXIT
trap 'exit 1' INT TERM HUP

dd if=/dev/urandom of="$cluster/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$cluster/munge/munge.key"
chmod 700 "$cluster/munge"
slurm munged --foreground --force --key-file="$cluster/munge/munge.key" --socket="$cluster/munge/munge.socket" \
  --pid-file="$cluster/munge/munged.pid" --log-file="$cluster/munge/munged.log" \
  --seed-file="$cluster/munge/munged.seed" >"$cluster/munged.out" 2>&1 &
pids="$pids $!"

# Two free ports: another cluster on this machine (a second run of this
# test) must not meet this one.
set -- $(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
[ $# = 2 ] || fail "no free ports"
# proctrack/linuxproc and task/none: no cgroups needed. The scheduler runs
# every second, not every minute, and finished jobs stay known for 5 s, so
# that sbatch --wait polls every 2 s: the array runs in seconds.
cat >"$conf" <<EOC
ClusterName=trakfleet
SlurmctldHost=localhost
SlurmctldPort=$1
SlurmdPort=$2
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$cluster/munge/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/slurmctld.log
SlurmdLogFile=$cluster/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1
MinJobAge=5
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=30 State=UP
EOC

t=0
until [ -S "$cluster/munge/munge.socket" ]; do
  [ $t -lt 100 ] || fail "munged did not start: $(cat "$cluster/munged.out")"
  sleep 0.1
  t=$((t + 1))
done
slurm slurmctld -D -i >"$cluster/slurmctld.out" 2>&1 &
pids="$pids $!"
slurm slurmd -D -N localhost >"$cluster/slurmd.out" 2>&1 &
pids="$pids $!"
t=0
until slurm sinfo -h -N -o %T 2>/dev/null | grep -qx idle; do
  [ $t -lt 300 ] || fail "the node did not come up: $(slurm sinfo -N 2>&1)"
  sleep 0.1
  t=$((t + 1))
done

cd "$work" || exit 99
readme_block slurm-script >warm.sh
[ -s warm.sh ] || fail "README.md has no fleet:slurm-script block"
readme_block slurm-submit >submit.sh
grep -q '^sbatch --array=' submit.sh || fail "README.md's fleet:slurm-submit block submits no array"
# The README's array, made four tasks of one CPU for this machine (options
# on the command line win over the script's #SBATCH lines).
submit=$(sed -n 's/^sbatch --array=[^ ]* /sbatch --array=0-3 --cpus-per-task=1 --parsable /p' submit.sh)
[ -n "$submit" ] || fail "cannot read the sbatch line of fleet:slurm-submit"
# --parsable prints the job id first; --wait then waits for every task (for
# 4 minutes at most: a cluster that never runs them fails here, with its logs).
eval "slurm timeout 240 $submit" >sbatch.out 2>sbatch.err &
sbatch_pid=$!
while [ ! -s sbatch.out ] && kill -0 $sbatch_pid 2>/dev/null; do sleep 0.1; done
jobid=$(head -n 1 sbatch.out | cut -d';' -f1)
wait $sbatch_pid || fail "sbatch --wait failed: $(cat sbatch.err)"
for i in 0 1 2 3; do
  grep -q "^shard       $i/4 (SLURM_ARRAY_TASK_ID=$i of 0-3)" "warm-$i.log" ||
    fail "task $i did not run part $i/4: $(cat "warm-$i.log")"
done
grep -v '^sbatch ' submit.sh >merge.sh
sh merge.sh >merge.out || fail "the README's merge step failed"
check_parts 4
