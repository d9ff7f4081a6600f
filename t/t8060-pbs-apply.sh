#!/bin/sh
# bf-apply --backend pbs against stand-ins for qsub, qstat, qdel, qsig,
# pbsnodes, pbs_attach and ssh (t/data/pbs/standin: PBS is not packaged for
# Debian, no PBS server runs here), which record every call and answer as
# the PBS documentation says, in the layout real PBS printed: one pilot job
# per node in queue bf, submitted as the job's owner, the exact argv of
# every command; workers as sessions attached to the pilots over ssh; a grow
# submits only the new node's pilot; a shrink gives notice (hosts file,
# qsig TERM) before qdel; a pilot deleted, requeued, exiting or vanished is
# a node leaving; a node running other work gets no pilot; --cleanup
# deletes the spool's pilots and nothing else; bf-apply not root submits
# and deletes as itself; PBS 12's 15-character job names; the server not
# answering changes nothing.
. "$(dirname "$0")/lib.sh"

if ! test_have_root; then
	test_skip 'bf-apply --backend pbs' 'needs root to run jobs of another uid'
	test_done
fi

# qsub runs as the job's owner: the stand-ins, the programs and the spool
# must be reachable by other uids, not in a checkout in root's 0700 home.
test_public_trash
cp -R "$T_DIR/data/pbs/standin" "$PUBLIC/standin" && chmod -R go+rX "$PUBLIC/standin"
S="$PUBLIC/standin"
SERVER=polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov
PATH="$S:$PATH"
PBS_CONF_FILE="$TRASH/srv/pbs.conf"
BF_COORD_HOST=127.0.0.1
export PATH PBS_CONF_FILE BF_COORD_HOST
unset BF_PBS_NAME_MAX PBS_STANDIN_NAME_MAX
# Nodes not obtained stay out for the whole file (its cases check the
# record; t3120 and t8080 its expiry), however slow a machine runs it.
BF_UNOBTAINED_SECS=86400
export BF_UNOBTAINED_SECS

mkdir srv && chmod 777 srv &&
echo "PBS_SERVER=$SERVER" >srv/pbs.conf &&
printf 'n1\nn2\nn3\nn4\nn5 hold\nn6\n' >srv/nodes

apply() {
	bf-apply -d sp -g 2 --backend pbs "$@"
}
# The same under valgrind where it can run: no invalid access, no leak.
# (Not for a run that submits: as root, qsub's owner is looked up with
# getpwuid(3), whose NSS modules stay loaded, reachable, for a uid that is
# not in /etc/passwd.)
vg_apply() {
	if test_valgrind_usable; then
		vg bf-apply -d sp -g 2 --backend pbs "$@"
	else
		apply "$@"
	fi
}
as4321() {
	as 4321 "$@"
}
# One line of srv/argv.log: UID PROG ARG..., shell-quoted as it logs them.
argv() {
	python3 -c 'import shlex, sys; print(sys.argv[1], shlex.join(sys.argv[2:]))' "$@"
}
qsub_line() {	# uid job node [tag]
	argv "$1" qsub -f -q bf -N "${4:-$TAG}$2" -l "select=1:host=$3" \
		-l place=exclhost -m n -j oe -o /dev/null -- /bin/sh -c \
		"n=0; trap n=1 USR2; trap 'if [ \$n = 1 ]; then n=0; (sleep 5; kill \$\$) & else kill \$!; exit 0; fi' TERM; while :; do sleep 86400 & wait; done"
}
# The calls since line N of the log but the polls (qstat) and the workers'
# (ssh, pbs_attach: they start while bf-apply runs on, and have a case).
calls_since() {	# n
	sed -n "$(($1 + 1)),\$p" srv/argv.log | {
		grep -v " qstat -f -F json bf$\|^[0-9]* ssh \|^[0-9]* pbs_attach " ||
		:
	}
}
# A job's pilots.log, in run/ or moved with its ended run.
plog() {	# job
	for _f in "sp/run/$1/pilots.log" sp/history/runs/*-"$1"-*/pilots.log
	do
		[ -f "$_f" ] && cat "$_f"
	done
	return 0
}
mark() {
	wc -l <srv/argv.log
}
pilot() {	# job node
	awk -v n="$2" '$1 == n { print $2 }' "sp/run/$1/pilots"
}
jstate() {	# id: its state, as the stand-in's server keeps it
	python3 -c 'import json, sys; print(json.load(open("srv/jobs.json"))["jobs"][sys.argv[1]]["state"])' "$1"
}
running() {	# job
	awk '$4 == "running" { print $1 }' "sp/run/$1/workers"
}
nrunning() {	# job count
	[ "$(running "$1" | wc -l)" = "$2" ]
}
submit_as() {	# uid spool name max command [yaml...]
	_u=$1
	shift
	job "$@" && chown "$_u:$_u" "$1/incoming/$2.yaml" &&
	bf-submit --intake -d "$1" 2>/dev/null
}
cleanup_all() {
	[ -s "$TRASH/watch.pid" ] && kill -KILL "$(cat "$TRASH/watch.pid")" 2>/dev/null
	kill_jobs sp
	kill_jobs sp4321
	for _g in $(PBS_STANDIN="$TRASH/srv" pbs-standin sessions 2>/dev/null)
	do
		kill -KILL -"$_g" 2>/dev/null
	done
}
trap cleanup_all EXIT

mkspool sp
TAG=$(printf 'bf-%s-' "$(printf %s "$(cd sp && pwd -P)" | xxhsum -H3 |
	sed 's/.* = //; s/^\(........\).*/\1/')")
: >srv/argv.log && chmod 666 srv/argv.log

test_expect_success 'start: one pilot per node, qsub run as the job owner, its argv exactly' '
	holes sp 1000 "n[1-3]" &&
	submit_as 4321 sp a 4 "exec $J" "worker: exec $W" &&
	bf-solve -d sp && apply >actual &&
	echo "start a 0->3 n[1-3]" >expect && test_cmp expect actual &&
	calls_since 0 >calls &&
	{
		argv 0 pbsnodes -a -F json &&
		for n in n1 n2 n3; do qsub_line 4321 a $n; done
	} >expect && test_cmp expect calls &&
	for i in 0 1 2; do echo "n$((i + 1)) $((1147600 + i)).$SERVER"; done >expect &&
	test_cmp expect sp/run/a/pilots &&
	printf "n1:1\nn2:1\nn3:1\n" >expect && test_cmp expect sp/run/a/hosts &&
	awk "{ print \$2, \$3 }" sp/run/a/pilots.log >log &&
	printf "submit n1\nsubmit n2\nsubmit n3\nrun n3\nrun n2\nrun n1\n" >expect &&
	test_cmp expect log &&
	echo "  a: {nodes: 3, hosts: \"n[1-3]\", pilots: {n1: 1147600.$SERVER, n2: 1147601.$SERVER, n3: 1147602.$SERVER}}" >expect &&
	grep "^  a: " sp/state.yaml >actual && test_cmp expect actual &&
	for id in 1147600 1147601 1147602; do
		test "$(jstate $id.$SERVER)" = R || exit 1
	done &&
	wait_for 5 grep -q "^start a nodes=3 uid=4321 " sp/run/a/output &&
	mark >m && apply >actual && test_must_be_empty actual &&
	calls_since $(cat m) >calls && test_must_be_empty calls
'

test_expect_success 'workers: ssh to the node, pbs_attach to its pilot, as the owner, environment by SendEnv' '
	wait_for 10 nrunning a 3 &&
	wait_for 5 eval "[ \$(grep -c \"^worker \" sp/run/a/output) = 3 ]" &&
	for n in n1 n2 n3; do
		grep -x "worker $n nodes=3 coord=127.0.0.1:[0-9]* uid=4321 slurm=none" \
			sp/run/a/output || exit 1
	done &&
	sh_cmd="trap \"\" USR2; trap \"trap - TERM; kill -TERM \\\$\\\$\" TERM; eval \"\$BF_COMMAND\"" &&
	for n in n1 n2 n3; do
		id=$(pilot a $n) &&
		argv 4321 ssh -tt -o BatchMode=yes -o "SendEnv=BF_*" $n \
			pbs_attach -j $id /bin/sh -c "'\''$sh_cmd'\''" &&
		argv 4321 pbs_attach -j $id /bin/sh -c "$sh_cmd" || exit 1
	done | sort >expect &&
	grep " \(ssh\|pbs_attach\) " srv/argv.log | sort >actual &&
	test_cmp expect actual &&
	! grep worker.sh srv/argv.log &&
	for n in n1 n2 n3; do
		grep -x "$n BF_COMMAND BF_COORD BF_COORD_HOST BF_COORD_PORT BF_HOST BF_HOSTFILE BF_JOB BF_MAX_NODES BF_MIN_NODES BF_NODES BF_PROGRESS BF_SECRET BF_SLOTS BF_SPOOL" \
			srv/env.log || exit 1
	done &&
	for n in n1 n2 n3; do
		grep " start $n [0-9]* $(pilot a $n)$" sp/run/a/workers.log || exit 1
	done
'

test_expect_success 'grow: a pilot for the new node alone' '
	holes sp 1001 "n[1-4]" && bf-solve -d sp &&
	mark >m && apply >actual &&
	echo "grow a 3->4 n[1-4]" >expect && test_cmp expect actual &&
	calls_since $(cat m) >calls &&
	{ argv 0 pbsnodes -a -F json && qsub_line 4321 a n4; } >expect &&
	test_cmp expect calls &&
	test "$(pilot a n4)" = 1147603.$SERVER &&
	wait_for 10 nrunning a 4 &&
	# Its shell has set USR2 ignored once the worker speaks: a notice
	# before that would end it at the USR2 (the next case shrinks it).
	wait_for 10 grep -q "^worker n4 " sp/run/a/output
'

# That a worker told by the notice ends by itself before the grace is the
# real server's to show (t8080, shrink with notice): here the stand-in's
# sessions end them, in time or at the grace.
test_expect_success 'shrink: notice first (hosts file, qsig USR2 then TERM), then qdel; no other worker touched' '
	holes sp 1002 "n[1-2]" && bf-solve -d sp &&
	id3=$(pilot a n3) && id4=$(pilot a n4) &&
	# A grace of 8 s: the workers end at their TERM, at once, but the
	# notice is two stand-in commands (Python) late on a loaded machine.
	mark >m && vg_apply -g 8 >actual &&
	echo "shrink a 4->2 n[1-2]" >expect && test_cmp expect actual &&
	calls_since $(cat m) >calls && cat calls &&
	{
		for id in $id3 $id4; do
			argv 0 qsig -s USR2 $id && argv 0 qsig -s TERM $id &&
			argv 0 qdel -Wsuppress_email=1 $id || exit 1
		done
		argv 0 pbsnodes -a -F json
	} | sort >expect &&
	sort calls >sorted && test_cmp expect sorted &&
	argv 0 pbsnodes -a -F json >expect && tail -1 calls >actual &&
	test_cmp expect actual &&
	# The two pilots stop together (one grace in all), so their calls
	# may interleave.  Each one'"'"'s notice comes before its qdel: the
	# USR2, then the TERM; but a worker that ends at the notice of the
	# hosts file and the USR2 may see its pilot deleted before the TERM
	# is sent (by the supervisor, on its own time), which is moot then.
	for id in $id3 $id4; do
		for c in "qsig -s USR2" "qsig -s TERM" "qdel -Wsuppress_email=1"; do
			grep -n " $c $id$" calls | cut -d: -f1
		done | tr "\n" " " && echo
	done >order && cat order &&
	awk "!(\$1 < \$2 && \$1 < \$3) { bad = 1 } END { exit bad }" order &&
	grep -x "notice n3" sp/run/a/output && grep -x "notice n4" sp/run/a/output &&
	! grep "notice n[12]" sp/run/a/output &&
	test "$(jstate $id3)" = F && test "$(jstate $id4)" = F &&
	printf "n1:1\nn2:1\n" >expect && test_cmp expect sp/run/a/hosts &&
	grep " cancel n3 $id3 R$" sp/run/a/pilots.log &&
	grep " cancel n4 $id4 R$" sp/run/a/pilots.log &&
	wait_for 10 grep -q " exit n3 [0-9]* " sp/run/a/workers.log &&
	wait_for 10 grep -q " exit n4 [0-9]* " sp/run/a/workers.log &&
	wait_for 5 nrunning a 2
'

test_expect_success 'a node running other work gets no pilot' '
	PBS_STANDIN="$TRASH/srv" pbs-standin preempt D n4 &&
	holes sp 1003 "n[1-4]" && bf-solve -d sp &&
	mark >m && apply >actual &&
	echo "grow a 2->4 n[1-4]" >expect && test_cmp expect actual &&
	calls_since $(cat m) >calls &&
	{ argv 0 pbsnodes -a -F json && qsub_line 4321 a n3; } >expect &&
	test_cmp expect calls &&
	grep "hosts: \"n\[1-3\]\"" sp/state.yaml &&
	grep "unobtained: {holes: \"xxh3:[0-9a-f]*\", hosts: \"n4\", since: [0-9]*}" sp/state.yaml &&
	wait_for 10 nrunning a 3
'

test_expect_success 'a pilot deleted by preemption (D) or vanished: its node leaves, the job adopted smaller' '
	id1=$(pilot a n1) && id2=$(pilot a n2) && id3=$(pilot a n3) &&
	PBS_STANDIN="$TRASH/srv" pbs-standin preempt D n1 &&
	PBS_STANDIN="$TRASH/srv" pbs-standin vanish $id2 &&
	mark >m && apply >actual 2>err && test_must_be_empty err &&
	printf "adopt a 1 n3\ngrow a 1->3 n[1-3]\n" >expect &&
	test_cmp expect actual &&
	grep " leave n1 $id1 GONE$" sp/run/a/pilots.log &&
	grep " leave n2 $id2 GONE$" sp/run/a/pilots.log &&
	# The supervisor gives the leaving workers their notice on its own
	# time: a qsig of a gone pilot may come in between, or not yet.
	calls_since $(cat m) >all && cat all &&
	grep -v "^0 qsig -s [A-Z0-9]* \($id1\|$id2\)$" all >calls &&
	{
		argv 0 qdel -Wsuppress_email=1 $id2 &&
		argv 0 qdel -Wsuppress_email=1 $id1 &&
		argv 0 pbsnodes -a -F json && qsub_line 4321 a n2
	} >expect && test_cmp expect calls &&
	printf "n2:1\nn3:1\n" >expect && test_cmp expect sp/run/a/hosts &&
	grep "unobtained: {holes: \"xxh3:[0-9a-f]*\", hosts: \"n\[1,4\]\", since: [0-9]*}" \
		sp/state.yaml &&
	wait_for 5 nrunning a 2
'

test_expect_success 'requeued (R: Q), exiting (E), suspended (S): nodes leaving; none left, the job is preempted, its file kept' '
	holes sp 1004 "n[2-3],n6" && bf-solve -d sp &&
	apply >actual && echo "grow a 2->3 n[2-3,6]" >expect &&
	test_cmp expect actual &&
	id2=$(pilot a n2) && id3=$(pilot a n3) && id6=$(pilot a n6) &&
	PBS_STANDIN="$TRASH/srv" pbs-standin preempt R n2 &&
	PBS_STANDIN="$TRASH/srv" pbs-standin state $id3 E &&
	PBS_STANDIN="$TRASH/srv" pbs-standin preempt S n6 &&
	mark >m && vg_apply >actual 2>err && cat actual err &&
	grep "^preempted a 3->0 " actual &&
	plog a >log &&
	grep " leave n2 $id2 Q$" log && grep " leave n3 $id3 E$" log &&
	grep " leave n6 $id6 S$" log &&
	calls_since $(cat m) >calls && cat calls &&
	for id in $id2 $id3 $id6; do
		grep -x "$(argv 0 qdel -Wsuppress_email=1 $id)" calls || exit 1
		test "$(jstate $id)" = F || exit 1
	done &&
	test -f sp/jobs/a.yaml && grep "^jobs: {}$" sp/state.yaml &&
	grep -l "^outcome: preempted$" sp/history/runs/*-a-*.yaml
'

test_expect_success '--cleanup deletes every pilot of the spool and nothing else' '
	PBS_STANDIN="$TRASH/srv" pbs-standin end n1 n2 n4 n6 &&
	rm -f sp/jobs/a.yaml &&
	holes sp 1005 "n[1-2]" && submit_as 4321 sp b 2 "exec $J" &&
	bf-solve -d sp && apply >actual && echo "start b 0->2 n[1-2]" >expect &&
	test_cmp expect actual &&
	as4321 qsub -q bf -N bf-other -l select=1:host=n3 -- /bin/true >other &&
	as4321 qsub -q bf -N ${TAG%-}x-c -l select=1:host=n4 -- /bin/true >other2 &&
	id1=$(pilot b n1) && id2=$(pilot b n2) &&
	mark >m &&
	if test_valgrind_usable; then
		vg bf-apply -d sp --backend pbs --cleanup >actual
	else
		bf-apply -d sp --backend pbs --cleanup >actual
	fi &&
	printf "cancelled %s ${TAG}b n1\ncancelled %s ${TAG}b n2\n" $id1 $id2 >expect &&
	test_cmp expect actual &&
	calls_since $(cat m) >calls &&
	argv 0 qdel -Wsuppress_email=1 $id1 $id2 >expect && test_cmp expect calls &&
	test "$(jstate $id1)" = F && test "$(jstate $id2)" = F &&
	test "$(jstate $(cat other))" = R && test "$(jstate $(cat other2))" = R &&
	bf-apply -d sp --backend pbs --cleanup >actual && test_must_be_empty actual &&
	test_expect_code 64 bf-apply -d sp --backend local --cleanup 2>err &&
	grep "backend local has no pilot jobs" err &&
	PBS_STANDIN="$TRASH/srv" qdel $(cat other other2)
'

test_expect_success 'not root: the owner'"'"'s own bf-apply submits, polls and deletes as itself' '
	kill_jobs sp &&
	mkspool sp4321 && chown -R 4321:4321 sp4321 &&
	holes sp4321 1000 "n5,n6" && job sp4321 c 2 "exec $J" &&
	chown 4321:4321 sp4321/incoming/c.yaml &&
	as4321 bf-submit --intake -d sp4321 2>/dev/null &&
	as4321 bf-solve -d sp4321 &&
	mark >m && as4321 bf-apply -d sp4321 -g 2 --backend pbs >actual &&
	echo "start c 0->2 n[5-6]" >expect && test_cmp expect actual &&
	grep "hosts: \"n6\"" sp4321/state.yaml &&
	sed -n "$(($(cat m) + 1)),\$p" srv/argv.log >calls && cat calls &&
	! grep -v "^4321 " calls &&
	tag=$(printf "bf-%s-" "$(printf %s "$(cd sp4321 && pwd -P)" | xxhsum -H3 |
		sed "s/.* = //; s/^\(........\).*/\1/")") &&
	grep -xF "$(qsub_line 4321 c n5 $tag)" calls &&
	grep -xF "$(qsub_line 4321 c n6 $tag)" calls &&
	grep -x "4321 qdel -Wsuppress_email=1 [0-9]*\.$SERVER" calls &&
	grep " cancel n5 [0-9]*\.$SERVER Q$" sp4321/run/c/pilots.log &&
	holes sp4321 1001 "" && as4321 bf-solve -d sp4321 &&
	mark >m && as4321 bf-apply -d sp4321 -g 2 --backend pbs >actual &&
	printf "stop c 1->0 plan\npreempted c 1->0 exit 0\n" >expect &&
	test_cmp expect actual &&
	sed -n "$(($(cat m) + 1)),\$p" srv/argv.log >calls && cat calls &&
	! grep -v "^4321 " calls &&
	grep "^4321 qdel -Wsuppress_email=1 " calls
'

test_expect_success 'PBS 12 and older (15-character job names): refused by qsub, then BF_PBS_NAME_MAX=15' '
	PBS_STANDIN_NAME_MAX=15 && export PBS_STANDIN_NAME_MAX &&
	apply >/dev/null 2>&1; rm -f sp/jobs/b.yaml &&
	holes sp 1006 "n[1-2]" && submit_as 4321 sp resnet 2 "exec $J" &&
	bf-solve -d sp &&
	test_expect_code 75 apply >actual 2>err && cat actual err &&
	grep "^bf-apply: qsub exited with status 2: qsub: illegal -N value$" err &&
	BF_PBS_NAME_MAX=15 apply >actual 2>err && cat actual err &&
	grep "^start resnet 0->2 n\[1-2\]$" actual &&
	short=$(printf "bf%s" "$(echo "$TAG" | cut -c4-8)") &&
	hash=$(printf %s resnet | xxhsum -H3 | sed "s/.* = //; s/^\(........\).*/\1/") &&
	grep -xF "$(qsub_line 4321 "" n1 $short$hash)" srv/argv.log &&
	test ${#short} = 7 && test $(printf %s "$short$hash" | wc -c) = 15 &&
	BF_PBS_NAME_MAX=15 bf-apply -d sp --backend pbs --cleanup >actual &&
	test $(grep -c "^cancelled [0-9]*\.$SERVER $short$hash n[12]$" actual) = 2 &&
	test_expect_code 78 env BF_PBS_NAME_MAX=14 bf-apply -d sp --backend pbs 2>err &&
	grep "BF_PBS_NAME_MAX .14. is not a number of characters from 15" err
'
unset PBS_STANDIN_NAME_MAX

test_expect_success 'PBS job ids in the state: read back by bf-solve, a bad one refused' '
	kill_jobs sp && apply >/dev/null 2>&1;
	holes sp 1007 "n[1-2]" && bf-solve -d sp && apply >actual && cat actual &&
	grep "pilots: {n1: [0-9]*\.$SERVER, n2: [0-9]*\.$SERVER}" sp/state.yaml &&
	bf-solve -d sp && cp sp/state.yaml good.yaml &&
	sed "s/pilots: {n1: \([0-9]*\)\./pilots: {n1: \1\/x./" good.yaml >sp/state.yaml &&
	test_expect_code 65 bf-solve -d sp 2>err && cat err &&
	grep "state.yaml:[0-9]*: pilot id" err &&
	cp good.yaml sp/state.yaml && bf-solve -d sp
'

test_expect_success 'a start no pilot of which runs is skipped, its node not asked for again' '
	holes sp 1008 "n[1-2],n5" && submit_as 4321 sp e 1 "exec $J" &&
	bf-solve -d sp && grep "^  e: {nodes: 1, was: 0, hosts: \"n5\"}" sp/plans/current.yaml &&
	mark >m && apply >actual && cat actual &&
	printf "start e 0->1 n5\nskipped e 0->1 job e: none of its 1 nodes could be held (no pilot job ran)\n" >expect &&
	test_cmp expect actual &&
	grep "^unobtained: {holes: \"xxh3:[0-9a-f]*\", hosts: \"n5\", since: [0-9]*}$" sp/state.yaml &&
	calls_since $(cat m) >calls &&
	grep -c " qsub " calls >n && echo 1 >expect && test_cmp expect n &&
	grep " cancel n5 [0-9]*\.$SERVER Q$" sp/run/e/pilots.log &&
	bf-solve -d sp && ! grep "^  e: .*hosts" sp/plans/current.yaml &&
	apply >actual && test_must_be_empty actual &&
	rm sp/jobs/e.yaml && apply >actual &&
	echo "lost e 0->0 never started" >expect && test_cmp expect actual
'

test_expect_success 'the server not answering: a poll changes nothing, a start fails (75)' '
	cp sp/state.yaml before && touch srv/down &&
	apply >actual 2>err && test_must_be_empty actual && cat err &&
	test_cmp before sp/state.yaml &&
	holes sp 1009 "n[1-3]" && submit_as 4321 sp f 1 "exec $J" &&
	bf-solve -d sp && grep "^  f: {nodes: 1, was: 0, hosts: \"n3\"}" sp/plans/current.yaml &&
	test_expect_code 75 apply >actual 2>err && cat actual err &&
	echo "start f 0->1 n3" >expect && test_cmp expect actual &&
	echo "bf-apply: qstat exited with status 1: qstat: cannot connect to server $SERVER (errno=15010)" >expect &&
	test_cmp expect err &&
	rm srv/down && apply >actual && echo "start f 0->1 n3" >expect &&
	test_cmp expect actual
'

# Every scheduler command has BF_SCHED_TIMEOUT seconds: one that hangs is
# killed with its process group, said, and is a failure to retry (75).
elapsed_below() {	# start secs
	awk -v s="$1" -v now="$(date +%s.%N)" -v m="$2" \
		'BEGIN { d = now - s; print "elapsed " d " s"; exit !(d < m) }'
}
gone() {	# pid...
	for _p in "$@"; do
		! alive "$_p" || { echo "pid $_p still runs" >&2; return 1; }
	done
}
# Bounds of 5 s: the stand-ins are Python, and under ASan on a loaded
# machine a qstat of theirs took over 2 s (2026-11-29).
test_expect_success 'a hung qdel (the -1 of qdel -Wsuppress_email) or qstat is killed at BF_SCHED_TIMEOUT: bf-apply exits 75 at once' '
	grep "^  f: " sp/state.yaml &&
	{ PBS_STANDIN="$TRASH/srv" qdel -Wsuppress_email=-1 1.x & } &&
	qpid=$! &&
	wait_for 5 test -s srv/hung.qdel && sleep 1 && alive $qpid &&
	kill -KILL $qpid &&
	echo qdel >srv/hang &&
	t0=$(date +%s.%N) &&
	BF_SCHED_TIMEOUT=5 test_expect_code 75 bf-apply -d sp --backend pbs \
		--cleanup >actual 2>err &&
	elapsed_below $t0 14 && cat err &&
	{
		echo "bf-apply: qdel: no answer in 5 s (BF_SCHED_TIMEOUT); killed; will retry" &&
		echo "bf-apply: qdel: no answer in 5 s (BF_SCHED_TIMEOUT); killed"
	} >expect && test_cmp expect err &&
	test $(wc -l <srv/hung.qdel) = 2 && gone $(cat srv/hung.qdel) &&
	echo qstat >srv/hang && t0=$(date +%s.%N) &&
	BF_SCHED_TIMEOUT=5.5 test_expect_code 75 bf-apply -d sp --backend pbs \
		--cleanup >actual 2>err &&
	elapsed_below $t0 9 &&
	grep -x "bf-apply: qstat: no answer in 5.5 s (BF_SCHED_TIMEOUT); killed" err &&
	gone $(cat srv/hung.qstat)
'

test_expect_success 'bf-holes: a hung pbsnodes, sinfo or a Slurm command is killed at BF_SCHED_TIMEOUT (75)' '
	t0=$(date +%s.%N) &&
	BF_SCHED_TIMEOUT=1 test_expect_code 75 bf-holes --pbs \
		--pbsnodes "echo \$\$ >pbsnodes.pid; sleep 100 & echo \$! >>pbsnodes.pid; wait" \
		--qstat true --pbs-rstat true >out 2>err &&
	elapsed_below $t0 3 && cat err &&
	echo "bf-holes: pbsnodes: no answer in 1 s (BF_SCHED_TIMEOUT); killed; is the PBS server answering?" >expect &&
	test_cmp expect err &&
	test $(wc -l <pbsnodes.pid) = 2 && gone $(cat pbsnodes.pid) &&
	t0=$(date +%s.%N) &&
	BF_SCHED_TIMEOUT=1 test_expect_code 75 bf-holes --slurm \
		--sinfo "echo \$\$ >sinfo.pid; exec sleep 100" --squeue true \
		>out 2>err &&
	elapsed_below $t0 3 && grep "^bf-holes: sinfo: no answer in 1 s (BF_SCHED_TIMEOUT); killed" err &&
	gone $(cat sinfo.pid) &&
	mkdir -p hungslurm && printf "#!/bin/sh\necho \\$\\$ >>$TRASH/squeue.pid\nexec sleep 100\n" >hungslurm/squeue &&
	chmod 755 hungslurm/squeue && t0=$(date +%s.%N) &&
	PATH="$TRASH/hungslurm:$PATH" BF_SCHED_TIMEOUT=1 test_expect_code 75 \
		bf-apply -d sp --backend slurm --cleanup >out 2>err &&
	elapsed_below $t0 3 && cat err &&
	grep -x "bf-apply: squeue: no answer in 1 s (BF_SCHED_TIMEOUT); killed" err &&
	gone $(cat squeue.pid)
'

test_expect_success 'bf-watch with qstat hanging: each poll killed at the bound, SIGTERM obeyed within it' '
	echo "qstat" >srv/hang && rm -f srv/hung.qstat &&
	{ BF_SCHED_TIMEOUT=2 bf-watch -d sp --backend pbs -g 2 -r 1 \
		--no-profile 2>watch.log & } &&
	tpid=$! && echo $tpid >watch.pid &&
	wait_for 10 test -s srv/hung.qstat &&
	wait_for 10 eval "[ \$(wc -l <srv/hung.qstat) -ge 2 ]" &&
	gone $(sed \$d srv/hung.qstat) &&
	grep "qstat: no answer in 2 s (BF_SCHED_TIMEOUT); killed; will retry" watch.log &&
	wait_for 5 eval "[ \$(wc -l <srv/hung.qstat) -ge 3 ]" &&
	t0=$(date +%s.%N) && kill -TERM $tpid &&
	wait $tpid && elapsed_below $t0 3 &&
	gone $(cat srv/hung.qstat) && cat watch.log &&
	rm srv/hang && apply >actual 2>err && test_must_be_empty err
'

# The supervisor sends a shrink's notice (qsig USR2, then TERM) through a
# child of its own, under the same bound as every scheduler command.
test_expect_success 'a hung qsig of a shrink'"'"'s notice is killed at BF_SCHED_TIMEOUT, said in the job'"'"'s output; the shrink is done' '
	holes sp 1029 && bf-solve -d sp && apply >actual && cat actual &&
	grep -q "^jobs: {}$" sp/state.yaml &&
	rm sp/jobs/f.yaml sp/jobs/resnet.yaml && holes sp 1030 "n[1-2]" &&
	submit_as 4321 sp g 2 "exec $J" "worker: exec $W" &&
	bf-solve -d sp && BF_SCHED_TIMEOUT=3 apply >actual && cat actual &&
	grep -x "start g 0->2 n\[1-2\]" actual &&
	wait_for 10 nrunning g 2 &&
	echo qsig >srv/hang && rm -f srv/hung.qsig &&
	holes sp 1031 n1 && bf-solve -d sp &&
	BF_SCHED_TIMEOUT=3 apply >actual && cat actual &&
	grep -x "shrink g 2->1 n1" actual &&
	wait_for 10 test -s srv/hung.qsig &&
	wait_for 10 gone $(cat srv/hung.qsig) &&
	wait_for 10 grep -x "bf-apply: qsig: no answer in 3 s (BF_SCHED_TIMEOUT); killed" \
		sp/run/g/output &&
	test $(wc -l <srv/hung.qsig) = 1 &&
	printf "n1:1\n" >expect && test_cmp expect sp/run/g/hosts &&
	wait_for 10 nrunning g 1 &&
	rm srv/hang
'

cleanup_all
test_done
