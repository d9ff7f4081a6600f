#!/bin/sh
# t/data/slurm/capture.sh - run a private Slurm 22.05 with 8 emulated nodes
# on 127.0.0.1, put its nodes into every state bf-holes must tell apart, and
# capture the machine-readable output bf-holes parses into this directory.
#
#	t/data/slurm/capture.sh [OUTDIR]	(as root; needs slurm-wlm, munge)
#
# Every daemon runs in the foreground as a child of this script, in a
# temporary directory, with its own munged socket and ports 16817 and
# 17001-17008; all are stopped by pid (and reaped) on exit.
set -u
OUT=$(cd "${1:-$(dirname "$0")}" && pwd)
D=$(mktemp -d /tmp/bf-slurm.XXXXXX) || exit 1
export SLURM_CONF=$D/slurm.conf
PIDS=""

stop() {
	for j in $(squeue -h -o %i 2>/dev/null); do scancel "$j"; done
	sleep 2
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	rm -rf "$D"
}
trap stop EXIT
trap 'exit 1' INT TERM

mkdir -p "$D/state" "$D/spool" "$D/munge"
chmod 700 "$D/munge"
dd if=/dev/urandom of="$D/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$D/munge/munge.key"
munged -F --force --socket="$D/munge/munge.sock" --key-file="$D/munge/munge.key" \
	--pid-file="$D/munge/munged.pid" --log-file="$D/munge/munged.log" \
	--seed-file="$D/munge/munged.seed" &
PIDS="$PIDS $!"

{
cat <<EOT
ClusterName=bfcap
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=16817
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$D/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool/%n
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd-%n.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1,bf_resolution=60
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
SlurmdParameters=config_overrides
SlurmdTimeout=10
InactiveLimit=0
MinJobAge=300
KillWait=5
EOT
for i in 1 2 3 4 5 6 7 8; do
	echo "NodeName=n$i NodeHostname=localhost NodeAddr=127.0.0.1 Port=1700$i CPUs=4 RealMemory=1000 State=UNKNOWN"
done
echo "PartitionName=main Nodes=n[1-8] Default=YES MaxTime=INFINITE State=UP"
echo "PartitionName=bf Nodes=n[1-8] MaxTime=INFINITE State=UP"
} >"$SLURM_CONF"

sleep 1
slurmctld -D -i -f "$SLURM_CONF" &
PIDS="$PIDS $!"
sleep 2
for i in 1 2 3 4 5 6 7 8; do
	slurmd -D -N "n$i" -f "$SLURM_CONF" &
	PIDS="$PIDS $!"
done

wait_for() {	# seconds command...
	n=$1; shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		sleep 1; n=$((n - 1))
	done
	echo "capture.sh: timed out waiting for: $*" >&2
	return 1
}
all_idle() { [ "$(sinfo -h -N -p main -t idle -o %N 2>/dev/null | wc -l)" -eq 8 ]; }
wait_for 60 all_idle || { tail -20 "$D/slurmctld.log" >&2; exit 1; }

# The states: n1-n2 allocated (30 min), n3 mixed (1 of 4 CPUs), n4 drained,
# n5 down, n6 bftrainer's own pilot job (partition bf), n7 planned by the
# backfill scheduler for a pending 4-node job that may not use n8, n8 idle.
sbatch -Q -p main -N2 -w 'n[1-2]' --exclusive -t 30 -J big --wrap 'sleep 1800'
sbatch -Q -p main -n1 -w n3 -t 60 -J small --wrap 'sleep 3600'
sbatch -Q -p bf -N1 -w n6 --exclusive -t 20 -J bf-pilot --wrap 'sleep 1200'
scontrol update NodeName=n4 State=DRAIN Reason=capture-drain
scontrol update NodeName=n5 State=DOWN Reason=capture-down
running() { [ "$(squeue -h -t R -o %i | wc -l)" -eq 3 ]; }
wait_for 30 running || exit 1
sbatch -Q -p main -N4 --exclusive -t 10 -x n8 -J wide --wrap 'sleep 600'
planned() { sinfo -h -N -o %T | grep -q planned && squeue -h -t PD -o %Y | grep -q n; }
wait_for 60 planned || exit 1

# What bf-holes runs (bf-holes(1)), then forms for people, for SOURCES.md.
capture() {	# name
	sinfo -h -N -o '%N|%T|%P' >"$OUT/sinfo-$1.txt"
	squeue -h -o '%i|%P|%j|%T|%N|%S|%Y' >"$OUT/squeue-$1.txt"
	{
		echo "captured at $(date -u +%Y-%m-%dT%H:%M:%SZ) ($(date +%s)), TZ=${TZ:-} $(cat /etc/timezone 2>/dev/null)"
		echo '$ sinfo -N'; sinfo -N
		echo '$ sinfo -N -R'; sinfo -N -R
		echo '$ squeue'; squeue
		echo '$ squeue --start'; squeue --start
		echo '$ scontrol show reservation'; scontrol show reservation
		echo '$ sinfo -V'; sinfo -V
	} >"$OUT/human-$1.txt" 2>&1
}
capture a
for j in $(squeue -h -o %i); do scancel "$j"; done
scontrol update NodeName=n4,n5 State=RESUME
idle7() { [ "$(sinfo -h -N -p main -t idle -o %N | wc -l)" -ge 7 ]; }
wait_for 60 idle7 || exit 1

# Scenario b: n1 idle, n2's slurmd killed (not responding), n3 draining
# under a job, n4 mixed with only a pilot job of bf, n5 mixed with a pilot
# and another job, n6 in a maintenance reservation, n7 reserved, n8 idle.
sbatch -Q -p main -n1 -w n3 -t 60 -J small --wrap 'sleep 3600'
sbatch -Q -p bf -n1 -w n4 -t 20 -J bf-pilot --wrap 'sleep 1200'
sbatch -Q -p bf -n1 -w n5 -t 20 -J bf-pilot --wrap 'sleep 1200'
sbatch -Q -p main -n1 -w n5 -t 40 -J other --wrap 'sleep 2400'
scontrol create reservation ReservationName=maint1 StartTime=now Duration=60 \
	Nodes=n6 Users=root Flags=MAINT >/dev/null
scontrol create reservation ReservationName=resv1 StartTime=now Duration=60 \
	Nodes=n7 Users=root >/dev/null
running4() { [ "$(squeue -h -t R -o %i | wc -l)" -eq 4 ]; }
wait_for 30 running4 || exit 1
scontrol update NodeName=n3 State=DRAIN Reason=capture-draining
n2=$(echo $PIDS | awk '{ print $4 }')
kill "$n2"; wait "$n2" 2>/dev/null
gone() { sinfo -h -n n2 -o %T | grep -q '\*'; }
wait_for 60 gone || exit 1
capture b

# The controller gone: what sinfo and squeue say, and their exit codes.
ctld=$(echo $PIDS | awk '{ print $2 }')
for j in $(squeue -h -o %i); do scancel "$j"; done
sleep 2
kill "$ctld"; wait "$ctld" 2>/dev/null
sinfo -h -N -o '%N|%T|%P' >"$OUT/sinfo-down.out" 2>"$OUT/sinfo-down.err"
echo $? >"$OUT/sinfo-down.rc"
squeue -h -o '%i|%P|%j|%T|%N|%S|%Y' >"$OUT/squeue-down.out" 2>"$OUT/squeue-down.err"
echo $? >"$OUT/squeue-down.rc"
echo "capture.sh: captured into $OUT" >&2
