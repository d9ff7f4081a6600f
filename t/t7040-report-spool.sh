#!/bin/sh
# bf-report on a live spool, run by bf-apply's local backend with
# t/data/apply/job.sh: --now says what runs where, its rate, samples and
# estimated finish; the report counts a job stopped by a plan, and the
# samples of the jobs still running only with -d.
. "$(dirname "$0")/lib.sh"

apply() {
	bf-apply -d sp -g 2 --allow-root-jobs "$@"
}

# a and b take two nodes each (100, 150 samples/s on 1, 2 nodes: job()
# in t/lib.sh); c needs three, and waits.
test_expect_success 'setup: two jobs running, one waiting' '
	mkspool sp &&
	holes sp 1000 "n[01-04]" &&
	job sp a 2 "exec $J" "samples: 1000000" &&
	job sp b 2 "exec $J" &&
	job sp c 3 "exec $J" "min_nodes: 3" &&
	bf-submit --intake -d sp 2>/dev/null &&
	bf-solve -d sp && apply >actions &&
	grep "^start a 0->2 " actions && grep "^start b 0->2 " actions &&
	! grep " c " actions &&
	wait_for 10 test -s sp/progress/a.log &&
	wait_for 10 test -s sp/progress/b.log
'

test_expect_success '--now: one line per running job, then the waiting ones' '
	bf-report --now -d sp >now 2>err &&
	test_must_be_empty err &&
	sed -n 1p now >first &&
	grep -x "sp: state of [0-9T:Z-]*, holes of 1970-01-01T00:16:40Z: 4 idle nodes, 4 held by 2 jobs, 0 free" first &&
	sed -n 3p now >head &&
	echo "job user       nodes hosts        rate/s from           samples             of       left finish (estimate)" >expect &&
	test_cmp expect head &&
	uid=$(id -un) &&
	grep -E "^a +$uid +2 n\[0[13]-0[24]\] +150\.0 scaling +[0-9]+ +1000000 +[0-9]+:[0-9]{2}:[0-9]{2} 20[0-9-]{8}T[0-9:]{8}Z$" now &&
	grep -E "^b +$uid +2 n\[0[13]-0[24]\] +150\.0 scaling +[0-9]+ +- +- -$" now &&
	grep -x "waiting:" now &&
	grep -x "  c (user $uid): waits: the nodes are worth more to other jobs" now &&
	grep -x "finish (estimate): the last report.s time plus the samples left at the rate of the job.s" now
'

# The estimate: the report with those samples, plus the rest at 150/s.
test_expect_success '--now: the finish is the last report plus the rest at its rate' '
	set -- $(grep "^a " now) &&
	s=$7 left=$9 fin=${10} &&
	t=$(awk -v s="$s" "\$3 == s { print \$1; exit }" sp/progress/a.log) &&
	test -n "$t" &&
	want=$(awk -v t="$t" -v s="$s" "BEGIN { x = t + (1000000 - s) / 150
		y = int(x); if (y < x) y++; print y }") &&
	test "$(date -u -d @"$want" +%Y-%m-%dT%H:%M:%SZ)" = "$fin" &&
	secs=$(( (1000000 - s + 149) / 150 )) &&
	test "$left" = "$(printf "%d:%02d:%02d" $((secs / 3600)) $((secs / 60 % 60)) $((secs % 60)))"
'

# n03 and n04 taken back: their job stops (its run preempted), the other
# keeps its nodes.  Both of its nodes lost, the stop is forced: a
# preemption of 2 nodes, not a shrink.
test_expect_success 'the main scheduler takes b'"'"'s nodes: a plan stops it' '
	if grep -q "^start b 0->2 n\[03-04\]" actions; then gone=b; else gone=a; fi &&
	echo $gone >gone &&
	holes sp 1001 "n[01-02]" &&
	bf-solve -d sp && apply >actions2 &&
	grep "^stop $gone 2->0" actions2 &&
	wait_for 10 eval "ls sp/history/runs/*-$gone-*.yaml" &&
	grep -x "outcome: preempted" sp/history/runs/*-$gone-*.yaml
'

test_expect_success 'the report: two plans, a preemption and a stop' '
	gone=$(cat gone) && if [ $gone = a ]; then kept=b; else kept=a; fi &&
	sleep 1 &&
	bf-report -d sp --csv >csv 2>err &&
	test_must_be_empty err &&
	uid=$(id -u) &&
	grep "^job,,$uid,$gone,,[0-9.]*,[0-9.]*,[0-9]*,[0-9]*,[0-9.]*,1,0,0,1,2,0,0,1,0,0$" csv &&
	grep "^job,,$uid,$kept,,[0-9.]*,[0-9.]*,[0-9]*,[0-9]*,[0-9.]*,1,0,0,0,0,0,0,0,0,0$" csv &&
	bf-report -d sp >text &&
	grep "; plans enacted 2, runs ended 1$" text
'

# The logs of jobs not ended are in progress/, not in history/.
test_expect_success 'samples of running jobs: with -d, not from history/ alone' '
	uid=$(id -u) &&
	s=$(awk -F, -v u=$uid "\$1 == \"user\" && \$3 == u { print \$8 }" csv) &&
	test "$s" -gt 0 &&
	bf-report --history sp/history --csv >alone &&
	s=$(awk -F, -v u=$uid "\$1 == \"user\" && \$3 == u { print \$8 }" alone) &&
	test "$s" -eq 0
'

test_expect_success '--now as another user: what may not be read is "-", the public part shown' '
	if ! test_have_root || ! command -v setpriv >/dev/null; then
		echo "needs root and setpriv"; exit 0
	fi &&
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$BF_ROOT/bin/bf-report" --now -d sp >nobody 2>err &&
	test_must_be_empty err &&
	grep -E "^a +root +2 n\[0[13]-0[24]\] +- +- +- +1000000 +- -$" nobody ||
	grep -E "^b +root +2 n\[0[13]-0[24]\] +- +- +- +- +- -$" nobody &&
	grep -E "^  (a|b) \(user root\): nodes taken back: 2 of 2; " nobody &&
	grep -x "  c (user root): min_nodes 3 is above the most it could get, 0" nobody &&
	grep -E "^  (a|b) \(user root\): preempted at [0-9T:Z-]+; output in history/runs/[0-9]+-(a|b)-[0-9]+/output$" nobody
'

test_expect_success 'cleanup' '
	kill_jobs sp
'

test_done
