#!/bin/sh
# The cancel protocol against a local user (issue #33, items 2, 3, 5, 6, 7):
# a directory planted at a request's answer fails that answer alone; a hard
# link into cancel/ to another user's file cancels nothing; cancelled and
# finished jobs that ignore SIGTERM stop together, one grace in all; a flood
# of requests never delays the answer to a holes change; SIGTERM is obeyed
# at once whatever incoming/ holds.  Each case failed before its fix.
. "$(dirname "$0")/lib.sh"

test_need_root_setpriv 'the cancel protocol against a local user'
test_public_trash

A=4321 B=4322
deaf="trap \"\" TERM; echo up; while :; do sleep 0.1; done"
submit() {	# uid name command
	printf 'name: %s\ncommand: %s\nmax_nodes: 1\nscaling: {1: 100}\n' \
		"$2" "$3" >"$2.yaml" && chmod 644 "$2.yaml" &&
	as "$1" bf-submit -d sp "$2.yaml" 2>/dev/null
}
token() {	# : 16 hex digits
	od -An -N8 -tx1 /dev/urandom | tr -d " \n"
}
trap 'stop_watch; kill_jobs sp' EXIT

test_expect_success 'setup: a root spool, A'"'"'s a and B'"'"'s b run' '
	mkspool sp && chmod 755 . && holes sp 1000 "n[1-4]" &&
	submit $A a "exec $J" && submit $B b "exec $J" &&
	bf-submit --intake -d sp 2>/dev/null &&
	bf-solve -d sp >/dev/null && bf-apply -d sp -g 1 >out &&
	grep -q "^  a: " sp/state.yaml && grep -q "^  b: " sp/state.yaml
'

test_expect_success 'a directory at a request'"'"'s answer: that request dropped, logged; every other answered, the plan applied' '
	t=$(token) &&
	as $A mkdir sp/cancel/x@$t.answer &&
	as $A sh -c "echo > sp/cancel/.x@$t && mv sp/cancel/.x@$t sp/cancel/x@$t" &&
	t2=$(token) &&
	as $A sh -c "echo > sp/cancel/.nojob@$t2 && mv sp/cancel/.nojob@$t2 sp/cancel/nojob@$t2" &&
	holes sp 1001 "n[1-4]" && bf-solve -d sp >/dev/null &&
	bf-apply -d sp -g 1 >out 2>err &&
	cat err &&
	grep -x "bf-apply: cancel/x@$t: .*x@$t.answer: exists already, not replaced; the request removed unanswered" err &&
	test ! -e sp/cancel/x@$t && test -d sp/cancel/x@$t.answer &&
	test -f sp/cancel/nojob@$t2.answer && test ! -e sp/cancel/nojob@$t2 &&
	grep -x "66 no job nojob in jobs/" sp/cancel/nojob@$t2.answer
'

test_expect_success 'a hard link into cancel/ to a file of B'"'"'s: B'"'"'s job goes on, the link removed' '
	mkdir -m 1777 pub && as $B sh -c "echo > pub/bfile" &&
	chmod 666 pub/bfile && t=$(token) &&
	as $A ln pub/bfile sp/cancel/b@$t &&
	test "$(stat -c %u sp/cancel/b@$t)" = $B &&
	bf-apply -d sp -g 1 >out 2>err &&
	grep -x "bf-apply: cancel/b@$t: has 2 names (a hard link), removed unanswered" err &&
	test ! -e sp/cancel/b@$t && test ! -e sp/cancel/b@$t.answer &&
	test -f pub/bfile && grep -q "^  b: " sp/state.yaml && test -f sp/jobs/b.yaml
'

test_expect_success 'four cancelled jobs that ignore SIGTERM stop together: one grace in all' '
	bf-apply -d sp --cleanup >/dev/null 2>&1; kill_jobs sp;
	rm -rf sp && mkspool sp && holes sp 2000 "n[1-4]" &&
	for n in c1 c2 c3 c4; do submit $A $n "$deaf" || exit 1; done &&
	bf-submit --intake -d sp 2>/dev/null &&
	bf-solve -d sp >/dev/null && bf-apply -d sp -g 2 >out &&
	test $(grep -c "^start " out) = 4 &&
	for n in c1 c2 c3 c4; do wait_for 5 grep -q up sp/run/$n/output || exit 1; done &&
	for n in c1 c2 c3 c4; do
		t=$(token) &&
		as $A sh -c "echo > sp/cancel/.$n@$t && mv sp/cancel/.$n@$t sp/cancel/$n@$t" || exit 1
	done &&
	t0=$(date +%s.%N) &&
	bf-apply -d sp -g 2 >out &&
	t1=$(date +%s.%N) &&
	test $(grep -c "^cancelled " out) = 4 &&
	awk -v a="$t0" -v b="$t1" "BEGIN { s = b - a; print s \" s\";
		exit !(s >= 2 && s < 4) }"
'

test_expect_success 'a flood of 3,000 requests: the nodes taken back are given back first' '
	kill_jobs sp; rm -rf sp && mkspool sp && holes sp 3000 "n[1-2]" &&
	submit $A f "exec $J" && bf-submit --intake -d sp 2>/dev/null &&
	bf-solve -d sp >/dev/null && bf-apply -d sp -g 1 >out &&
	grep -q "^start f " out &&
	as $A sh -c "cd sp/cancel && i=0; while [ \$i -lt 3000 ]; do : >zz\$i@0000000000\$(printf %06x \$i); i=\$((i + 1)); done" &&
	holes sp 3001 "" && bf-solve -d sp >/dev/null &&
	bf-apply -d sp -g 1 >out &&
	head -1 out | grep -x "stop f 1->0 plan" &&
	n=$(ls sp/cancel | grep -c "\.answer$") &&
	test "$n" -eq 64 &&
	test $(ls sp/cancel | grep -vc "\.answer$") -eq $((3000 - 64))
'

test_expect_success 'SIGTERM with 20,000 files in incoming/: bf-watch exits 0 within 2 s' '
	rm -rf sp && mkspool sp && holes sp 4000 "n1" &&
	(cd sp/incoming && seq -f "name: j%g" 1 20000 | split -l 1 -a 5 - f) &&
	test $(ls sp/incoming | wc -l) -eq 20000 &&
	start_watch sp &&
	wait_for 10 eval "test \$(ls sp/rejected | wc -l) -gt 10" &&
	left=$(ls sp/incoming | wc -l) && test "$left" -gt 1000 &&
	t0=$(date +%s.%N) && p=$(cat watch.pid) && kill -TERM $p &&
	wait_for 10 eval "! alive $p" && t1=$(date +%s.%N) && rm -f watch.pid &&
	awk -v a="$t0" -v b="$t1" "BEGIN { s = b - a; print s \" s\";
		exit !(s < 2) }" &&
	grep -q "^bf-watch: stop: SIGTERM; " watch.log &&
	test $(ls sp/incoming | wc -l) -gt 0
'

test_done
