#!/bin/sh
# bftrainer against a running OpenPBS 23.06 (t/lib-pbs.sh: server,
# scheduler, comm and four moms n1-n4 on this host, queues workq and bf as
# examples/pbs/bftrainer.qmgr sets them): bf-holes --pbs reads the live
# pbsnodes, qstat and pbs_rstat; bf-apply --backend pbs, as root, submits
# one pilot per node in bf as the job's owner (bfpbs, in group bftrainer),
# attaches each worker to its node's pilot with pbs_attach; a grow, a
# shrink with notice (qsig), a preemption by a workq job that takes a
# pilot's node (the job shrinks, that node's worker ends, nothing is left),
# --cleanup; then bf-watch --holes-cmd 'bf-holes --pbs' runs a job that
# grows, is preempted by a main job, grows back and ends at its samples,
# and exits 0 at SIGTERM.  What the server cannot be made to do (PBS 12's
# job names, a server that hangs) stays with the stand-ins of t8060.
. "$(dirname "$0")/lib.sh"
. "$T_DIR/lib-pbs.sh"

TITLES='a private OpenPBS starts: 4 free nodes, queues workq and bf as the example sets them
queue bf admits group bftrainer alone; qdel -Wsuppress_email=-1 hangs, =1 returns
bf-holes --pbs: the live pbsnodes, qstat and pbs_rstat; a node of a workq job is not idle
start: one pilot per node in bf, owned by the job owner, workers attached with pbs_attach
grow: the main job ends, a pilot for the new node alone
shrink with notice: qsig USR2 and TERM reach the leaving workers; the pilots kept run on
a workq job takes a pilot'"'"'s node: the pilot is deleted at once, the job shrinks, its worker ends
--cleanup deletes every pilot of the spool and nothing else
bf-watch --holes-cmd bf-holes --pbs: a job grows to 4 nodes
bf-watch: a main job preempts a pilot: the job shrinks, then grows back when it ends
bf-watch: the job ends at its samples; no pilot, no process left
SIGTERM: bf-watch exits 0
every daemon stopped by pid'

pbs_usable || test_pbs_skip_all "$TITLES"

# qsub runs as the job's owner: the programs, the job and the spool must be
# reachable by other uids.
test_public_trash
BF_COORD_HOST=127.0.0.1
export BF_COORD_HOST

pbs_start >start.out 2>start.err
start_rc=$?
test_expect_success 'a private OpenPBS starts: 4 free nodes, queues workq and bf as the example sets them' '
	cat "$TRASH/start.out" "$TRASH/start.err" && test $start_rc = 0 &&
	pbsnodes -aS | awk "NR > 2 { print \$1, \$2, \$5 }" >actual &&
	printf "n1 free n1\nn2 free n2\nn3 free n3\nn4 free n4\n" >expect &&
	test_cmp expect actual &&
	qstat -Qf bf >q && cat q &&
	grep -x "    kill_delay = 0" q && grep -x "    acl_groups = bftrainer" q &&
	grep -x "    max_run_soft = \[o:PBS_ALL=0\]" q &&
	qmgr -c "list sched" | grep -x "    preempt_order = D"
'

UID_U=$(id -u "$PBS_USER")
mkspool sp
TAG=$(pbs_pilot_tag sp)
cleanup_all() {
	kill_jobs sp
	kill_jobs sp2
}
trap 'cleanup_all; pbs_stop' EXIT

submit_as() {	# spool name max command [yaml...]
	job "$@" && chown "$PBS_USER" "$1/incoming/$2.yaml" &&
	bf-submit --intake -d "$1" 2>/dev/null
}
apply() {
	bf-apply -d sp -g 2 --backend pbs "$@"
}
pilot() {	# job node
	awk -v n="$2" '$1 == n { print $2 }' "sp/run/$1/pilots"
}
running() {	# job: its running workers' hosts
	awk '$4 == "running" { print $1 }' "sp/run/$1/workers"
}
nrunning() {	# job count
	[ "$(running "$1" | wc -l)" = "$2" ]
}
node_free() {	# node
	pbsnodes "$1" 2>/dev/null | grep -q "^ *state = free$"
}

test_expect_success 'queue bf admits group bftrainer alone; qdel -Wsuppress_email=-1 hangs, =1 returns' '
	id -nG $PBS_USER | tr " " "\n" | grep -x bftrainer &&
	test_expect_code 159 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		qsub -q bf -- /bin/true 2>err &&
	echo "qsub: Unauthorized Request " >expect && test_cmp expect err &&
	id=$(cd / && pbs_as qsub -f -q bf -N probe -l select=1:host=n1 -j oe \
		-o /dev/null -- /bin/sleep 3600) &&
	wait_for 10 job_running $id &&
	test_expect_code 124 timeout 3 qdel -Wsuppress_email=-1 $id &&
	qstat $id && t0=$(date +%s.%N) &&
	qdel -Wsuppress_email=1 $id &&
	awk -v s=$t0 -v now=$(date +%s.%N) "BEGIN { print now - s; exit !(now - s < 1) }" &&
	wait_for 10 eval "! qstat $id" &&
	test_expect_code 153 qdel -Wsuppress_email=1 $id 2>err &&
	echo "qdel: Unknown Job Id $id" >expect && test_cmp expect err
'

test_expect_success 'bf-holes --pbs: the live pbsnodes, qstat and pbs_rstat; a node of a workq job is not idle' '
	bf-holes -d sp --pbs --own bf && cat sp/holes/current.yaml &&
	grep -x "source: pbs" sp/holes/current.yaml &&
	grep -x "  - nodes: n\[1-4\]" sp/holes/current.yaml &&
	main_on n4 >main4 && wait_for 10 job_running $(cat main4) &&
	bf-holes -d sp --pbs --own bf && cat sp/holes/current.yaml &&
	grep -x "  - nodes: n\[1-3\]" sp/holes/current.yaml
'

test_expect_success 'start: one pilot per node in bf, owned by the job owner, workers attached with pbs_attach' '
	submit_as sp a 4 "exec $J" "worker: exec $W" &&
	bf-solve -d sp && apply >actual && cat actual &&
	echo "start a 0->3 n[1-3]" >expect && test_cmp expect actual &&
	bfq >q && cat q &&
	for n in n1 n2 n3; do
		echo "$(pilot a $n) ${TAG}a $PBS_USER R $n"
	done >expect && test_cmp expect q &&
	printf "n1:1\nn2:1\nn3:1\n" >expect && test_cmp expect sp/run/a/hosts &&
	wait_for 10 grep -q "^start a nodes=3 uid=$UID_U " sp/run/a/output &&
	wait_for 15 nrunning a 3 &&
	wait_for 5 eval "[ \$(grep -c \"^worker \" sp/run/a/output) = 3 ]" &&
	for n in n1 n2 n3; do
		grep -x "worker $n nodes=3 coord=127.0.0.1:[0-9]* uid=$UID_U slurm=none" \
			sp/run/a/output || exit 1
		wait_for 5 eval "[ \$(tasks $(pilot a $n) $n) = 2 ]" || exit 1
	done
'

test_expect_success 'grow: the main job ends, a pilot for the new node alone' '
	qdel $(cat main4) && wait_for 30 node_free n4 &&
	bf-holes -d sp --pbs --own bf && bf-solve -d sp &&
	ids=$(cat sp/run/a/pilots) &&
	apply >actual && cat actual &&
	echo "grow a 3->4 n[1-4]" >expect && test_cmp expect actual &&
	test "$(grep -v "^n4 " sp/run/a/pilots)" = "$ids" &&
	bfq | grep -x "$(pilot a n4) ${TAG}a $PBS_USER R n4" &&
	wait_for 15 nrunning a 4 &&
	wait_for 5 eval "[ \$(tasks $(pilot a n4) n4) = 2 ]"
'

test_expect_success 'shrink with notice: qsig USR2 and TERM reach the leaving workers; the pilots kept run on' '
	id3=$(pilot a n3) && id4=$(pilot a n4) &&
	holes sp 2000 "n[1-2]" && bf-solve -d sp &&
	apply >actual && cat actual &&
	echo "shrink a 4->2 n[1-2]" >expect && test_cmp expect actual &&
	grep -x "notice n3" sp/run/a/output && grep -x "notice n4" sp/run/a/output &&
	! grep "notice n[12]" sp/run/a/output &&
	grep " cancel n3 $id3 R$" sp/run/a/pilots.log &&
	grep " cancel n4 $id4 R$" sp/run/a/pilots.log &&
	wait_for 10 eval "! qstat $id3 2>/dev/null && ! qstat $id4 2>/dev/null" &&
	bfq >q && cat q &&
	for n in n1 n2; do
		echo "$(pilot a $n) ${TAG}a $PBS_USER R $n"
	done >expect && test_cmp expect q &&
	printf "n1:1\nn2:1\n" >expect && test_cmp expect sp/run/a/hosts &&
	nrunning a 2 &&
	for n in n1 n2; do
		test $(tasks $(pilot a $n) $n) = 2 || exit 1
	done
'

test_expect_success 'a workq job takes a pilot'"'"'s node: the pilot is deleted at once, the job shrinks, its worker ends' '
	id1=$(pilot a n1) &&
	w1=$(awk "\$1 == \"n1\" { print \$2 }" sp/run/a/workers) &&
	t0=$(date +%s.%N) &&
	main_on n1 >main1 &&
	wait_for 15 job_running $(cat main1) &&
	awk -v s=$t0 -v now=$(date +%s.%N) "BEGIN { printf \"main job running after %.2f s\\n\", now - s }" &&
	! qstat $id1 2>/dev/null &&
	apply >actual 2>err && cat actual err &&
	printf "adopt a 1 n2\ngrow a 1->2 n[1-2]\n" >expect &&
	test_cmp expect actual &&
	grep "unobtained: {holes: \"xxh3:[0-9a-f]*\", hosts: \"n1\", since: [0-9]*}" sp/state.yaml &&
	grep " leave n1 $id1 \(GONE\|E\)$" sp/run/a/pilots.log &&
	printf "n2:1\n" >expect && test_cmp expect sp/run/a/hosts &&
	wait_for 10 nrunning a 1 && running a >actual &&
	echo n2 >expect && test_cmp expect actual &&
	wait_for 10 eval "! kill -0 -$w1 2>/dev/null" &&
	bfq >q && cat q &&
	echo "$(pilot a n2) ${TAG}a $PBS_USER R n2" >expect && test_cmp expect q
'

test_expect_success '--cleanup deletes every pilot of the spool and nothing else' '
	other=$(cd / && pbs_as qsub -f -q bf -N bf-other -l select=1:host=n3 -j oe \
		-o /dev/null -- /bin/sleep 3600) &&
	id2=$(pilot a n2) &&
	bf-apply -d sp --backend pbs --cleanup >actual &&
	echo "cancelled $id2 ${TAG}a n2" >expect && test_cmp expect actual &&
	wait_for 10 eval "! qstat $id2 2>/dev/null" &&
	qstat $other && qstat $(cat main1) &&
	bf-apply -d sp --backend pbs --cleanup >actual && test_must_be_empty actual &&
	qdel $other $(cat main1) &&
	wait_for 10 eval "[ -z \"\$(qselect)\" ]" &&
	apply >actual 2>err; cat actual err;
	kill_jobs sp
'

# bf-watch: its own spool, a job of samples; holes from the live server.
mkspool sp2
TAG2=$(pbs_pilot_tag sp2)
# Enough that the job outlives its preemption and grow back: 4,000
# samples/s at 4 nodes on a quiet machine; on one at a load of 13 the grow
# back took over 100 s once, and 150,000 samples ended the job first.
SAMPLES=300000
timeout -s KILL 900 bf-watch -d sp2 --backend pbs -g 2 -r 1 --debounce 5 \
	--no-profile --holes-cmd 'bf-holes --pbs --own bf' --holes-interval 1 \
	2>watch.log &
tpid=$!
wait_for 5 test -s sp2/lock >/dev/null 2>&1
wpid=$(cat sp2/lock 2>/dev/null)
nodes_of() {	# job
	sed -n "s/^  $1: {nodes: \([0-9]*\),.*/\1/p" sp2/state.yaml
}
holding() {	# job nodes
	[ "$(nodes_of "$1")" = "$2" ]
}

test_expect_success 'bf-watch --holes-cmd bf-holes --pbs: a job grows to 4 nodes' '
	test -n "$wpid" && alive $wpid &&
	job sp2 b 4 "exec $J" "worker: exec $W" "samples: $SAMPLES" &&
	chown "$PBS_USER" sp2/incoming/b.yaml &&
	wait_for 60 holding b 4 && cat watch.log &&
	bfq | grep " ${TAG2}b " >q && cat q &&
	test $(grep -c " $PBS_USER R n[1-4]$" q) = 4 &&
	wait_for 15 eval "[ \$(awk \"\\\$4 == \\\"running\\\"\" sp2/run/b/workers | wc -l) = 4 ]"
'

# What the grow back waits on, printed when it does not come.
pbs_diag() {
	echo "--- watch.log"; cat watch.log
	echo "--- state.yaml"; cat sp2/state.yaml
	echo "--- bf-holes --pbs --own bf"; bf-holes --pbs --own bf 2>&1
	echo "--- pbsnodes -aS"; pbsnodes -aS 2>&1
	echo "--- qstat -x"; qstat -xw 2>&1
	echo "--- pilots"; cat sp2/run/b/pilots sp2/run/b/pilots.log 2>&1
	echo "--- holes/"; ls -la sp2/holes* 2>&1; tail -n +1 sp2/holes/* 2>&1 | tail -40
}
test_expect_success 'bf-watch: a main job preempts a pilot: the job shrinks, then grows back when it ends' '
	id=$(awk "\$1 == \"n2\" { print \$2 }" sp2/run/b/pilots) &&
	main_on n2 >main2 && wait_for 15 job_running $(cat main2) &&
	wait_for 30 holding b 3 && cat watch.log &&
	wait_for 10 grep -q "decision: .*adopt b 4->3 (pilot lost)" watch.log &&
	grep " leave n2 $id \(GONE\|E\)$" sp2/run/b/pilots.log &&
	! grep -q "^n2:" sp2/run/b/hosts &&
	qdel $(cat main2) &&
	{ wait_for 120 holding b 4 || { pbs_diag; exit 1; }; } && cat watch.log
'

# No process of the user's left; else the last seen in procs.
no_user_procs() {
	ps -u $PBS_USER -o pid=,ppid=,pgid=,sid=,etimes=,stat=,args= >procs.now
	[ -s procs.now ] || return 0
	mv procs.now procs
	return 1
}
# The job's progress, seen until it ends (its log goes with the run).
track() {
	tail -1 sp2/progress/b.log >>seen 2>/dev/null
	grep -q "^jobs: {}$" sp2/state.yaml
}
test_expect_success 'bf-watch: the job ends at its samples; no pilot, no process left' '
	wait_for 300 track &&
	wait_for 15 grep -q "decision: .*stop b 4->0 (done), finished b 4->0 (done)" watch.log &&
	! test -f sp2/jobs/b.yaml &&
	grep -h "^outcome:" sp2/history/runs/*-b-*.yaml >actual &&
	echo "outcome: finished" >expect && test_cmp expect actual &&
	sort -n -k3 seen | tail -1 >last && cat last &&
	awk -v want=$SAMPLES "{ exit !(\$3 >= want && \$3 < want + 20000) }" last &&
	wait_for 15 eval "[ -z \"\$(bfq)\" ]" &&
	wait_for 15 no_user_procs || { cat procs 2>/dev/null; exit 1; }
'

kill -TERM "$wpid" 2>/dev/null
wait_for 10 eval '! alive $wpid' >/dev/null 2>&1 || kill -KILL "$wpid" 2>/dev/null
wait "$tpid"
watch_rc=$?
test_expect_success 'SIGTERM: bf-watch exits 0' '
	test $watch_rc = 0 && ! alive $wpid
'

cleanup_all
test_pbs_stop 'every daemon stopped by pid'
test_done
