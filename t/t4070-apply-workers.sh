#!/bin/sh
# bf-apply, local backend: a job's worker runs once per host it holds, in a
# process group of its own, with BF_HOST, BF_NODES and the coordinator's
# address; a shrink gives the leaving host's worker notice (SIGTERM after
# the hosts file changed, SIGKILL after the grace) and touches no other; a
# worker that fails is restarted, boundedly; a stop or a lost supervisor
# leaves nothing of the job running; no command text on a command line; the
# done check reads fractional times and NODES "-".
. "$(dirname "$0")/lib.sh"

BF_COORD_HOST=127.0.0.1
export BF_COORD_HOST

apply() {
	bf-apply -d sp -g 2 --allow-root-jobs "$@"
}
# The running workers: "HOST PGID", from run/NAME/workers.
running() {	# job
	awk '$4 == "running" { print $1, $2 }' "sp/run/$1/workers"
}
nrunning() {	# job count
	[ "$(running "$1" | wc -l)" = "$2" ]
}
lines() {	# file pattern count
	[ "$(grep -c "$2" "$1")" = "$3" ]
}
# A process group still has a member (zombies do not count).  Read with
# the shell's own read, no program per process: with two per process it
# took over a second on a VM where a fork costs milliseconds, longer than
# the grace the test below times against.
group_alive() {	# pgid
	_g=$1
	for _p in /proc/[0-9]*; do
		read -r _s 2>/dev/null <"$_p/stat" || continue
		# "PID (COMM) STATE PPID PGRP ...": after the last ") ".
		# shellcheck disable=SC2086
		set -- ${_s##*) }
		[ "$3" = "$_g" ] && [ "$1" != Z ] && return 0
	done
	return 1
}
# The job's progress log, in progress/ or moved with its ended run.
log_has() {	# job pattern
	cat "sp/progress/$1.log" sp/history/runs/*-"$1"-*/progress.log \
		2>/dev/null | grep -q "$2"
}
group_gone() {	# pgid
	! group_alive "$1"
}
# Earlier cases' jobs, stopped and waiting, would compete for the nodes.
only() {	# job...
	for _f in sp/jobs/*.yaml; do
		_n=$(basename "$_f" .yaml)
		case " $* " in *" $_n "*) ;; *) rm -f "$_f" ;; esac
	done
}
trap 'kill_jobs sp' EXIT

test_expect_success 'a worker per host: BF_HOST, BF_NODES, the coordinator' '
	mkspool sp &&
	holes sp 1000 "n[1-3]" &&
	job sp w 3 "echo coord=\$BF_COORD; exec $J" "worker: exec $W" &&
	bf-submit --intake -d sp 2>/dev/null &&
	grep -x "worker: \"exec $W\"" sp/jobs/w.yaml &&
	grep -x "worker_restarts: 3" sp/jobs/w.yaml &&
	bf-solve -d sp && apply >actual &&
	echo "start w 0->3 n[1-3]" >expect && test_cmp expect actual &&
	wait_for 5 nrunning w 3 &&
	running w | cut -d" " -f1 >actual &&
	printf "n1\nn2\nn3\n" >expect && test_cmp expect actual &&
	wait_for 5 lines sp/run/w/output "^worker " 3 &&
	coord=$(sed -n "s/^coord=//p" sp/run/w/output) &&
	echo "$coord" | grep -qx "127\.0\.0\.1:[0-9][0-9]*" &&
	for h in n1 n2 n3; do
		grep -x "worker $h nodes=3 coord=$coord uid=0 slurm=none" \
			sp/run/w/output || exit 1
	done
'

test_expect_success 'each worker is its own process group, no command text on a command line' '
	running w >groups &&
	test $(cut -d" " -f2 groups | sort -u | wc -l) = 3 &&
	pgid=$(sed -n "s/^pgid: //p" sp/run/w/pid) &&
	! grep -q " $pgid\$" groups &&
	while read -r h g; do
		tr "\0" " " </proc/$g/cmdline >cmd &&
		cat cmd && ! grep -q "exec " cmd || exit 1
	done <groups &&
	tr "\0" " " </proc/$pgid/cmdline >cmd &&
	cat cmd && ! grep -q "coord=" cmd
'

test_expect_success 'a shrink: the leaving worker gets notice after the hosts file changed, no other is touched' '
	running w >before &&
	holes sp 1001 "n[1-2]" &&
	bf-solve -d sp && apply >actual &&
	echo "shrink w 3->2 n[1-2]" >expect && test_cmp expect actual &&
	wait_for 5 grep -qx "notice n3" sp/run/w/output &&
	! grep -q "while still listed" sp/run/w/output &&
	wait_for 5 nrunning w 2 &&
	running w >after &&
	grep -v "^n3 " before >expect && test_cmp expect after &&
	n3=$(sed -n "s/^n3 //p" before) &&
	wait_for 5 group_gone $n3 &&
	grep -q " term n3 $n3\$" sp/run/w/workers.log &&
	grep -q " exit n3 $n3 exit 0\$" sp/run/w/workers.log
'

test_expect_success 'a grow starts a worker on the new host with the new count' '
	holes sp 1002 "n[1-3]" &&
	bf-solve -d sp && apply >actual &&
	echo "grow w 2->3 n[1-3]" >expect && test_cmp expect actual &&
	wait_for 5 nrunning w 3 &&
	wait_for 5 lines sp/run/w/output "^worker n3 nodes=3 " 2
'

test_expect_success 'bf-apply again (a restart of the daemon) leaves the workers alone' '
	running w >before &&
	n=$(wc -l <sp/run/w/workers.log) &&
	apply >actual && test_must_be_empty actual &&
	sleep 0.6 &&
	running w >after && test_cmp before after &&
	test $(wc -l <sp/run/w/workers.log) = $n
'

test_expect_success 'a stop: the command and every worker end, nothing of the job is left' '
	running w | cut -d" " -f2 >groups &&
	pgid=$(sed -n "s/^pgid: //p" sp/run/w/pid) &&
	holes sp 1003 "" &&
	bf-solve -d sp && apply >actual &&
	grep -x "stop w 3->0 plan" actual &&
	for h in n1 n2 n3; do
		grep -q "^notice $h" sp/history/runs/*-w-*/output || exit 1
	done &&
	for g in $pgid $(cat groups); do
		! group_alive $g || { echo "group $g still runs"; exit 1; }
	done &&
	! test -d sp/run/w
'

test_expect_success 'a worker that ignores SIGTERM is killed after the grace' '
	holes sp 1004 "n[1-2]" &&
	job sp s 2 "exec $J" "worker: exec $W ignore" &&
	bf-submit --intake -d sp 2>/dev/null &&
	only s &&
	bf-solve -d sp && apply >/dev/null &&
	wait_for 5 nrunning s 2 &&
	n2=$(sed -n "s/^n2 //p" sp/run/s/workers | cut -d" " -f1) &&
	holes sp 1005 "n1" &&
	bf-solve -d sp && apply >actual &&
	echo "shrink s 2->1 n1" >expect && test_cmp expect actual &&
	wait_for 2 grep -q " term n2 $n2\$" sp/run/s/workers.log &&
	group_alive $n2 && sleep 1 && group_alive $n2 &&
	wait_for 5 grep -q " kill n2 $n2\$" sp/run/s/workers.log &&
	wait_for 5 group_gone $n2 &&
	grep -q " exit n2 $n2 signal 9\$" sp/run/s/workers.log
'

test_expect_success 'a failing worker is restarted worker_restarts times, then left failed' '
	holes sp 1006 "" && bf-solve -d sp && apply >/dev/null &&
	holes sp 1007 "n1" &&
	job sp f 1 "exec $J" "worker: exec $W fail" "worker_restarts: 2" &&
	bf-submit --intake -d sp 2>/dev/null &&
	only f &&
	bf-solve -d sp && apply >/dev/null &&
	wait_for 10 grep -qx "n1 0 2 failed" sp/run/f/workers &&
	test $(grep -c " start n1 " sp/run/f/workers.log) = 3 &&
	test $(grep -c " exit n1 [0-9]* exit 1\$" sp/run/f/workers.log) = 3 &&
	state_true sp
'

test_expect_success 'a lost supervisor: retiring the run kills the command and every worker' '
	holes sp 1008 "" && bf-solve -d sp && apply >/dev/null &&
	holes sp 1009 "n[1-2]" &&
	job sp l 2 "exec $J" "worker: exec $W ignore" &&
	bf-submit --intake -d sp 2>/dev/null &&
	only l &&
	bf-solve -d sp && apply >/dev/null &&
	wait_for 5 nrunning l 2 &&
	running l | cut -d" " -f2 >groups &&
	kill -KILL $(sed -n "s/^supervisor: //p" sp/run/l/pid) &&
	wait_for 5 flock -n -s sp/run/l/lock true &&
	apply >actual &&
	grep -x "lost l 2->0 exit unknown" actual &&
	for g in $(cat groups); do
		wait_for 5 group_gone $g || exit 1
	done
'

test_expect_success 'the done check reads fractional times and NODES "-"' '
	holes sp 1010 "n1" &&
	job sp d 1 "printf \"1795000000.25 - 400\\n1795000001.75 1 600\\n\" >>\$BF_PROGRESS; exec sleep 60" "samples: 500" &&
	bf-submit --intake -d sp 2>/dev/null &&
	only d &&
	bf-solve -d sp && apply >actual &&
	wait_for 5 log_has d "1795000001.75" &&
	apply >>actual && cat actual &&
	grep -x "stop d 1->0 done" actual &&
	grep -x "finished d 1->0 signal 15" actual &&
	! test -f sp/jobs/d.yaml
'

test_expect_success 'a last line with NODES "-" is read too' '
	holes sp 1011 "n1" &&
	job sp e 1 "printf \"1795000000.5 1 100\\n1795000001.5 - 900\\n\" >>\$BF_PROGRESS; exec sleep 60" "samples: 500" &&
	bf-submit --intake -d sp 2>/dev/null &&
	only e &&
	bf-solve -d sp && apply >actual &&
	wait_for 5 log_has e "1795000001.5 -" &&
	apply >>actual && cat actual &&
	grep -x "stop e 1->0 done" actual
'

test_done
