#!/bin/sh
# bf-apply: actions from plan and state, the state written after each, the
# local backend's run/ files, idempotence, -n, stale plans, history.
. "$(dirname "$0")/lib.sh"

apply() {
	bf-apply -d sp -g 2 --allow-root-jobs "$@"
}

test_expect_success 'setup: holes, two jobs, a plan' '
	mkspool sp &&
	holes sp 1000 "n[01-04]" &&
	job sp a 2 "exec $J" && job sp b 2 "exec $J" "slots_per_node: 4" &&
	bf-submit --intake -d sp 2>/dev/null &&
	bf-solve -d sp &&
	cat >expect <<-\EOT &&
	start a 0->2 n[01-02]
	start b 0->2 n[03-04]
	EOT
	true
'

test_expect_success '-n prints the actions and changes nothing' '
	find sp | sort >before &&
	apply -n >actual &&
	test_cmp expect actual &&
	find sp | sort >after &&
	test_cmp before after
'

test_expect_success 'the plan is carried out: state, hosts, environment' '
	apply >actual &&
	test_cmp expect actual &&
	cat >expect <<-\EOT &&
	time: T
	jobs:
	  a: {nodes: 2, hosts: "n[01-02]"}
	  b: {nodes: 2, hosts: "n[03-04]"}
	EOT
	mask_state sp/state.yaml >actual &&
	test_cmp expect actual &&
	printf "n01:1\nn02:1\n" >expect && test_cmp expect sp/run/a/hosts &&
	printf "n03:4\nn04:4\n" >expect && test_cmp expect sp/run/b/hosts &&
	bf-hosts -d sp b >actual && test_cmp expect actual &&
	wait_for 5 grep -q "^start a nodes=2 uid=0 gid=0$" sp/run/a/output &&
	state_true sp &&
	wait_for 5 test -s sp/progress/a.log &&
	find sp/tmp -type f >left && test_must_be_empty left
'

test_expect_success 'the job gets a clean environment and its own group' '
	unset BF_COORD_HOST SLURM_CONF &&
	job sp env 1 "env | sort; sleep 30" &&
	bf-submit --intake -d sp 2>/dev/null &&
	holes sp 1001 "n[01-05]" &&
	bf-solve -d sp && apply >/dev/null &&
	wait_for 5 grep -q "^SHELL=" sp/run/env/output &&
	sp_abs=$(cd sp && pwd) &&
	port=$(sed -n "s/^BF_COORD_PORT=//p" sp/run/env/output) &&
	test "$port" -gt 0 && test "$port" -lt 65536 &&
	secret=$(sed -n "s/^BF_SECRET=//p" sp/run/env/output) &&
	echo "$secret" | grep -qx "[0-9a-f]\{32\}" &&
	host=$(hostname) &&
	cat >expect <<-EOT &&
	BF_COMMAND=env | sort; sleep 30
	BF_COORD=$host:$port
	BF_COORD_HOST=$host
	BF_COORD_PORT=$port
	BF_HOSTFILE=$sp_abs/run/env/hosts
	BF_JOB=env
	BF_MAX_NODES=1
	BF_MIN_NODES=1
	BF_NODES=1
	BF_PROGRESS=$sp_abs/progress/env.log
	BF_SECRET=$secret
	BF_SLOTS=1
	BF_SPOOL=$sp_abs
	HOME=/root
	LOGNAME=root
	PATH=/usr/local/bin:/usr/bin:/bin
	PWD=/root
	SHELL=/bin/sh
	USER=root
	EOT
	grep -v "^_=\|^SHLVL=" sp/run/env/output >actual &&
	test_cmp expect actual &&
	pgid=$(sed -n "s/^pgid: //p" sp/run/env/pid) &&
	sup=$(sed -n "s/^supervisor: //p" sp/run/env/pid) &&
	test "$(ps -o pgid= -p "$pgid" | tr -d " ")" = "$pgid" &&
	test "$(ps -o sid= -p "$sup" | tr -d " ")" = "$sup"
'

test_expect_success 'applying the same plan again does nothing' '
	cp sp/state.yaml state.before &&
	ls -R sp/history >hist.before &&
	apply >actual &&
	test_must_be_empty actual &&
	test_cmp state.before sp/state.yaml &&
	ls -R sp/history >hist.after && test_cmp hist.before hist.after
'

test_expect_success 'the enacted plan and its inputs are in history/' '
	plan=sp/plans/current.yaml &&
	t=$(sed -n "s/^time: //p" $plan) &&
	h=$(xxhsum -H3 $plan | sed "s/.* = //") &&
	test_cmp $plan sp/history/$t-$h.yaml &&
	mps=$(sed -n "s/.*, mps: \([^}]*\)}$/\1/p" $plan) &&
	test_cmp "sp/$mps" sp/history/$t-$h.mps &&
	for f in sp/jobs/*.yaml sp/holes/current.yaml; do
		test_cmp "$f" sp/history/objects/$(xxhsum -H3 "$f" | sed "s/.* = //") || exit 1
	done &&
	grep "^plan: \"xxh3:$h\"$" sp/history/$t-$h.inputs.yaml &&
	e=$(sed -n "s/^enacted: //p" sp/history/$t-$h.inputs.yaml) &&
	echo "$e" | grep -Eq "^[0-9]+\.[0-9]{6}$" &&
	now=$(date +%s) &&
	test "${e%.*}" -le "$now" && test "${e%.*}" -ge $((now - 600)) &&
	grep "^  env: \"xxh3:$(xxhsum -H3 sp/jobs/env.yaml | sed "s/.* = //")\"$" sp/history/$t-$h.inputs.yaml &&
	bf-audit -d sp $t-$h >actual &&
	echo "history/$t-$h.yaml: identical" >expect && test_cmp expect actual &&
	bf-audit -d sp --log >log &&
	test_line_count() { test $(wc -l <"$2") -eq "$1"; } &&
	test_line_count 2 log &&
	sed -n 1p log | grep "objective [0-9.]*: a 0->2, b 0->2$" &&
	sed -n 2p log | grep "objective [0-9.]*: env 0->1$"
'

test_expect_success 'a tampered object is found out' '
	obj=$(ls sp/history/objects | head -n 1) &&
	cp sp/history/objects/$obj obj.saved &&
	chmod u+w sp/history/objects/$obj && echo x >>sp/history/objects/$obj &&
	first=$(ls sp/history | grep "^[0-9]*-[0-9a-f]*\.yaml$" | head -n 1) &&
	if grep -q "xxh3:$obj" sp/history/${first%.yaml}.inputs.yaml; then
		test_expect_code 65 bf-audit -d sp $first 2>err &&
		grep "content does not match its name" err
	fi &&
	cp obj.saved sp/history/objects/$obj
'

test_expect_success 'a plan whose inputs changed is stale: 75, nothing done' '
	holes sp 1002 "n[01-03]" &&
	cp sp/state.yaml before &&
	bf-solve -d sp && apply -n >actions && test -s actions &&
	holes sp 1003 "n[01-04]" &&
	test_expect_code 75 apply >out 2>err &&
	test_must_be_empty out &&
	echo "bf-apply: the plan is stale: holes changed since it was made (run bf-solve)" >expect &&
	test_cmp expect err &&
	test_cmp before sp/state.yaml
'

test_expect_success 'grow and shrink rewrite the hosts files' '
	holes sp 1004 "n[02-04],n[06-09]" &&
	bf-solve -d sp && apply >actual &&
	cat >expect <<-\EOT &&
	move a 2->2 n[02,06]
	move env 1->1 n07
	EOT
	test_cmp expect actual &&
	state_true sp &&
	printf "n02:1\nn06:1\n" >expect && test_cmp expect sp/run/a/hosts &&
	bf-hosts -d sp env >actual && echo n07:1 >expect && test_cmp expect actual &&
	! grep -q "n01\|n05" sp/run/*/hosts
'

test_expect_success 'the plan stops a job: preempted, its job file kept' '
	holes sp 1005 "" &&
	bf-solve -d sp && apply >actual &&
	grep "^stop a [0-9]->0 plan$" actual &&
	grep "^preempted a [0-9]->0 exit 0$" actual &&
	grep "^preempted b [0-9]->0 exit 0$" actual &&
	grep "^preempted env [0-9]->0 signal 15$" actual &&
	mask_state sp/state.yaml >actual &&
	printf "time: T\njobs: {}\n" >expect && test_cmp expect actual &&
	test -f sp/jobs/a.yaml && test ! -d sp/run/a &&
	rec=$(ls sp/history/runs/*-a-[0-9]*.yaml) &&
	grep "^outcome: preempted$" $rec && grep "^exit: 0$" $rec &&
	grep "^stop a$" "${rec%.yaml}/output"
'

# A job of one node, COMMAND, taken in and started from holes at TIME;
# what bf-apply said in actual.
start_one() {	# name command time
	job sp "$1" 1 "$2" &&
	bf-submit --intake -d sp 2>/dev/null &&
	holes sp "$3" "n[01-02]" &&
	bf-solve -d sp && apply >actual &&
	grep "^start $1 0->1 " actual
}

# The job may fail before the bf-apply that started it looks for ended
# runs (a loaded machine), and be retired by that same run: then one
# record, whichever run found it.
test_expect_success 'a command that fails at once: failed, exit status kept' '
	start_one f "$J fail" 1006 &&
	if ! grep -q "^failed f " actual; then
		wait_for 5 test -f sp/run/f/exit &&
		wait_for 5 flock -n -s sp/run/f/lock true &&
		apply >>actual 2>&1
	fi &&
	test "$(grep -c "^failed f 1->0 exit 3$" actual)" -eq 1 &&
	test "$(grep -c " f " actual)" -eq 2 &&
	test ! -f sp/jobs/f.yaml && test ! -d sp/run/f &&
	rec=$(ls sp/history/runs/*-f-[0-9]*.yaml) &&
	grep "^outcome: failed$" $rec && grep "^exit: 3$" $rec &&
	grep "^job: \"xxh3:" $rec &&
	! grep -q "^  f:" sp/state.yaml
'

# A run's records are YAML: an exit record in flow style, not the
# "key: N" lines it is written as, is read all the same.
test_expect_success 'an exit record in another YAML form: read all the same' '
	start_one g "sleep 1; exit 3" 1007 &&
	wait_for 10 test -f sp/run/g/exit &&
	wait_for 5 flock -n -s sp/run/g/lock true &&
	ended=$(sed -n "s/^ended: //p" sp/run/g/exit) &&
	printf "{ended: %s, code: 3}\n" "$ended" >sp/run/g/exit &&
	apply >actual &&
	grep -x "failed g 1->0 exit 3" actual &&
	rec=$(ls sp/history/runs/*-g-[0-9]*.yaml) &&
	grep "^exit: 3$" $rec && grep "^ended: $ended$" $rec
'

# dash forks a command line's last command rather than replacing itself:
# a command written without exec runs under the shell that evals it.  On a
# stop, that shell waits for the command to end (it traps SIGTERM, and only
# then ends by it), so that its end is not the job's end while the command
# still saves its work: the supervisor kills what is left of a job (SIGKILL
# to its group) once its shell ended.  Here the command saves for a second
# after its SIGTERM, within the grace of 2 s.
test_expect_success 'a command run without exec saves its work on a stop: its shell waits for it' '
	cat >slow.sh <<-\EOT &&
	trap "sleep 1; echo saved >\"\$1.saved\"; exit 0" TERM
	echo >"$1.ready"
	sleep 1000 & wait
	EOT
	start_one slow "/bin/sh $PWD/slow.sh $PWD/slow" 1008 &&
	wait_for 10 test -f slow.ready &&
	holes sp 1009 "" &&
	bf-solve -d sp && apply >actual &&
	cat actual &&
	grep -x "stop slow 1->0 plan" actual &&
	grep -x "preempted slow 1->0 signal 15" actual &&
	test "$(cat slow.saved)" = saved &&
	! pgrep -f "$PWD/slow.sh" &&
	rm sp/jobs/slow.yaml && holes sp 1010 "n[01-02]"
'

# Started without standard streams (a cron line with <&- >&-), bf-apply
# opens /dev/null there first: its spool's descriptors never take 0, 1
# or 2, it says its actions to nobody and exits 0 (before, the spool's
# directory was its standard output: exit 74, "Bad file descriptor"),
# and the job's standard input is /dev/null.
test_expect_success 'a bf-apply run without standard streams: exit 0, the job has /dev/null as input' '
	rm -f noin.fd0 &&
	job sp noin 1 "readlink /proc/\$\$/fd/0 >$PWD/noin.fd0; exit 3" &&
	bf-submit --intake -d sp 2>/dev/null &&
	holes sp 1011 "n[01-02]" &&
	bf-solve -d sp &&
	apply <&- >&- 2>err &&
	test_must_be_empty err &&
	wait_for 10 test -s noin.fd0 &&
	echo /dev/null >expect && test_cmp expect noin.fd0 &&
	wait_for 10 eval "test -f sp/run/noin/exit || ! test -d sp/run/noin" &&
	wait_for 5 eval "! test -d sp/run/noin || flock -n -s sp/run/noin/lock true" &&
	apply >/dev/null 2>&1 &&
	test ! -d sp/run/noin && ls sp/history/runs/*-noin-[0-9]*.yaml
'

test_expect_success 'a job that reached its samples is stopped: finished' '
	rm -f sp/progress/a.log &&
	job sp done 1 "exec $J" "samples: 300" &&
	bf-submit --intake -d sp 2>/dev/null &&
	bf-solve -d sp && apply >/dev/null 2>&1 &&
	wait_for 5 eval "test \$(tail -n 1 sp/progress/done.log | cut -d\" \" -f3) -ge 300" &&
	apply >actual 2>&1 &&
	grep "^stop done 1->0 done$" actual &&
	grep "^finished done 1->0 exit 0$" actual &&
	test ! -f sp/jobs/done.yaml
'

if test_have_root; then
	test_expect_success 'as root, a root-owned job is refused without --allow-root-jobs' '
		kill_jobs sp && bf-apply -d sp >/dev/null 2>&1;
		holes sp 1007 "n[01-04]" && bf-solve -d sp &&
		test_expect_code 78 bf-apply -d sp >out 2>err &&
		grep "^refused a jobs/a.yaml: owned by root; not run (bf-apply --allow-root-jobs)$" out &&
		grep "^bf-apply: jobs/a.yaml: owned by root; not run" err &&
		test ! -d sp/run/a
	'
else
	test_skip 'as root, a root-owned job is refused without --allow-root-jobs' \
		'needs root: the jobs here are owned by the user running the tests'
fi

test_expect_success 'a second bf-apply while one holds the lock: 75' '
	exec 9>sp/lock && flock -x 9 &&
	test_expect_code 75 bf-apply -d sp 2>err.lock &&
	grep "is locked by pid" err.lock
'

test_expect_success 'cleanup' '
	kill_jobs sp
'

# A new spool "many" of 150 one-node jobs, j100 to j249 (the jobs of the
# one there before killed).  They sleep: 150 of job.sh, each forking three
# programs ten times a second, kept a 2-core machine at a load of 150.
many_jobs() {
	kill_jobs many && rm -rf many && mkspool many &&
	i=100 && while [ $i -lt 250 ]; do
		job many j$i 1 "exec sleep 100000" || return 1
		i=$((i + 1))
	done &&
	bf-submit --intake -d many 2>/dev/null
}

# The first record of a spool stores every job file as an object; the
# files of a record are written, then synced together, but no more than
# 64 are held open at once: 150 new jobs under 100 descriptors.
test_expect_success 'a first record of 150 new job objects, 100 descriptors' '
	many_jobs &&
	holes many 9001 n01 && bf-solve -d many &&
	(ulimit -n 100 && bf-apply -d many --allow-root-jobs >out) &&
	test $(grep -c "^  j[0-9]*: \"xxh3:" many/history/*.inputs.yaml) -eq 150 &&
	for o in $(sed -n "s/^  j[0-9]*: \"xxh3:\(.*\)\"$/\1/p" \
	    many/history/*.inputs.yaml); do
		test -f many/history/objects/$o || exit 1
	done &&
	test $(grep -c "^start " out) -eq 1 && state_true many &&
	kill_jobs many
'

# A plan that starts 150 jobs, under 100 descriptors: their hosts files
# are one group (64 held open at most, no run/NAME/ held open), and at
# most 64 starts are begun at once (each holds a pipe until it is waited
# for).  Both failed with EMFILE before (exit 74, no state written).
test_expect_success 'a plan of 150 starts, 100 descriptors: all started' '
	many_jobs &&
	holes many 9002 "n[001-150]" && bf-solve -d many &&
	(ulimit -n 100 && bf-apply -d many -g 2 --allow-root-jobs >out) &&
	test $(grep -c "^start j[0-9]* 0->1 n[0-9]*$" out) -eq 150 &&
	test $(grep -c "^  j[0-9]*: {nodes: 1," many/state.yaml) -eq 150 &&
	state_true many &&
	for f in many/run/*/pid; do
		! flock -n -s "${f%/pid}/lock" true || exit 1
	done &&
	kill_jobs many
'

test_done
