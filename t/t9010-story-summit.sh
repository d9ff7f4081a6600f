#!/bin/sh
# End to end, as a site runs it, with the real programs on a real trace:
# bf-holes reads the idle nodes of OLCF Summit (t/data/holes, at trace
# second 53492: b29n[01-02]); a user who is not root submits two jobs
# with bf-submit; bf-watch (local backend, --probe: the advisor's counts)
# starts them on one node each, as that user; their progress is measured
# by bf-profile, whose advisor asks for two nodes; the trace at second 57894 gives four nodes, and the
# replan grows each job to the count to measure; both end at their
# samples; bf-audit re-solves every plan of the history identical, and
# bf-report counts exactly what happened.
#
# Job a and b declare 1000 samples/s on one node and 1500 on two (two on
# one node each are worth more than one on two); t/data/apply/job.sh makes
# a little under 1000 per node, so the profile never makes two nodes worth
# taking from the other job: only more idle nodes do.  The grow's plan is
# valued by the profiles it was made with: each job's declared 1500 at two
# nodes on the scale it measured at one (bf-solve(1)), which bf-audit's log
# shows and test 7 computes again.  When the two jobs end in different
# seconds the nodes of the first are offered but not held: utilisation and
# node-hours are not exact; the samples (each job's last report, 30000 or
# the step of 200 past it) and the counts are.
. "$(dirname "$0")/lib.sh"

test_need_root_setpriv 'a user story on a root spool'
test_public_trash

U=4321
TRACE="$T_DIR/data/holes/summit-c37-b29.csv"
as_user() {
	as $U "$@"
}
# The idle nodes of the trace at its second $1, as if that were now.
holes_at() {	# trace-second
	_now=$(date +%s)
	bf-holes -d sp --idle-trace "$TRACE" --epoch $((_now - $1)) --at "$_now"
}
# The plans of the history, as bf-audit --log lists them, names masked.
plans_masked() {
	sed "s/^[0-9]*-[0-9a-f]* /PLAN /" "$1"
}
trap 'stop_watch; kill_jobs sp' EXIT

test_expect_success 'bf-holes: the trace at second 53492 leaves b29n[01-02] idle' '
	mkspool sp &&
	holes_at 53492 &&
	cat >expect <<-EOT &&
	source: "idle-trace:$TRACE"
	idle:
	  - nodes: b29n[01-02]
	EOT
	sed 1d sp/holes/current.yaml >actual &&
	test_cmp expect actual
'

test_expect_success 'a user who is not root submits two jobs' '
	for n in a b; do
		printf "name: %s\ncommand: exec %s\nmax_nodes: 2\nsamples: 30000\nscaling: {1: 1000, 2: 1500}\n" \
			$n "$J" >$n.yaml || exit 1
	done &&
	chmod 644 a.yaml b.yaml &&
	as_user bf-submit -d sp a.yaml b.yaml >out &&
	printf "sp/incoming/a.yaml\nsp/incoming/b.yaml\n" >expect &&
	test_cmp expect out &&
	stat -c "%u %a" sp/incoming/a.yaml sp/incoming/b.yaml >actual &&
	printf "$U 600\n$U 600\n" >expect && test_cmp expect actual
'

test_expect_success 'bf-watch takes them in and starts each on one node, as the user' '
	start_watch sp --profile --probe &&
	wait_for 30 grep -q "^  a: {nodes: 1," sp/state.yaml &&
	wait_for 10 grep -q "^  b: {nodes: 1," sp/state.yaml &&
	state_true sp &&
	grep -x "bf-watch: accepted incoming/a.yaml as jobs/a.yaml (uid $U)" watch.log &&
	grep -x "bf-watch: accepted incoming/b.yaml as jobs/b.yaml (uid $U)" watch.log &&
	wait_for 10 grep -qx "start a nodes=1 uid=$U gid=$U" sp/run/a/output &&
	wait_for 10 grep -qx "start b nodes=1 uid=$U gid=$U" sp/run/b/output &&
	cat sp/run/a/hosts sp/run/b/hosts | sort >actual &&
	printf "b29n01:1\nb29n02:1\n" >expect && test_cmp expect actual
'

test_expect_success 'their progress, profiled: one node measured, two advised, no change yet' '
	for n in a b; do
		wait_for 30 grep -q "^advise: {next_nodes: 2," sp/profiles/$n.yaml &&
		sed -n "/^points:/,/^[a-z]/p" sp/profiles/$n.yaml >points &&
		grep -E "^  1: [0-9.]+$" points && ! grep -E "^  2: " points &&
		test "$(stat -c %u sp/progress/$n.log)" = $U || exit 1
	done &&
	grep -q "^  a: {nodes: 1," sp/state.yaml &&
	grep -q "^  b: {nodes: 1," sp/state.yaml
'

test_expect_success 'the trace at second 57894: four nodes; the replan grows each to two' '
	holes_at 57894 &&
	grep -x "  - nodes: b29n\[01-04\]" sp/holes/current.yaml &&
	wait_for 20 grep -q "^  a: {nodes: 2," sp/state.yaml &&
	wait_for 10 grep -q "^  b: {nodes: 2," sp/state.yaml &&
	state_true sp &&
	cat sp/run/a/hosts sp/run/b/hosts | sort >actual &&
	printf "b29n0%s:1\n" 1 2 3 4 >expect && test_cmp expect actual &&
	p=$(grep -l "^  a: {nodes: 2, was: 1," sp/history/[0-9]*-*[0-9a-f].yaml) &&
	grep -x "  a: {nodes: 2, was: 1, .*, note: \"profiling: may only stop, stay or probe 2 nodes\"}" $p &&
	grep -x "  b: {nodes: 2, was: 1, .*, note: \"profiling: may only stop, stay or probe 2 nodes\"}" $p &&
	grep -q "^inputs: {.*profiles: \"xxh3:[0-9a-f]*\"" $p &&
	sed -n "/^profiles:/,\$p" ${p%.yaml}.inputs.yaml >profs &&
	grep -E "^  a: \"xxh3:[0-9a-f]+\"$" profs && grep -E "^  b: \"xxh3:[0-9a-f]+\"$" profs
'

test_expect_success 'both end at their samples, each run once, as the user' '
	# A retirement ends with its run moved from run/ to history/runs/,
	# after its job file is gone and the state is written.
	wait_for 60 eval "test -z \"\$(ls sp/jobs)\$(ls sp/run)\"" &&
	printf "time: T\njobs: {}\n" >expect &&
	wait_for 10 eval "mask_state sp/state.yaml | cmp -s - expect" &&
	for n in a b; do
		rec=$(ls sp/history/runs/*-$n-[0-9]*.yaml) &&
		grep -x "outcome: finished" $rec && grep -x "nodes: 2" $rec &&
		started_once sp $n &&
		tail -n 1 ${rec%.yaml}/progress.log >last &&
		grep -E "^[0-9]+ 2 30[0-9]{3}$" last &&
		cut -d" " -f3 last >samples.$n &&
		test "$(stat -c %u ${rec%.yaml}/progress.log)" = $U || exit 1
	done &&
	find sp/run -mindepth 1 >left && test_must_be_empty left
'

test_expect_success 'bf-audit: two plans enacted, each re-solved identical' '
	stop_watch &&
	bf-audit -d sp --log >log &&
	plans_masked log | sed "2s/objective [0-9.]*:/objective X:/" >actual &&
	cat >expect <<-\EOT &&
	PLAN objective 20000: a 0->1, b 0->1
	PLAN objective X: a 1->2, b 1->2
	EOT
	test_cmp expect actual &&
	p=sp/history/$(sed -n "2s/ .*//p" log).yaml &&
	sed -n "/^profiles:/,\$p" ${p%.yaml}.inputs.yaml |
	    sed -n "s/^  [ab]: \"xxh3:\([0-9a-f]*\)\"$/\1/p" >objects &&
	test $(wc -l <objects) = 2 &&
	for h in $(cat objects); do
		sed -n "/^points:/,/^[a-z]/s/^  1: //p" sp/history/objects/$h || exit 1
	done >measured &&
	test $(wc -l <measured) = 2 &&
	sed -n "2s/^[^ ]* objective \([0-9.]*\):.*/\1/p" log >objective &&
	awk -v got=$(cat objective) "{ want += 10 * sprintf(\"%.6g\", 1500 * (\$1 / 1000)) }
	    END { w = sprintf(\"%.6g\", want); print got, w, want
		exit !(NR == 2 && w == got) }" measured &&
	for p in $(sed "s/ .*//" log); do
		bf-audit -d sp $p >out || exit 1
		echo "history/$p.yaml: identical" >expect && test_cmp expect out || exit 1
	done
'

test_expect_success 'bf-report: the samples, grows and runs of each job and in all' '
	bf-report -d sp --csv >csv 2>err &&
	test_must_be_empty err &&
	s=$(($(cat samples.a) + $(cat samples.b))) &&
	grep -E "^total,,,,[0-9.]+,[0-9.]+,[01]\.[0-9]+,$s,[0-9]+,[0-9.]+,4,0,0,0,0,2,0,0,0,0$" csv &&
	grep -E "^user,,$U,,,[0-9.]+,[01]\.[0-9]+,$s,[0-9]+,[0-9.]+,4,0,0,0,0,2,0,0,0,0$" csv &&
	for n in a b; do
		grep -E "^job,,$U,$n,,[0-9.]+,[01]\.[0-9]+,$(cat samples.$n),[0-9]+,[0-9.]+,2,0,0,0,0,1,0,0,0,0$" csv ||
			exit 1
	done &&
	bf-report -d sp >text &&
	grep -E "^history: .*; plans enacted 2, runs ended 2$" text
'

test_done
