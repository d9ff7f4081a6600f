#!/bin/sh
# bf-watch makes the spool work by itself: jobs dropped into incoming/ and
# holes files landing in holes/ start, grow, shrink and finish jobs, with
# their hosts files right; one watcher per spool; SIGTERM exits 0.
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: a watcher on a new spool' '
	start_watch sp &&
	test -d sp/incoming && test -d sp/run
'

test_expect_success 'a second watcher exits 75 naming the first' '
	test_expect_code 75 bf-watch -d sp 2>err &&
	echo "bf-watch: sp is locked by pid $(cat watch.pid) (a bf-watch or intake is running)" >expect &&
	test_cmp expect err
'

test_expect_success 'jobs dropped and holes landing: the jobs start' '
	job sp a 4 "exec $J" "samples: 48000" &&
	job sp b 4 "exec $J" "samples: 48000" &&
	wait_for 5 test -f sp/jobs/b.yaml &&
	holes sp 1000 "n[01-02]" &&
	wait_for 10 grep -q "^  b: {nodes: 1," sp/state.yaml &&
	wait_for 5 grep -q "^  a: {nodes: 1," sp/state.yaml &&
	state_true sp &&
	test ! -f sp/incoming/a.yaml &&
	wait_for 10 grep -q "decision: trigger .*start" watch.log
'

# bf-watch forks no supervisor itself: its launcher (launcher.h), forked
# at its start, forks them.  Its other child is CBC's solver server
# (milp.h), named bf-cbc, which holds no descriptor but its socket.
children() {	# pid: its children's pids, one per line, but the server
	ps -o pid=,comm= --ppid "$1" | awk '$2 != "bf-cbc" { print $1 }'
}
test_expect_success 'the supervisors are the launcher'"'"'s children; the watcher'"'"'s other child, the solver server' '
	ps -o pid= --ppid $(cat watch.pid) | tr -d " " >all &&
	test $(wc -l <all) -eq 2 &&
	children $(cat watch.pid) >kids && test $(wc -l <kids) -eq 1 &&
	l=$(cat kids) && grep -q bf-watch /proc/$l/cmdline &&
	for j in a b; do
		s=$(sed -n "s/^supervisor: //p" sp/run/$j/pid) &&
		test "$(ppid $s)" = "$l" || exit 1
	done &&
	echo $l >launcher.pid &&
	c=$(grep -vx "$l" all) &&
	test "$(ps -o comm= -p $c)" = bf-cbc &&
	ls /proc/$c/fd | sort -n >fds && test $(wc -l <fds) -eq 4 &&
	readlink /proc/$c/fd/$(tail -n 1 fds) | grep -q "^socket:" &&
	test -z "$(ps -o pid= --ppid $c)"
'

test_expect_success 'more holes: the jobs grow' '
	holes sp 1001 "n[01-06]" &&
	wait_for 10 eval "test \$(held sp) -eq 6" &&
	state_true sp &&
	cat sp/run/a/hosts sp/run/b/hosts | sort >actual &&
	printf "n0%s:1\n" 1 2 3 4 5 6 >expect && test_cmp expect actual
'

test_expect_success 'nodes taken back: the jobs shrink off them' '
	holes sp 1002 "n[01-03]" &&
	wait_for 10 eval "test \$(held sp) -eq 3" &&
	state_true sp &&
	cat sp/run/a/hosts sp/run/b/hosts | sort >actual &&
	wait_for 10 grep "decision: trigger holes; .*shrink" watch.log &&
	printf "n0%s:1\n" 1 2 3 >expect && test_cmp expect actual
'

# While idle, the watcher makes the files of its next decisions ahead in
# tmp/ (file.h's pool): empty, its own, "pool.PID.*".  The next plan is
# one of them: its inode is one of theirs, taken once they stood still.
pool_files() {	# spool pid
	find "$1/tmp" -maxdepth 1 -name "pool.$2.*" -type f -empty -user "$(id -u)" |
		wc -l
}
pool_inodes() {	# spool pid
	find "$1/tmp" -maxdepth 1 -name "pool.$2.*" -type f -empty \
		-user "$(id -u)" -printf "%i\n" | sort
}
test_expect_success 'idle, the watcher has made files ahead in tmp/; the next plan is one' '
	p=$(cat watch.pid) &&
	wait_for 10 eval "pool_inodes sp $p >ino.1 && test \$(wc -l <ino.1) -ge 16 &&
	    sleep 0.5 && pool_inodes sp $p >ino.2 && cmp -s ino.1 ino.2" &&
	test -z "$(find sp/tmp -mindepth 1 ! -name "pool.$p.*")" &&
	holes sp 1003 "n[01-03]" &&
	wait_for 10 grep -q "^time: 1003$" sp/plans/current.yaml &&
	grep -qx "$(stat -c %i sp/plans/current.yaml)" ino.2
'

# bf-watch remembers each run's hosts file by its stat, not its name:
# one replaced under it (as a pilot's backend does when a node is lost)
# is read again, and the job adopted with what the file now says.
test_expect_success 'a hosts file replaced under the watcher: read again, adopted' '
	for j in a b; do
		[ $(wc -l <sp/run/$j/hosts) -ge 2 ] && break
	done &&
	was=$(wc -l <sp/run/$j/hosts) &&
	head -n 1 sp/run/$j/hosts >sp/tmp/hosts.new &&
	mv sp/tmp/hosts.new sp/run/$j/hosts &&
	wait_for 10 grep -q "adopt $j $was->1" watch.log &&
	wait_for 10 eval "test \$(held sp) -eq 3" && state_true sp
'

# a and b run long enough (48,000 samples) to be shrunk and adopted above
# on a slow build; the cases below start jobs of their own on the nodes
# a and b leave at their samples.
test_expect_success 'the launcher killed: the next start has a new one, and the log says so' '
	wait_for 90 eval "test -z \"\$(ls sp/run)\"" &&
	l=$(cat launcher.pid) &&
	kill -KILL $l && wait_for 5 eval "! alive $l" &&
	job sp f0 1 "exec $J fail" &&
	wait_for 15 eval "ls -d sp/history/runs/*-f0-[0-9]*/" &&
	grep "^outcome: failed$" sp/history/runs/*-f0-[0-9]*.yaml &&
	grep -q "^bf-watch: the launcher of supervisors is gone (" watch.log &&
	children $(cat watch.pid) >kids && test $(wc -l <kids) -eq 1 &&
	n=$(cat kids) && test "$n" != "$l" &&
	grep -q bf-watch /proc/$n/cmdline && echo $n >launcher.pid
'

# Idle, the launcher forks warm supervisors ahead (launcher.h): each in a
# session of its own, its one child (its job's process, in a group of its
# own) not yet run: its command line is still bf-watch's.
warm() {	# spool launcher: the launcher's children that supervise no job
	for _k in $(children "$2"); do
		cat "$1"/run/*/pid 2>/dev/null | grep -qx "supervisor: $_k" ||
			echo "$_k"
	done
}
warm_pairs() {	# spool launcher: "SUPERVISOR JOB" of each warm one
	for _w in $(warm "$1" "$2"); do
		[ "$(ps -o sid= -p "$_w" | tr -d " ")" = "$_w" ] || return 1
		_c=$(children "$_w")
		[ -n "$_c" ] && [ "$(echo "$_c" | wc -l)" -eq 1 ] &&
		[ "$(ps -o pgid= -p "$_c" | tr -d " ")" = "$_c" ] &&
		tr "\0" " " <"/proc/$_c/cmdline" | grep -q "^[^ ]*bf-watch " ||
			return 1
		echo "$_w $_c"
	done
}
test_expect_success 'idle, the launcher holds 4 warm supervisors, each with its job process waiting' '
	l=$(cat launcher.pid) &&
	wait_for 10 eval "test \$(warm sp $l | wc -l) -eq 4" &&
	warm_pairs sp $l >warm.pairs && test $(wc -l <warm.pairs) -eq 4
'

test_expect_success 'a start is handed to a warm one: its job is that process, with its output and exit' '
	job sp w1 1 "echo out-\$BF_JOB; echo err-\$BF_JOB >&2; exec $J fail" &&
	wait_for 15 eval "ls -d sp/history/runs/*-w1-[0-9]*/" &&
	r=$(ls -d sp/history/runs/*-w1-[0-9]*/) &&
	s=$(sed -n "s/^supervisor: //p" $r/pid) &&
	g=$(sed -n "s/^pgid: //p" $r/pid) &&
	grep -qx "$s $g" warm.pairs &&
	grep -qx out-w1 $r/output && grep -qx err-w1 $r/output &&
	grep "^outcome: failed$" ${r%/}.yaml && grep "^exit: 3$" ${r%/}.yaml &&
	wait_for 10 eval "test \$(warm sp \$(cat launcher.pid) | wc -l) -eq 4"
'

# Two warm supervisors killed, and the waiting job processes of the two
# others: all four pairs end, and none is handed a start.
test_expect_success 'warm ones or their job processes killed: let go, the next start still runs, the pool made again' '
	l=$(cat launcher.pid) &&
	warm_pairs sp $l >warm.2 && test $(wc -l <warm.2) -eq 4 &&
	kill -KILL $(head -n 2 warm.2 | cut -d" " -f1) \
	    $(tail -n 2 warm.2 | cut -d" " -f2) &&
	for k in $(cat warm.2); do
		wait_for 5 eval "! alive $k" || exit 1
	done &&
	job sp w2 1 "exec $J fail" &&
	wait_for 15 eval "ls -d sp/history/runs/*-w2-[0-9]*/" &&
	r=$(ls -d sp/history/runs/*-w2-[0-9]*/) &&
	s=$(sed -n "s/^supervisor: //p" $r/pid) &&
	! grep -q "^$s " warm.2 &&
	grep "^outcome: failed$" ${r%/}.yaml &&
	wait_for 10 eval "test \$(warm sp $l | wc -l) -eq 4" &&
	warm_pairs sp $l >warm.3 && test $(wc -l <warm.3) -eq 4
'

test_expect_success 'a command that fails at once is retired as failed' '
	job sp f 1 "$J fail" &&
	wait_for 15 eval "ls -d sp/history/runs/*-f-[0-9]*/" &&
	rec=$(ls sp/history/runs/*-f-[0-9]*.yaml) &&
	grep "^outcome: failed$" $rec && grep "^exit: 3$" $rec &&
	test ! -f sp/jobs/f.yaml
'

test_expect_success 'the jobs reach their samples and finish' '
	# A retirement ends with its run moved out of run/.
	wait_for 90 eval "test -z \"\$(ls sp/jobs)\$(ls sp/run)\"" &&
	grep -l "^outcome: finished$" sp/history/runs/*.yaml >recs &&
	test $(wc -l <recs) -eq 2 &&
	printf "time: T\njobs: {}\n" >expect &&
	wait_for 5 eval "mask_state sp/state.yaml | cmp -s - expect" &&
	started_once sp a && started_once sp b &&
	find sp/run -mindepth 1 >left && test_must_be_empty left
'

test_expect_success 'every decision is in history and audits identical' '
	bf-audit -d sp --log >log &&
	test -s log &&
	for p in $(sed "s/ .*//" log); do
		bf-audit -d sp $p || exit 1
	done
'

# What a quiet watcher says: its start and its stop, one line each, and
# nothing else (bf-watch(1), LOGGING).
only_start_stop() {	# log
	test "$(grep -c "^bf-watch: start: bftrainer [0-9.]*; spool /" "$1")" = 1 &&
	test "$(grep -c "^bf-watch: stop: \(SIGTERM\|--once: nothing left to do\); [0-9]* jobs run on under their supervisors$" "$1")" = 1 &&
	! grep -v "^bf-watch: \(start\|stop\): \|^bf-watch: created spool " "$1"
}

test_expect_success 'SIGHUP is a wake-up, SIGTERM an exit 0; the pool removed, the launcher ended' '
	p=$(cat watch.pid) && l=$(cat launcher.pid) && alive $l &&
	kill -HUP $p && sleep 0.2 && alive $p &&
	wait_for 5 grep -q "^bf-watch: reload: SIGHUP: " watch.log &&
	stop_watch &&
	! alive $l &&
	tmp_clean sp &&
	{ bf-watch -d sp2 -r 1 2>log2 & } &&
	w=$! &&
	wait_for 5 test -s sp2/lock &&
	kill -TERM $w &&
	wait $w &&
	only_start_stop log2
'

# The pid in the lock is the cue a service manager or a script acts on:
# from then on a SIGTERM is an exit 0.  (It killed the watcher outright in
# 39 of 100 tries, when the handlers came after the lock.)
test_expect_success 'SIGTERM the instant the lock names the watcher: exit 0, 30 times' '
	: >term.rcs &&
	for i in $(seq 1 30); do
		rm -rf sp5 && mkspool sp5 && : >sp5/lock &&
		{ bf-watch -d sp5 -r 1 2>>log5 & } &&
		w=$! &&
		n=0 &&
		while ! test -s sp5/lock && [ $n -lt 10000000 ]; do
			n=$((n + 1))
		done &&
		kill -TERM $w
		wait $w
		echo $? >>term.rcs
	done &&
	sort term.rcs | uniq -c | sed "s/^ *//" >actual &&
	echo "30 0" >expect &&
	test_cmp expect actual &&
	! grep -v "^bf-watch: \(start\|stop\): \|^bf-watch: created spool " log5
'

test_expect_success 'bf-profile runs for a job whose progress log grew' '
	mkspool sp3 && job sp3 g 2 "exec $J" &&
	printf "1000 1 0\n1010 1 1000\n1020 1 2000\n1030 2 4000\n1040 2 6000\n" >sp3/progress/g.log &&
	timeout -s KILL 20 bf-watch -d sp3 --once 2>log3 &&
	test -f sp3/profiles/g.yaml &&
	grep "^name: g$" sp3/profiles/g.yaml
'

test_expect_success '--holes-cmd: its output becomes holes/current.yaml' '
	printf "time: 5\nsource: test\nidle:\n  - nodes: \"x[1-3]\"\n" >h.yaml &&
	timeout -s KILL 20 bf-watch -d sp4 --once --holes-cmd "cat $PWD/h.yaml" 2>log4 &&
	test_cmp h.yaml sp4/holes/current.yaml &&
	grep -v "^bf-watch: \(start\|stop\): \|^bf-watch: created spool " log4 >actual &&
	grep -x "bf-watch: decision: trigger start; plan 5-[0-9a-f]*; no change; nodes held 0; objective 0; solve [0-9.]* s" actual &&
	test $(wc -l <actual) -eq 1 &&
	timeout -s KILL 20 bf-watch -d sp4 --once --holes-cmd "exit 3" 2>log4 &&
	echo "bf-watch: --holes-cmd failed (exit 3); waiting for new input" >expect &&
	grep -v "^bf-watch: \(start\|stop\): \|^bf-watch: created spool " log4 >actual &&
	test_cmp expect actual && test_cmp h.yaml sp4/holes/current.yaml
'

test_expect_success 'a watcher killed leaves its pool, its launcher and warm supervisors end; the next one removes the pool' '
	start_watch sp6 && p=$(cat watch.pid) &&
	wait_for 10 eval "test \$(pool_files sp6 $p) -ge 16" &&
	l=$(children $p) && alive $l &&
	wait_for 10 eval "test \$(warm sp6 $l | wc -l) -eq 4" &&
	warm_pairs sp6 $l >warm.6 && test $(wc -l <warm.6) -eq 4 &&
	kill -KILL $p && wait_for 5 eval "! alive $p" && rm -f watch.pid &&
	wait_for 5 eval "! alive $l" &&
	for k in $(cat warm.6); do
		wait_for 5 eval "! alive $k" || exit 1
	done &&
	test $(pool_files sp6 $p) -ge 16 &&
	timeout -s KILL 20 bf-watch -d sp6 --once --no-profile 2>log6 &&
	only_start_stop log6 && tmp_clean sp6
'

test_expect_success 'cleanup' '
	stop_watch; kill_jobs sp
'

test_done
