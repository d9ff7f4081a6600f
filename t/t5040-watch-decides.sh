#!/bin/sh
# bf-watch decides in its own process (decide.h): no bf-solve to run, and
# the plan, the model and the history it leaves are the ones the chain
# bf-solve -d; bf-apply -d leaves from the same spool.
. "$(dirname "$0")/lib.sh"

# Two spools with the same jobs and holes: one spool entered, then
# copied.  (Entered twice, the jobs' "submitted:" seconds differed when
# the two intakes fell in different seconds, and so did every digest.)
setup() {
	rm -rf w c && mkspool w &&
	for n in a b c; do job w $n 3 "exec $J"; done &&
	bf-submit --intake -d w >/dev/null 2>&1 &&
	holes w 1000 "n[01-05]" && cp -a w c &&
	test "$(ls w/jobs)" = "$(printf "a.yaml\nb.yaml\nc.yaml")"
}

test_expect_success 'bf-watch alone, no bf-solve on PATH: decides and enacts' '
	setup && mkdir -p alone && cp "$BF_ROOT/bin/bf-watch" alone/ &&
	PATH="$PWD/alone:/usr/bin:/bin" timeout -s KILL 30 bf-watch -d w \
		--once --allow-root-jobs -g 1 --no-profile 2>watch.log &&
	! grep -i "not found\|unable to run" watch.log &&
	test -f w/plans/current.yaml && grep -q "decision: .*start a 0->" watch.log &&
	test $(ls w/history/*.inputs.yaml | wc -l) -eq 1
'
kill_jobs w

test_expect_success 'the chain bf-solve -d; bf-apply -d on the same inputs' '
	bf-solve -d c && bf-apply -d c --allow-root-jobs >apply.out &&
	grep "^start a " apply.out
'
kill_jobs c

# The first plan is the one enacted; bf-watch --once then solved again
# from the new state, as bf-solve would have.
enacted() {	# spool: its one enacted plan
	ls "$1"/history/*.yaml | grep -v "\.inputs\.yaml$"
}

test_expect_success 'the same plan enacted, byte for byte but solver.seconds' '
	mask_seconds $(enacted w) >expect && mask_seconds $(enacted c) >actual &&
	test_cmp expect actual && mask_seconds c/plans/current.yaml >actual &&
	test_cmp expect actual
'

test_expect_success 'the same model in plans/ and history/, the same objects' '
	mps=$(sed -n "s/.*, mps: \(plans\/[^}]*\)}$/\1/p" c/plans/current.yaml) &&
	cmp "w/$mps" "c/$mps" &&
	cmp w/history/*.mps c/history/*.mps &&
	ls w/history/objects >expect && ls c/history/objects >actual &&
	test_cmp expect actual
'

test_expect_success 'the same manifest but for the enacted time and plan digest' '
	sed "/^enacted: /d; /^plan: /d" w/history/*.inputs.yaml >expect &&
	sed "/^enacted: /d; /^plan: /d" c/history/*.inputs.yaml >actual &&
	test_cmp expect actual
'

test_expect_success 'bf-audit re-derives the plan bf-watch made' '
	stem=$(basename w/history/*.inputs.yaml .inputs.yaml) &&
	bf-audit -d w "$stem" >out &&
	echo "history/$stem.yaml: identical" >expect && test_cmp expect out
'

# A decision that fails in the daemon is logged as the solve's message,
# and not made again until an input changes; in its place the give-back
# plan (bf-solve(1)), which starts nothing.
test_expect_success 'a job file the solve refuses: said once, no loop' '
	setup && bf-submit --intake -d w >/dev/null 2>&1 &&
	sed "s/^name: a$/name: y/" w/jobs/a.yaml >w/jobs/x.yaml &&
	timeout -s KILL 30 bf-watch -d w --once --allow-root-jobs -g 1 \
		--no-profile 2>watch2.log; rc=$?;
	kill_jobs w; test $rc -eq 0 &&
	line=$(grep -n "^name: " w/jobs/x.yaml | cut -d: -f1) &&
	{ echo "bf-watch: solve: jobs/x.yaml:$line: name '"'y'"' is not the file'"'"'s (x.yaml holds job x only); waiting for new input" &&
	  echo "bf-watch: solve: no plan could be made; until one is, the give-back plan keeps each job only its nodes still in the holes"
	} >expect &&
	grep "solve:" watch2.log >actual && test_cmp expect actual &&
	grep -x "solver: {name: give-back, model: none, status: no-plan, objective: 0, seconds: 0.000, tfwd: 0}" w/plans/current.yaml &&
	grep -x "jobs: {}" w/plans/current.yaml && test ! -d w/run/a
'

test_done
