#!/bin/sh
# bf-solve -d SPOOL reads holes/current.yaml, jobs/, state.yaml and
# policy.yaml, and delivers the model and the plan into plans/.
. "$(dirname "$0")/lib.sh"

D="$T_DIR/data/solve"

mask() {
	sed 's/seconds: [0-9.]*/seconds: S/; s/, mps: [^}]*}/}/' "$@"
}

test_expect_success 'setup: a spool with holes, jobs and a state' '
	bf-submit -d sp /dev/null 2>/dev/null;
	test -d sp/plans &&
	cp "$D/holes32.yaml" sp/holes/current.yaml &&
	for j in alexnet resnet18 vgg16; do cp "$D/$j.yaml" sp/jobs/; done &&
	cp "$D/state32.yaml" sp/state.yaml &&
	echo "not a job" >sp/jobs/notes.txt && echo junk >sp/jobs/.hidden.yaml
'

# A file of jobs/ that is not NAME.yaml is said and ignored; a dot-file
# is not said (bf-spool(5)).
test_expect_success 'the plan and its model appear in plans/, nothing in tmp/' '
	bf-solve -d sp >out 2>err &&
	test_must_be_empty out &&
	echo "bf-solve: jobs/notes.txt: not a job file (NAME.yaml, NAME a job name), ignored" >expect &&
	test_cmp expect err &&
	mps=$(sed -n "s/.*, mps: \([^}]*\)}$/\1/p" sp/plans/current.yaml) &&
	test -f "sp/$mps" &&
	hex=$(xxhsum -H3 "sp/$mps" | sed "s/.* = //") &&
	test "$mps" = "plans/1612915732-$hex.mps" &&
	find sp/tmp -type f >left && test_must_be_empty left
'

test_expect_success 'the spool plan is the filter plan' '
	bf-solve -s "$D/state32.yaml" "$D/holes32.yaml" "$D/alexnet.yaml" \
		"$D/resnet18.yaml" "$D/vgg16.yaml" >filter.plan &&
	mask filter.plan >expect &&
	mask sp/plans/current.yaml | sed "s/jobs: \"xxh3:[0-9a-f]*\"/JOBS/" >actual &&
	sed "s/jobs: \"xxh3:[0-9a-f]*\"/JOBS/" expect >expect2 &&
	test_cmp expect2 actual
'

test_expect_success 'a second run gives the same plan and model' '
	cp sp/plans/current.yaml first.plan &&
	ls sp/plans >first.ls &&
	bf-solve -d sp &&
	mask first.plan >a && mask sp/plans/current.yaml >b && test_cmp a b &&
	ls sp/plans >second.ls && test_cmp first.ls second.ls
'

test_expect_success 'without state.yaml nothing runs; BF_SPOOL is the default' '
	mv sp/state.yaml state.away &&
	BF_SPOOL=sp bf-solve &&
	grep "state: \"xxh3:2d06800538d394c2\"}" sp/plans/current.yaml &&
	! grep "was: [1-9]" sp/plans/current.yaml &&
	mv state.away sp/state.yaml
'

test_expect_success 'policy.yaml is read and digested' '
	printf "jobs:\n  vgg16: {weight: 1000}\nmax_rescales: 0\n" >sp/policy.yaml &&
	bf-solve -d sp &&
	grep "policy: \"xxh3:$(xxhsum -H3 sp/policy.yaml | sed "s/.* = //")\"" sp/plans/current.yaml &&
	grep "^  resnet18: {nodes: 0, was: 0, note: \"waits: the policy'"'"'s rescale limit: at most 0 jobs change count at a decision, 0 do\"}$" sp/plans/current.yaml &&
	grep "^  vgg16: {nodes: 4, was: 4," sp/plans/current.yaml &&
	printf "jobs:\n  vgg16: {weight: 1000}\n" >sp/policy.yaml &&
	bf-solve -d sp &&
	grep "^  resnet18: {nodes: 0, was: 0, note: \"waits: the nodes are worth more to other jobs\"}$" sp/plans/current.yaml &&
	rm sp/policy.yaml
'

test_expect_success 'a bad job in jobs/ is named with its spool path' '
	printf "name: bad\ncommand: x\nmax_nodes: -1\n" >sp/jobs/bad.yaml &&
	cp sp/plans/current.yaml before &&
	test_expect_code 65 bf-solve -d sp 2>err &&
	grep "^bf-solve: jobs/bad.yaml:3: max_nodes" err &&
	test_cmp before sp/plans/current.yaml &&
	rm sp/jobs/bad.yaml
'

test_expect_success 'a spool without holes/current.yaml: 66' '
	mv sp/holes/current.yaml holes.away &&
	test_expect_code 66 bf-solve -d sp 2>err &&
	echo "bf-solve: unable to open holes/current.yaml: No such file or directory" >expect &&
	test_cmp expect err &&
	mv holes.away sp/holes/current.yaml
'

# state.yaml unobtained (bf-spool(5)): nodes a start or grow did not get
# stay out of the decisions made from the same holes file, for a minute;
# then the next bf-apply drops the record and they are planned again.
unobtained() {	# since
	printf "time: 1000\njobs: {}\nunobtained: {holes: \"%s\", hosts: \"n[3-4]\", since: %s}\n" \
		"$(cat dig)" "$1" >un/state.yaml
}
test_expect_success 'nodes not obtained: out of the plan for 60 s, then planned again' '
	bf-submit -d un /dev/null 2>/dev/null; test -d un/plans &&
	holes un 1000 "n[1-4]" &&
	bf-solve -d un &&
	sed -n "s/^inputs: {holes: \"\(xxh3:[0-9a-f]*\)\".*/\1/p" un/plans/current.yaml >dig &&
	grep -q "^xxh3:[0-9a-f]\{16\}$" dig &&
	now=$(date +%s) && unobtained $((now - 50)) && cp un/state.yaml fresh &&
	bf-apply -d un && test_cmp fresh un/state.yaml &&
	cp "$D/alexnet.yaml" un/jobs/ && bf-solve -d un &&
	grep "^  alexnet: {nodes: 2, was: 0, hosts: \"n\[1-2\]\"" un/plans/current.yaml &&
	rm un/jobs/alexnet.yaml && bf-solve -d un &&
	unobtained $((now - 61)) && bf-apply -d un &&
	! grep -q unobtained un/state.yaml &&
	grep "^jobs: {}$" un/state.yaml &&
	cp "$D/alexnet.yaml" un/jobs/ && bf-solve -d un &&
	grep "^  alexnet: {nodes: 4, was: 0, hosts: \"n\[1-4\]\"" un/plans/current.yaml
'

test_expect_success 'unobtained: a record without since is dropped; a bad since refused' '
	rm un/jobs/alexnet.yaml && bf-solve -d un &&
	printf "time: 1000\njobs: {}\nunobtained: {holes: \"%s\", hosts: \"n[3-4]\"}\n" \
		"$(cat dig)" >un/state.yaml &&
	bf-apply -d un && ! grep -q unobtained un/state.yaml &&
	unobtained $(date +%s) && BF_UNOBTAINED_SECS=3600 bf-apply -d un &&
	grep -q unobtained un/state.yaml &&
	BF_UNOBTAINED_SECS=0 bf-apply -d un && ! grep -q unobtained un/state.yaml &&
	unobtained -5 && test_expect_code 65 bf-apply -d un 2>err && cat err &&
	grep "state.yaml:3: since" err
'

test_done
