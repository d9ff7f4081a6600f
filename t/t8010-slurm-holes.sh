#!/bin/sh
# bf-holes --slurm against a live private Slurm 22.05 with 8 nodes
# (t/lib-slurm.sh): idle nodes, nodes of our own pilot jobs, nodes planned
# by the backfill scheduler until the pending job's expected start from
# squeue --start, and the controller gone.  Expected node sets are read
# from Slurm itself (squeue, scontrol show hostnames/hostlist), apart from
# bf-holes's own parsing.
. "$(dirname "$0")/lib.sh"
. "$T_DIR/lib-slurm.sh"

TITLES='a private Slurm starts on 127.0.0.1 with 8 idle nodes
3 nodes busy with a main job: exactly the 5 idle ones are listed
nodes of a job in partition bf are usable with --own bf
live sinfo and squeue output has the form of the captured fixtures
a pending 6-node job planned by backfill: its planned nodes until its start
slurmctld stopped: exit 75 with a clear message, the spool untouched
no sinfo on PATH: exit 69
every daemon stopped by pid, none left running or a zombie'

slurm_usable || test_slurm_skip_all "$TITLES"

S="$T_DIR/data/slurm"
t0=$(date +%s)

# hostnames EXPR: one node a line, sorted; hostlist FILE: compressed.
hostnames() { scontrol show hostnames "$1" | sort; }
hostlist() { scontrol show hostlist "$(paste -sd, "$1")"; }
job_running() { [ "$(squeue -h -j "$1" -o %T 2>/dev/null)" = RUNNING ]; }
idle_count() {
	[ "$(sinfo -h -N -p main -t idle -o %N | wc -l)" -eq "$1" ]
}

slurm_start 2>start.err
start_rc=$?
echo "# slurm started in $(($(date +%s) - t0)) s (ports $SLURM_CTLD_PORT-$((SLURM_CTLD_PORT + SLURM_NODES)))"
test_expect_success 'a private Slurm starts on 127.0.0.1 with 8 idle nodes' '
	cat "$TRASH/start.err" && test $start_rc = 0 &&
	sinfo -h -N -p main -o "%N %T" >nodes &&
	printf "n%s idle\n" 1 2 3 4 5 6 7 8 >expect && test_cmp expect nodes &&
	scontrol show config |
		grep -E "^(PreemptMode|PreemptType|SchedulerParameters|SchedulerType) " >cfg &&
	grep "preempt/partition_prio" cfg && grep "sched/backfill" cfg &&
	grep "bf_interval=1," cfg && grep "PreemptMode *= CANCEL" cfg &&
	scontrol show partition bf | grep -E "PreemptMode=CANCEL" &&
	scontrol show partition bf | grep -E "GraceTime=0" &&
	scontrol show partition main | grep "PriorityTier=10" &&
	scontrol show partition main | grep "PreemptMode=OFF"
'

test_expect_success '3 nodes busy with a main job: exactly the 5 idle ones are listed' '
	sbatch --parsable -p main -N3 --exclusive -t 5 -J main3 \
		--wrap "sleep 300" >"$TRASH/job1" &&
	slurm_wait 20 job_running $(cat "$TRASH/job1") &&
	hostnames "$(squeue -h -j $(cat "$TRASH/job1") -o %N)" >"$TRASH/busy" &&
	test $(wc -l <"$TRASH/busy") = 3 &&
	hostnames "n[1-8]" >all &&
	comm -23 all "$TRASH/busy" >"$TRASH/idle" &&
	test $(wc -l <"$TRASH/idle") = 5 &&
	printf "source: slurm\nidle:\n  - nodes: %s\n" "$(hostlist "$TRASH/idle")" \
		>"$TRASH/expect-a" &&
	bf-holes --slurm >out && sed 1d out >actual &&
	test_cmp "$TRASH/expect-a" actual &&
	bf-holes -d "$TRASH/sp" --slurm &&
	sed 1d "$TRASH/sp/holes/current.yaml" >actual &&
	test_cmp "$TRASH/expect-a" actual
'

test_expect_success 'nodes of a job in partition bf are usable with --own bf' '
	sbatch --parsable -p bf -N2 --exclusive -t 5 -J bf-pilot \
		-w "$(head -2 "$TRASH/idle" | paste -sd,)" --wrap "sleep 300" >pilot &&
	slurm_wait 20 job_running $(cat pilot) &&
	hostnames "$(squeue -h -j $(cat pilot) -o %N)" >pilot.nodes &&
	head -2 "$TRASH/idle" >expect && test_cmp expect pilot.nodes &&
	bf-holes --slurm --own bf >out && sed 1d out >actual &&
	test_cmp "$TRASH/expect-a" actual &&
	bf-holes --slurm >out && sed 1d out >actual &&
	test_cmp "$TRASH/expect-a" actual &&
	bf-holes --slurm --own bf-pilot >out && sed 1d out >actual &&
	test_cmp "$TRASH/expect-a" actual &&
	comm -23 "$TRASH/idle" pilot.nodes >rest &&
	printf "source: slurm\nidle:\n  - nodes: %s\n" "$(hostlist rest)" >expect &&
	bf-holes --slurm --own nobody >out && sed 1d out >actual &&
	test_cmp expect actual &&
	scancel $(cat pilot) && slurm_wait 20 idle_count 5
'

# START_TIME and SCHEDNODES of job $1 from the form people read,
# squeue --start, found by the column titles: "START SCHEDNODES".
start_of() {
	squeue --start -j "$1" | awk '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ print $col["START_TIME"], $col["SCHEDNODES"] }'
}

planned_ready() {	# job: SCHEDNODES given and its idle nodes planned
	set -- $(start_of "$1")
	case ${2:-} in n*) ;; *) return 1 ;; esac
	hostnames "$2" | comm -12 - "$TRASH/idle" >want.planned
	sinfo -h -N -p main -t planned -o %N | sort >is.planned
	[ -s want.planned ] && cmp -s want.planned is.planned
}

test_expect_success 'live sinfo and squeue output has the form of the captured fixtures' '
	sbatch --parsable -p main -N6 --exclusive -t 2 -J main6 \
		--wrap "sleep 100" >"$TRASH/job2" &&
	slurm_wait 20 planned_ready $(cat "$TRASH/job2") &&
	sinfo -h -N -o "%N|%T|%P" >sinfo.txt &&
	squeue -h -o "%i|%P|%j|%T|%N|%S|%Y" >squeue.txt &&
	cat sinfo.txt squeue.txt &&
	node="^n[1-8]\|(idle|allocated|mixed|planned|drained|down)\|(main\*|bf)$" &&
	d="[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}" &&
	job="^[0-9]+\|(main|bf)\|[a-z0-9-]+\|(RUNNING\|n[][0-9,-]+\|$d\|\(null\)|PENDING\|\|$d\|n[][0-9,-]+)$" &&
	! grep -Ev "$node" sinfo.txt "$S/sinfo-a.txt" &&
	! grep -Ev "$job" squeue.txt "$S/squeue-a.txt" &&
	grep -c "|planned|" sinfo.txt && grep -c "|planned|" "$S/sinfo-a.txt" &&
	grep "|PENDING|" squeue.txt
'

test_expect_success 'a pending 6-node job planned by backfill: its planned nodes until its start' '
	job2=$(cat "$TRASH/job2") && n=0 &&
	while :; do
		start_of $job2 >before &&
		bf-holes --slurm >out &&
		start_of $job2 >after &&
		cmp -s before after && break
		n=$((n + 1)) && test $n -lt 3 || exit 1
	done &&
	cat after && read start sched <after &&
	u=$(date -d "$start" +%s) &&
	hostnames "$sched" >sched.nodes && test $(wc -l <sched.nodes) = 6 &&
	comm -12 sched.nodes "$TRASH/idle" >planned &&
	comm -23 "$TRASH/idle" planned >rest &&
	test -s planned && test -s rest &&
	cat >expect <<-EOT &&
	source: slurm
	idle:
	  - nodes: $(hostlist rest)
	  - nodes: $(hostlist planned)
	    until: $u
	EOT
	sed 1d out >actual && test_cmp expect actual
'

# The controller gone: jobs cancelled first, so that their steps end.
scancel -u root 2>/dev/null
slurm_wait 20 sh -c '[ -z "$(squeue -h -o %i)" ]' 2>/dev/null
slurm_stop_ctld 2>ctld.err
ctld_rc=$?
# Each sinfo tries to reach the controller for MessageTimeout - 1 seconds
# before it fails: 1 s, not 4 (the controller is not started again; the
# message is the same, sinfo-down.err).
slurm_message_timeout 2 2>>ctld.err
mt_rc=$?
test_expect_success 'slurmctld stopped: exit 75 with a clear message, the spool untouched' '
	cat "$TRASH/ctld.err" && test $ctld_rc = 0 && test $mt_rc = 0 &&
	cp sp/holes/current.yaml before &&
	test_expect_code 75 bf-holes --slurm >out 2>err &&
	test_must_be_empty out &&
	cp "$S/sinfo-down.err" expect &&
	echo "bf-holes: sinfo exited with status 1; is slurmctld answering?" >>expect &&
	test_cmp expect err &&
	test_expect_code 75 bf-holes -d sp --slurm 2>err &&
	test_cmp expect err &&
	test_cmp before sp/holes/current.yaml
'

test_expect_success 'no sinfo on PATH: exit 69' '
	prog=$(command -v bf-holes) &&
	PATH=/nonexistent test_expect_code 69 "$prog" --slurm >out 2>err &&
	test_must_be_empty out &&
	echo "bf-holes: sinfo: not found on PATH; is Slurm installed?" >expect &&
	test_cmp expect err
'

test_slurm_stop 'every daemon stopped by pid, none left running or a zombie'

echo "# t8010: $(($(date +%s) - t0)) s of wall time"
test_done
