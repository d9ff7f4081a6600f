#!/bin/sh
# bf-apply --backend slurm against a live private Slurm 22.05 with 8 nodes
# (t/lib-slurm.sh): one pilot job per node in partition bf, its id in
# run/NAME/pilots, the hosts file listing the nodes held; a main job takes
# nodes from bftrainer at once (zero cost) and the next poll shrinks the
# jobs; a main job taking every node leaves no pilot and loses no job;
# --cleanup cancels every pilot of the spool and nothing else.
. "$(dirname "$0")/lib.sh"
. "$T_DIR/lib-slurm.sh"

TITLES='a private Slurm starts with 8 idle nodes
a job given 3 nodes holds them with 3 pilots, recorded and listed
zero cost: bftrainer holds all 8 nodes, a main job takes 4 at once
the next poll shrinks bftrainer to the 4 nodes left, recorded
storm: a main job takes all 8 nodes; no pilot left, no job lost
--cleanup cancels every pilot of the spool and nothing else
pilots in the state: kept by bf-solve, bad ones refused
every daemon and job stopped by pid'

slurm_usable || test_slurm_skip_all "$TITLES"

t0=$(date +%s)
apply() {
	bf-apply -d sp -g 2 --allow-root-jobs --backend slurm "$@"
}
job_running() { [ "$(squeue -h -j "$1" -o %T 2>/dev/null)" = RUNNING ]; }
no_pilot() { [ -z "$(pilots)" ]; }
no_main() { [ -z "$(squeue -h -p main -o %i)" ]; }
# The nodes held in the state, one a line, sorted.
state_nodes() {
	sed -n 's/^  [^:]*: {nodes: [0-9]*, hosts: "\([^"]*\)".*/\1/p' \
		sp/state.yaml | paste -sd, | xargs -r scontrol show hostnames |
		sort
}
cleanup_all() {
	kill_jobs sp
	scancel -u root 2>/dev/null
}

slurm_start 2>start.err
start_rc=$?
test_expect_success 'a private Slurm starts with 8 idle nodes' '
	cat "$TRASH/start.err" && test $start_rc = 0 &&
	test $(sinfo -h -N -p bf -t idle -o %N | wc -l) = 8
'

mkspool sp
TAG=$(slurm_pilot_tag sp)

test_expect_success 'a job given 3 nodes holds them with 3 pilots, recorded and listed' '
	holes sp 1000 "n[1-3]" &&
	job sp a 3 "exec $J" &&
	bf-submit --intake -d sp 2>/dev/null && bf-solve -d sp &&
	apply >actual &&
	echo "start a 0->3 n[1-3]" >expect && test_cmp expect actual &&
	pilots >p && cat p &&
	awk "{ print \$2, \$3, \$4 }" p >actual &&
	printf "${TAG}a n%s RUNNING\n" 1 2 3 >expect && test_cmp expect actual &&
	awk "{ print \$3, \$1 }" p | sort >expect &&
	sort sp/run/a/pilots >actual && test_cmp expect actual &&
	printf "n1:1\nn2:1\nn3:1\n" >expect && test_cmp expect sp/run/a/hosts &&
	ids=$(awk "{ printf \"%s%s: %s\", (NR > 1 ? \", \" : \"\"), \$3, \$1 }" p) &&
	echo "  a: {nodes: 3, hosts: \"n[1-3]\", pilots: {$ids}}" >expect &&
	grep "^  a: " sp/state.yaml >actual && test_cmp expect actual &&
	wait_for 5 grep -q "^start a nodes=3 " sp/run/a/output &&
	apply >actual && test_must_be_empty actual
'

test_expect_success 'zero cost: bftrainer holds all 8 nodes, a main job takes 4 at once' '
	holes sp 1001 "n[1-8]" &&
	job sp b 5 "exec $J" &&
	bf-submit --intake -d sp 2>/dev/null && bf-solve -d sp &&
	apply && cat sp/state.yaml &&
	state_nodes >held && printf "n%s\n" 1 2 3 4 5 6 7 8 >expect &&
	test_cmp expect held &&
	test $(pilots | grep -c " RUNNING$") = 8 &&
	s=$(date +%s.%N) &&
	sbatch --parsable -p main -N4 --exclusive -t 5 -J main4 \
		--wrap "sleep 300" >"$TRASH/main4" &&
	slurm_wait 30 job_running $(cat "$TRASH/main4") &&
	e=$(date +%s.%N) &&
	echo "$s $e" | awk "{ printf \"main job started %.2f s after submission\\n\", \$2 - \$1 }" |
		tee "$TRASH/delay" &&
	test $(pilots | wc -l) = 4
'
sed 's/^/# /' delay 2>/dev/null

test_expect_success 'the next poll shrinks bftrainer to the 4 nodes left, recorded' '
	scontrol show hostnames "$(squeue -h -j $(cat main4) -o %N)" | sort >main.nodes &&
	cp sp/state.yaml state.before && pilots >pilots.before &&
	apply -n >actual && test_cmp state.before sp/state.yaml &&
	pilots >pilots.after && test_cmp pilots.before pilots.after &&
	if test_valgrind_usable; then
		vg bf-apply -d sp -g 2 --allow-root-jobs --backend slurm >actual
	else
		apply >actual
	fi; rc=$?; cat actual && test $rc = 0 && cat sp/state.yaml &&
	grep "^adopt " actual &&
	printf "n%s\n" 1 2 3 4 5 6 7 8 | comm -23 - main.nodes >expect &&
	state_nodes >held && test_cmp expect held &&
	pilots | awk "{ print \$3 }" | sort >pilot.nodes &&
	test_cmp expect pilot.nodes &&
	cat sp/run/*/pilots.log sp/history/runs/*/pilots.log 2>/dev/null |
		grep " leave " >leaves &&
	test $(wc -l <leaves) = 4 &&
	awk "{ print \$3 }" leaves | sort >left && test_cmp main.nodes left &&
	cat sp/run/*/hosts | sed "s/:.*//" | sort >hosts && test_cmp expect hosts &&
	sed -n "s/.*pilots: {\(.*\)}}$/\1/p" sp/state.yaml | tr , "\n" |
		sed "s/^ *//; s/:.*//" | sort >state.pilots &&
	test_cmp expect state.pilots &&
	cat sp/run/*/pilots sp/run/*/pilots.log &&
	apply >again; cat again && cat sp/run/*/pilots && ! grep "^adopt " again
'

test_expect_success 'storm: a main job takes all 8 nodes; no pilot left, no job lost' '
	sbatch --parsable -p main -N8 --exclusive -t 5 -J main8 \
		--wrap "sleep 300" >main8 &&
	scancel $(cat main4) &&
	slurm_wait 30 job_running $(cat main8) &&
	apply >actual; cat actual &&
	no_pilot &&
	grep "^jobs: {}$" sp/state.yaml &&
	test -f sp/jobs/a.yaml && test -f sp/jobs/b.yaml &&
	grep "^preempted b 4->0 " actual &&
	! grep "^failed\|^lost\|^finished" actual &&
	test ! -e sp/run/a/pid && test ! -e sp/run/b/pid &&
	grep -l "^outcome: preempted$" sp/history/runs/*-a-*.yaml &&
	grep -l "^outcome: preempted$" sp/history/runs/*-b-*.yaml &&
	! grep -l "^outcome: \(failed\|lost\)" sp/history/runs/*.yaml &&
	holes sp 1002 "" && bf-solve -d sp && apply >actual &&
	test_must_be_empty actual && no_pilot &&
	scancel $(cat main8) && slurm_wait 30 no_main
'

test_expect_success '--cleanup cancels every pilot of the spool and nothing else' '
	scancel $(cat main4 main8) 2>/dev/null; slurm_wait 30 no_main &&
	holes sp 1003 "n[1-4]" && bf-solve -d sp && apply >actual &&
	cat actual && test $(pilots | wc -l) = 4 &&
	sbatch --parsable -p bf -N1 -J bf-other --wrap "sleep 300" >other &&
	pilots >before &&
	if test_valgrind_usable; then
		vg bf-apply -d sp --cleanup >actual
	else
		bf-apply -d sp --cleanup >actual
	fi && cat actual &&
	awk "{ print \"cancelled\", \$1, \$2, \$3 }" before >expect &&
	sort -k2n actual >sorted && test_cmp expect sorted &&
	slurm_wait 10 no_pilot &&
	test "$(squeue -h -j $(cat other) -o %j)" = bf-other &&
	bf-apply -d sp --cleanup >actual && test_must_be_empty actual
'

test_expect_success 'pilots in the state: kept by bf-solve, bad ones refused' '
	bf-solve -d sp && grep -q "pilots: {" sp/state.yaml &&
	cp sp/state.yaml good.yaml &&
	sed "s/pilots: {n\([0-9]\): [0-9]*/pilots: {n\1: x/" good.yaml >sp/state.yaml &&
	test_expect_code 65 bf-solve -d sp 2>err && cat err &&
	grep "state.yaml:[0-9]*: pilot id" err &&
	cp good.yaml sp/state.yaml && bf-solve -d sp
'

cleanup_all
test_slurm_stop 'every daemon and job stopped by pid'

echo "# t8020: $(($(date +%s) - t0)) s of wall time"
test_done
