#!/bin/sh
# bf-watch as an admin runs it (issue #32): no input a person writes stops
# it giving back the nodes the scheduler took (a policy that does not load
# leaves the last good one in force; inputs that make no plan make the
# give-back plan, which bf-audit makes again); --check before installing a
# file; --shadow decides and records but enacts nothing; --metrics in
# Prometheus's text format (checked by promtool); the log's times, its
# start, stop and reload lines, and each decision's trigger and reasons.
. "$(dirname "$0")/lib.sh"

U=$(id -u)
J="$T_DIR/data/apply/job.sh"

# A job of 1-3 nodes whose command runs until stopped.
long_job() {	# spool name [extra yaml line...]
	_sp=$1 _n=$2
	shift 2
	job "$_sp" "$_n" 3 "exec sleep 300" "$@"
}

decisions() {	# log: the decision lines, without the plan's stem and times
	sed -n 's/^bf-watch: decision: \(trigger [a-zA-Z]*\); plan [^;]*;\(.*\); nodes held \([0-9]*\).*/\1;\2; held \3/p' "$1"
}

test_expect_success 'setup: a job on three nodes under a policy' '
	mkspool sp && holes sp 1000 "n[01-03]" &&
	printf "users:\n  $U: {max_nodes: 3}\n" >sp/policy.yaml &&
	long_job sp a &&
	start_watch sp &&
	wait_for 10 grep -q "^n03:1$" sp/run/a/hosts 2>/dev/null
'

test_expect_success 'a policy.yaml that does not load, then a node taken back: the node is released, the last good policy in force' '
	printf "users:\n  $U: {max_node: 1}\n" >sp/policy.yaml &&
	kill -HUP $(cat watch.pid) &&
	wait_for 30 grep -q "^bf-watch: reload: SIGHUP: " watch.log &&
	wait_for 30 grep -q "^bf-watch: policy: policy.yaml:2: unknown key .max_node.; the last good policy (xxh3:[0-9a-f]*) stays in force$" watch.log &&
	holes sp 1001 "n[01-02]" &&
	printf "n01:1\nn02:1\n" >hosts.2 && wait_for 30 cmp -s hosts.2 sp/run/a/hosts &&
	wait_for 30 grep -q "^  a: {nodes: 2, hosts: \"n\[01-02\]\"}$" sp/state.yaml &&
	# The decision line is written once the step has ended, after the
	# hosts and the state.
	wait_for 30 eval "decisions watch.log >d.1 &&
	    grep -qx \"trigger [a-zA-Z]*; shrink a 3->2 (taken back); held 2\" d.1" &&
	cat d.1 &&
	test "$(grep -c "^bf-watch: policy: " watch.log)" = 1 &&
	grep "^bf-watch: policy: " watch.log >policy.1 && test $(wc -l <policy.1) -eq 1
'

test_expect_success 'the plan made with the last good policy is audited as identical' '
	# The pass of the SIGHUP may be the one that reads the new holes (a
	# slow build): its trigger is then SIGHUP.
	stem=$(sed -n "s/^bf-watch: decision: trigger [a-zA-Z]*; plan \([^;]*\); shrink a 3->2 .*/\1/p" watch.log | tail -1) &&
	test -n "$stem" && bf-audit -d sp "$stem" >out &&
	echo "history/$stem.yaml: identical" >expect && test_cmp expect out
'

test_expect_success 'the policy mended: it loads and is in force, said once' '
	printf "users:\n  $U: {max_nodes: 1}\n" >sp/policy.yaml &&
	wait_for 10 grep -q "^bf-watch: policy: policy.yaml xxh3:[0-9a-f]* loads: in force$" watch.log &&
	wait_for 10 eval "test \$(wc -l <sp/run/a/hosts) -eq 1" &&
	grep -qx "n0[12]:1" sp/run/a/hosts &&
	decisions watch.log | tail -1 >d.2 &&
	grep -x "trigger [a-zA-Z]*; shrink a 2->1 (chosen); held 1" d.2
'

test_expect_success 'stop and start again: one stop line, one start line naming the spool and backend' '
	stop_watch &&
	grep -x "bf-watch: stop: SIGTERM; 1 jobs run on under their supervisors" watch.log &&
	: >watch.log && start_watch sp &&
	wait_for 5 grep -q "^bf-watch: start: bftrainer [0-9.]*; spool $PWD/sp; backend local; pid $(cat watch.pid); grace 2 s, rescan 1 s, debounce 20 ms; no profile$" watch.log
'

test_expect_success 'a profile that cannot be read: the give-back plan shrinks to the holes and stops a job below its min_nodes' '
	stop_watch && kill_jobs sp && rm -rf sp && : >watch.log &&
	mkspool sp && holes sp 2000 "n[01-03]" &&
	long_job sp b "min_nodes: 2" && start_watch sp &&
	wait_for 10 grep -q "^n03:1$" sp/run/b/hosts 2>/dev/null &&
	echo "rates: [" >sp/profiles/b.yaml &&
	holes sp 2001 "n[01-02]" &&
	printf "n01:1\nn02:1\n" >hosts.2 && wait_for 10 cmp -s hosts.2 sp/run/b/hosts &&
	holes sp 2002 "n01" &&
	wait_for 10 eval "! test -d sp/run/b" &&
	test "$(grep -c "^bf-watch: solve: profiles/b.yaml:[0-9]*: " watch.log)" = 1 &&
	test "$(grep -c "^bf-watch: solve: no plan could be made; until one is, the give-back plan keeps each job only its nodes still in the holes$" watch.log)" = 1 &&
	decisions watch.log >d.3 &&
	grep -x "trigger [a-zA-Z]*; shrink b 3->2 (taken back); held 2" d.3 &&
	grep -x "trigger [a-zA-Z]*; stop b 2->0 (taken back), preempted b 2->0 (stopped); held 0" d.3 &&
	test -f sp/jobs/b.yaml
'

test_expect_success 'the give-back plans are in history and bf-audit makes each again' '
	grep -l "^solver: {name: give-back" sp/history/*[0-9a-f].yaml >gb &&
	test $(wc -l <gb) -ge 2 &&
	for f in $(cat gb); do
		s=$(basename $f .yaml) &&
		bf-audit -d sp "$s" >out || exit 1
		echo "history/$s.yaml: identical" >expect && test_cmp expect out || exit 1
	done &&
	grep -h "note:" $(cat gb) | grep -q "no plan could be made (profiles/b.yaml:[0-9]*: .*): nodes taken back: 1 of 3" &&
	bf-report -d sp >rep 2>rep.err &&
	grep -q "^bf-report: history/objects/[0-9a-f]*:[0-9]*: .*; the declared curve of b used instead$" rep.err &&
	grep -q "^total " rep
'

test_expect_success 'the profile mended: a plan is made again, said once, and the job starts' '
	rm sp/profiles/b.yaml && holes sp 2003 "n[01-03]" &&
	wait_for 10 test -d sp/run/b &&
	test "$(grep -c "^bf-watch: solve: a plan is made again$" watch.log)" = 1
'

test_expect_success '--check: each file as what it is, one line each, 65 when one would be refused' '
	printf "users:\n  0: {max_node: 1}\n" >bad-policy.yaml &&
	printf "users:\n  0: {max_nodes: 1}\n" >policy.yaml &&
	printf "time: 1\nidle:\n  - nodes: \"n[01-\"\n" >bad-holes.yaml &&
	printf "time: 1\nidle:\n  - nodes: \"n[01-02]\"\n" >holes.yaml &&
	printf "name: j\ncommand: exec sleep 1\nmax_nodes: 2\nscaling:\n  1: 10\n  2: 19\n" >job.yaml &&
	test_expect_code 65 bf-watch --check bad-policy.yaml policy.yaml bad-holes.yaml holes.yaml job.yaml >out 2>err &&
	cat >expect <<-EOF &&
	bad-policy.yaml:2: unknown key '"'max_node'"'
	policy.yaml: a good policy
	bad-holes.yaml:3: bad hostlist '"'n[01-'"': '"'['"' without matching '"']'"'
	holes.yaml: a good holes file
	job.yaml: a good job file
	EOF
	test_cmp expect out &&
	echo "bf-watch: 2 of 5 files would be refused" >expect && test_cmp expect err &&
	bf-watch --check policy.yaml holes.yaml job.yaml >out &&
	test $(grep -c ": a good " out) -eq 3
'

test_expect_success '--check of a spool: its inputs make a plan (0), or say why not (65), and nothing is written' '
	stop_watch && kill_jobs sp &&
	ls -R sp >before &&
	bf-watch --check -d sp >out &&
	grep -x "sp: holes/current.yaml, 1 job files, 0 profiles and state.yaml make a plan" out &&
	echo "rates: [" >sp/profiles/b.yaml &&
	ls -R sp >before &&
	test_expect_code 65 bf-watch --check -d sp >out 2>err &&
	grep "^bf-watch: profiles/b.yaml:[0-9]*: " err &&
	ls -R sp >after && test_cmp before after && rm sp/profiles/b.yaml
'

test_expect_success 'the log: RFC 3339 times in UTC unless told otherwise; journald levels under the journal' '
	rm -rf sq && mkspool sq &&
	(unset BF_LOG_STYLE; timeout -s KILL 20 bf-watch -d sq --once --no-profile 2>stamped.log) &&
	grep -qx "20[0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9][0-9][0-9]Z bf-watch: start: bftrainer .*" stamped.log &&
	! grep -v "^20[0-9-]*T[0-9:.]*Z bf-watch: " stamped.log &&
	(unset BF_LOG_STYLE; timeout -s KILL 20 sh -c "JOURNAL_STREAM=\$(stat -L -c %d:%i /proc/self/fd/2) exec bf-watch -d sq --once --no-profile" 2>journal.log) &&
	grep -qx "<6>bf-watch: start: bftrainer .*" journal.log &&
	grep -qx "<6>bf-watch: stop: --once: nothing left to do; 0 jobs run on under their supervisors" journal.log
'

test_expect_success '--syslog: nothing on standard error' '
	timeout -s KILL 20 bf-watch -d sq --once --no-profile -s 2>sys.log &&
	test_must_be_empty sys.log
'

test_expect_success '--shadow: decisions made, logged and recorded; nothing runs; bf-report says what the holes would have given' '
	rm -rf sh && mkspool sh && holes sh 3000 "n[01-03]" &&
	long_job sh c "samples: 100000" &&
	start_watch sh --shadow --backend slurm --metrics "$PWD/m.prom" &&
	wait_for 10 test -f sh/run/c/shadow &&
	grep -x "backend: slurm" sh/run/c/shadow &&
	grep -x "supervisor: 0" sh/run/c/pid && grep -x "pgid: 0" sh/run/c/pid &&
	! pgrep -f "exec sleep 300" >/dev/null &&
	! pgrep -f "$PWD/sh" >/dev/null &&
	grep -q "^bf-watch: start: bftrainer [0-9.]*; spool $PWD/sh; backend shadow of slurm; " watch.log &&
	holes sh 3100 "n01" && wait_for 10 grep -qx "n01:1" sh/run/c/hosts &&
	holes sh 3200 "" && wait_for 10 eval "! test -d sh/run/c" &&
	stop_watch &&
	ls sh/history/*[0-9a-f].yaml >plans && test $(wc -l <plans) -ge 3 &&
	ls sh/history/runs/ | grep -q "^[0-9]*-c-0$" &&
	bf-report -d sh --csv >rep &&
	grep -q "^total," rep
'

test_expect_success '--metrics: Prometheus text format (promtool), the figures of the last pass' '
	test -f m.prom && ! ls m.prom.* 2>/dev/null &&
	if command -v promtool >/dev/null; then
		promtool check metrics <m.prom
	elif [ -n "${CI:-}" ]; then
		echo "promtool is missing in CI (scripts/install-deps)"; false
	else
		echo "promtool missing: the format not checked"
	fi &&
	grep -x "bftrainer_nodes_idle 0" m.prom &&
	grep -x "bftrainer_nodes_held 0" m.prom &&
	grep -x "bftrainer_jobs{state=\"running\"} 0" m.prom &&
	grep -x "bftrainer_jobs{state=\"waiting\"} 1" m.prom &&
	grep -x "bftrainer_give_back 0" m.prom &&
	grep -x "bftrainer_errors_total{kind=\"solve\"} 0" m.prom &&
	n=$(sed -n "s/^bftrainer_decision_seconds_count //p" m.prom) && test "$n" -ge 3 &&
	grep -x "bftrainer_decision_seconds_bucket{le=\"+Inf\"} $n" m.prom &&
	grep -x "bftrainer_decisions_total{proof=\"optimal\"} $n" m.prom &&
	grep -x "bftrainer_decisions_total{proof=\"none\"} 0" m.prom &&
	grep -x "bftrainer_solver_kills_total 0" m.prom &&
	t=$(sed -n "s/^bftrainer_last_pass_timestamp_seconds //p" m.prom) &&
	test "$t" -ge $(($(date +%s) - 60))
'

test_expect_success 'bf-apply --shadow: the plan enacted in the records only' '
	rm -rf sa && mkspool sa && holes sa 4000 "n[01-02]" &&
	long_job sa d && bf-submit --intake -d sa >/dev/null 2>&1 &&
	bf-solve -d sa >/dev/null &&
	bf-apply -d sa --shadow --backend pbs --allow-root-jobs >out &&
	echo "start d 0->2 n[01-02]" >expect && test_cmp expect out &&
	grep -x "backend: pbs" sa/run/d/shadow &&
	grep -x "  d: {nodes: 2, hosts: \"n\[01-02\]\"}" sa/state.yaml &&
	! pgrep -f "exec sleep 300" &&
	holes sa 4001 "" && bf-solve -d sa >/dev/null &&
	bf-apply -d sa --shadow --backend pbs --allow-root-jobs >out &&
	grep -x "stop d 2->0 plan" out && test ! -d sa/run/d &&
	ls sa/history/runs | grep -q "^[0-9]*-d-0$"
'

test_expect_success '--holes-cmd that hangs: killed at 2 x BF_SCHED_TIMEOUT + 10 s, logged, tried again; SIGTERM at once' '
	rm -rf hc && mkspool hc && holes hc 5000 "n01" && : >watch.log &&
	printf "#!/bin/sh\necho run >>\"%s/hc.runs\"\nexec sleep 347\n" "$PWD" >hang.sh &&
	chmod +x hang.sh && rm -f hc.runs &&
	BF_SCHED_TIMEOUT=0.5 start_watch hc --holes-cmd "$PWD/hang.sh" \
		--holes-interval 1 &&
	wait_for 20 grep -q "^bf-watch: /bin/sh: no answer in 11 s (2 x BF_SCHED_TIMEOUT + 10); killed; will retry$" watch.log &&
	wait_for 10 eval "test \$(wc -l <hc.runs) -ge 2" &&
	wait_for 5 eval "pgrep -x -f \"sleep 347\" >/dev/null" &&
	p=$(cat watch.pid) && t0=$(date +%s.%N) && kill -TERM $p &&
	wait_for 5 eval "! alive $p" && t1=$(date +%s.%N) && rm -f watch.pid &&
	awk -v a="$t0" -v b="$t1" "BEGIN { s = b - a; print s \" s\"; exit !(s < 2) }" &&
	grep -q "^bf-watch: stop: SIGTERM; " watch.log &&
	wait_for 5 eval "! pgrep -x -f \"sleep 347\" >/dev/null"
'

test_expect_success '-t LIMIT: the decision'"'"'s time limit; out of range, a usage error (64)' '
	bf-watch -h >out && grep "^  -t LIMIT  *a decision'"'"'s time limit, seconds (10; bf-solve -t)$" out &&
	test_expect_code 64 bf-watch -d sp -t 0 2>err &&
	echo "bf-watch: -t must be a number from 0.001 to 1e+06, not '"'"'0'"'"'" >expect &&
	test_cmp expect err &&
	test_expect_code 64 bf-watch -d sp -t 1s 2>err &&
	grep "^bf-watch: -t must be a number" err
'

test_expect_success 'cleanup' '
	stop_watch; kill_jobs sp; kill_jobs sh; true
'

test_done
