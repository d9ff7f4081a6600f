#!/bin/sh
# The inputs of a decision (inputs.h): one rule for which files count,
# the same for bf-solve, bf-apply and bf-watch; and the input a stale
# plan's refusal names.
. "$(dirname "$0")/lib.sh"

D="$T_DIR/data/solve"

test_expect_success 'setup: a spool with holes, jobs and a state' '
	bf-submit -d sp /dev/null 2>/dev/null;
	cp "$D/holes32.yaml" sp/holes/current.yaml &&
	for j in alexnet resnet18 vgg16; do cp "$D/$j.yaml" sp/jobs/; done &&
	cp "$D/state32.yaml" sp/state.yaml &&
	bf-solve -d sp && mask_seconds sp/plans/current.yaml >clean.plan
'

# The job files were copied in, not entered: bf-apply refuses to run
# them (78, no owner), after it found the plan fresh.
not_stale() {
	bf-apply -n -d sp >out 2>err
	test $? -eq 78 && ! grep stale err && grep "^refused vgg16 " out
}

# A job file in cancel/, one in jobs/ under a name no job may have, a
# dot file, and a profile of no job: none is an input, for anyone.
test_expect_success 'cancel/, bad names, dot files, orphan profiles: no input' '
	mkdir -p sp/cancel &&
	sed "s/^name: .*/name: zz/" "$D/densenet.yaml" >sp/cancel/zz.yaml &&
	sed "s/^name: .*/name: -bad/" "$D/densenet.yaml" >"sp/jobs/-bad.yaml" &&
	cp "$D/densenet.yaml" sp/jobs/.densenet.yaml &&
	printf "name: ghost\npoints: {1: 10}\n" >sp/profiles/ghost.yaml &&
	bf-solve -d sp 2>err &&
	echo "bf-solve: jobs/-bad.yaml: not a job file (NAME.yaml, NAME a job name), ignored" >expect &&
	test_cmp expect err &&
	mask_seconds sp/plans/current.yaml >actual && test_cmp clean.plan actual &&
	not_stale
'

# Each input changed in turn: bf-apply refuses the plan (75) and says which.
stale_by() {	# what, after the change
	test_expect_code 75 bf-apply -n -d sp >out 2>err &&
	echo "bf-apply: the plan is stale: $1 changed since it was made (run bf-solve)" >expect &&
	test_cmp expect err
}

test_expect_success 'a plan whose holes changed: stale, holes' '
	cp sp/holes/current.yaml holes.keep &&
	sed "s/^time: .*/time: 1612915999/" holes.keep >sp/holes/current.yaml &&
	stale_by holes &&
	cp holes.keep sp/holes/current.yaml
'

test_expect_success 'a plan whose jobs changed: stale, jobs' '
	cp "$D/densenet.yaml" sp/jobs/ &&
	stale_by jobs &&
	rm sp/jobs/densenet.yaml
'

test_expect_success 'a plan whose state changed: stale, state.yaml' '
	cp sp/state.yaml state.keep && echo "# edited" >>sp/state.yaml &&
	stale_by state.yaml &&
	cp state.keep sp/state.yaml
'

test_expect_success 'a plan whose policy changed: stale, policy.yaml' '
	printf "max_nodes_total: 30\n" >sp/policy.yaml &&
	stale_by policy.yaml &&
	rm sp/policy.yaml
'

test_expect_success 'a plan whose profiles changed: stale, profiles' '
	bf-profile sp/profiles/ghost.yaml >/dev/null 2>&1;
	printf "name: vgg16\npoints: {1: 10}\n" >sp/profiles/vgg16.yaml &&
	stale_by profiles &&
	rm sp/profiles/vgg16.yaml
'

test_expect_success 'back to the inputs it was made from: not stale' '
	not_stale
'

# --policy FILE is the policy: the spool's policy.yaml is not read at all,
# so one that cannot be read stops nothing.
test_expect_success 'bf-solve -d --policy FILE does not read the spool'"'"'s policy.yaml' '
	mkspool pol && cp "$D/holes32.yaml" pol/holes/current.yaml &&
	cp "$D/alexnet.yaml" pol/jobs/ &&
	mkfifo pol/policy.yaml &&
	printf "max_rescales: 3\n" >given.yaml &&
	bf-solve -d pol --policy given.yaml 2>err &&
	test_must_be_empty err && test -f pol/plans/current.yaml &&
	test_expect_code 65 bf-solve -d pol 2>err &&
	grep "policy.yaml: not a regular file" err
'

test_done
