#!/bin/sh
# bf-holes --slurm on output captured from a real Slurm 22.05 with 8
# emulated nodes (t/data/slurm/SOURCES.md): which states are usable, until
# from the backfill plan, our own pilot jobs, and the failure exits.
. "$(dirname "$0")/lib.sh"

S="$T_DIR/data/slurm"
TZ=UTC	# Slurm printed its times in UTC, the capturing machine's zone
export TZ

holes() {	# scenario [options]
	sc=$1; shift
	bf-holes --slurm --sinfo "cat '$S/sinfo-$sc.txt'" --squeue "cat '$S/squeue-$sc.txt'" "$@"
}

test_expect_success 'idle, planned and our own nodes; planned ones until the start' '
	holes a >out &&
	# human-a.txt: n1-n2 alloc, n3 mix, n4 drain, n5 down (none usable);
	# n6 alloc by bf-pilot in partition bf, n7 plnd, n8 idle; squeue --start:
	# job 4 starts 2026-11-21T19:11:12 on SCHEDNODES n[1-2,6-7].
	u=$(date -u -d 2026-11-21T19:11:12 +%s) &&
	cat >expect <<-EOT &&
	source: slurm
	idle:
	  - nodes: n8
	  - nodes: n[6-7]
	    until: $u
	EOT
	sed 1d out >actual && test_cmp expect actual &&
	now=$(date +%s) && t=$(sed -n "s/^time: //p" out) &&
	test $((now - t)) -ge 0 && test $((now - t)) -lt 60
'

test_expect_success 'not responding, draining, maint, reserved and shared nodes are not usable' '
	holes b >out &&
	# human-b.txt: n1 idle, n2 idle* (slurmd killed), n3 drng, n4 mix with
	# only a bf-pilot job, n5 mix with a bf-pilot and another job, n6 maint,
	# n7 resv, n8 idle.
	printf "source: slurm\nidle:\n  - nodes: n[1,4,8]\n" >expect &&
	sed 1d out >actual && test_cmp expect actual
'

test_expect_success '--own names the partition or job name that is ours' '
	holes a --own nobody >out && sed 1d out >actual &&
	u=$(date -u -d 2026-11-21T19:11:12 +%s) &&
	printf "source: slurm\nidle:\n  - nodes: n8\n  - nodes: n7\n    until: $u\n" >expect &&
	test_cmp expect actual &&
	holes b --own bf-pilot >out && sed 1d out >actual &&
	printf "source: slurm\nidle:\n  - nodes: n[1,4,8]\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'into the spool only when the nodes change, not the time' '
	holes a -d sp && cp sp/holes/current.yaml first &&
	sleep 1 && holes a -d sp && test_cmp first sp/holes/current.yaml &&
	holes b -d sp && ! cmp -s first sp/holes/current.yaml &&
	grep "n\[1,4,8\]" sp/holes/current.yaml
'

test_expect_success 'no Slurm commands on PATH exits 69' '
	prog=$(command -v bf-holes) &&
	PATH=/nonexistent test_expect_code 69 "$prog" --slurm 2>err &&
	echo "bf-holes: sinfo: not found on PATH; is Slurm installed?" >expect &&
	test_cmp expect err &&
	test_expect_code 69 bf-holes --slurm --sinfo no-such-command-here \
		--squeue "cat $S/squeue-a.txt" 2>err &&
	grep "^bf-holes: sinfo: command not found: no-such-command-here$" err
'

test_expect_success 'slurmctld not answering exits 75 (captured sinfo and squeue)' '
	test_expect_code 75 bf-holes --slurm \
		--sinfo "cat $S/sinfo-down.err >&2; exit $(cat $S/sinfo-down.rc)" \
		--squeue "cat $S/squeue-a.txt" 2>err &&
	cat "$S/sinfo-down.err" >expect &&
	echo "bf-holes: sinfo exited with status 1; is slurmctld answering?" >>expect &&
	test_cmp expect err &&
	test_expect_code 75 bf-holes --slurm --sinfo "cat $S/sinfo-a.txt" \
		--squeue "cat $S/squeue-down.err >&2; exit $(cat $S/squeue-down.rc)" 2>err &&
	grep "^bf-holes: squeue exited with status 1; is slurmctld answering?$" err
'

bad() {	# title file-kind line-2 message
	bad_kind=$2 bad_text=$3 bad_msg=$4
	test_expect_success "unparsable $2 output: $1" '
		awk -v l="$bad_text" "NR == 2 { print l; next } { print }" \
			"$S/$bad_kind-a.txt" >bad.txt &&
		if [ $bad_kind = sinfo ]; then
			set -- --sinfo "cat bad.txt" --squeue "cat $S/squeue-a.txt"
		else
			set -- --sinfo "cat $S/sinfo-a.txt" --squeue "cat bad.txt"
		fi &&
		test_expect_code 65 bf-holes --slurm "$@" >out 2>err &&
		test_must_be_empty out &&
		echo "bf-holes: $bad_kind:2: $bad_msg" >expect &&
		test_cmp expect err
	'
}
bad 'two fields' sinfo 'n1|allocated' 'a line has 3 fields NODE|STATE|PARTITION'
bad 'a bad node name' sinfo 'n 1|idle|bf' "bad node name 'n 1'"
bad 'no state' sinfo 'n1||bf' 'no state for node n1'
bad 'six fields' squeue '4|main|wide|PENDING||2026-11-21T19:11:12' \
	'a line has 7 fields JOBID|PARTITION|NAME|STATE|NODELIST|START|SCHEDNODES'
bad 'a bad start time' squeue '4|main|wide|PENDING||tomorrow|n[1-2,6-7]' \
	"bad start time 'tomorrow'"
bad 'a bad hostlist' squeue '4|main|wide|PENDING||2026-11-21T19:11:12|n[2-1]' \
	"bad hostlist 'n[2-1]': range 2-1 runs backwards"

test_expect_success 'a job name with | in it is read right' '
	sed "s/|bf-pilot|/|a|b|c|/" "$S/squeue-a.txt" >q.txt &&
	bf-holes --slurm --sinfo "cat $S/sinfo-a.txt" --squeue "cat q.txt" --own bf >a.out &&
	sed 1d a.out >a &&
	holes a >b.out && sed 1d b.out >b && test_cmp b a
'

test_done
