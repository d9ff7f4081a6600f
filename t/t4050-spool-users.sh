#!/bin/sh
# Other users: through a root spool, a user cannot replace, cancel or read
# another user's job, progress log or output, nor hold the spool's locks;
# every file bftrainer creates has the mode bf-spool(5) SECURITY states.
. "$(dirname "$0")/lib.sh"
# Other uids run the programs and reach the spool: t/lib.sh.
test_public_trash

test_need_root_setpriv 'users of a root spool'

A=4321 B=4322
jobfile() {	# name command [samples]
	printf 'name: %s\ncommand: %s\nmax_nodes: 1\n' "$1" "$2"
	[ -n "${3:-}" ] && printf 'samples: %s\n' "$3"
	printf 'scaling:\n  1: 100\n'
}

test_expect_success 'setup: a root spool; user A submits a, c and a bad file' '
	mkspool sp && holes sp 1000 "n[01-03]" &&
	mkdir -m 755 files &&
	jobfile a "exec $J" >files/a.yaml &&
	jobfile c "exec $J fail" >files/c.yaml &&
	printf "name: bad\ncommand: secret-of-A\nmax_nodes: lots\n" >files/bad.yaml &&
	chmod 644 files/* &&
	as $A bf-submit -d sp files/a.yaml files/c.yaml &&
	cp files/bad.yaml sp/incoming/bad.yaml && chown $A:$A sp/incoming/bad.yaml &&
	chmod 644 sp/incoming/bad.yaml &&
	test "$(stat -c %a:%u sp/incoming/a.yaml)" = 600:$A
'

test_expect_success 'B cannot list incoming/, nor read, remove or replace A'"'"'s file there' '
	test_must_fail as $B ls sp/incoming &&
	test_must_fail as $B cat sp/incoming/a.yaml &&
	test_must_fail as $B rm -f sp/incoming/a.yaml &&
	test_must_fail as $B mv sp/incoming/c.yaml sp/incoming/x.yaml &&
	jobfile a "exec echo B-was-here" >files/b-a.yaml && chmod 644 files/b-a.yaml &&
	test_must_fail as $B sh -c "cat files/b-a.yaml >sp/incoming/a.yaml" &&
	test -f sp/incoming/a.yaml && test -f sp/incoming/c.yaml &&
	cmp sp/incoming/a.yaml files/a.yaml
'

test_expect_success 'intake: jobs/ files are the spool owner'"'"'s only; a refused file and its reason its submitter'"'"'s' '
	bf-submit --intake -d sp 2>intake.log &&
	test "$(stat -c %a:%U sp/jobs/a.yaml)" = 600:root &&
	test "$(stat -c %a:%u:%g sp/rejected/bad.yaml)" = 600:$A:$A &&
	test "$(stat -c %a:%u:%g sp/rejected/bad.yaml.err)" = 600:$A:$A &&
	test_must_fail as $B cat sp/jobs/a.yaml &&
	test_must_fail as $B cat sp/rejected/bad.yaml &&
	test_must_fail as $B cat sp/rejected/bad.yaml.err &&
	as $A cat sp/rejected/bad.yaml.err >why &&
	grep "max_nodes" why
'

test_expect_success 'B submitting a job of the same name is refused; A'"'"'s job unchanged' '
	cp sp/jobs/a.yaml a.before &&
	as $B bf-submit -d sp files/b-a.yaml 2>err;
	test $? -eq 65 && grep "job name .a. is taken by sp/jobs/a.yaml" err &&
	as $B sh -c "cat files/b-a.yaml >sp/incoming/b-a.yaml" &&
	bf-submit --intake -d sp 2>>intake.log &&
	cmp a.before sp/jobs/a.yaml &&
	grep "taken by jobs/a.yaml" sp/rejected/b-a.yaml.err &&
	test "$(stat -c %u sp/rejected/b-a.yaml.err)" = $B &&
	test_must_fail as $A cat sp/rejected/b-a.yaml.err
'

test_expect_success 'apply: a runs as A; its output and progress log are A'"'"'s only' '
	bf-solve -d sp >/dev/null && bf-apply -d sp -g 2 >out &&
	grep "^start a 0->1" out &&
	wait_for 5 grep -q "^start a nodes=1 uid=$A gid=$A$" sp/run/a/output &&
	wait_for 5 test -s sp/progress/a.log &&
	test "$(stat -c %a:%u sp/run/a/output)" = 600:$A &&
	test "$(stat -c %a:%u sp/progress/a.log)" = 600:$A &&
	as $A cat sp/run/a/output sp/progress/a.log >/dev/null &&
	test_must_fail as $B cat sp/run/a/output &&
	test_must_fail as $B cat sp/progress/a.log
'

test_expect_success 'B cannot cancel a: not by its job file, progress log, hosts or processes' '
	test_must_fail as $B rm -f sp/jobs/a.yaml &&
	test_must_fail as $B sh -c "echo \"9 1 999999999\" >>sp/progress/a.log" &&
	test_must_fail as $B sh -c ": >sp/run/a/hosts" &&
	test_must_fail as $B rm -rf sp/run/a &&
	test_must_fail as $B mv sp/run/a/hosts sp/run/a/h &&
	pgid=$(sed -n "s/^pgid: //p" sp/run/a/pid) &&
	test_must_fail as $B kill -TERM -- -$pgid &&
	test_must_fail as $B sh -c ": >sp/state.yaml" &&
	test_must_fail as $B sh -c ": >sp/holes/current.yaml" &&
	test_must_fail as $B sh -c ": >sp/plans/current.yaml" &&
	test_must_fail as $B mkdir sp/run/x &&
	bf-solve -d sp >/dev/null && bf-apply -d sp -g 2 >out2 &&
	! grep " a " out2 &&
	started_once sp a && state_true sp
'

# flock(2) works on a descriptor open for reading: a lock file others
# could open would let anyone hold the spool, or a job's start.
test_expect_success 'B cannot open the spool'"'"'s lock nor a run'"'"'s lock' '
	test "$(stat -c %a sp/lock)" = 600 &&
	test "$(stat -c %a sp/run/a/lock)" = 600 &&
	test_must_fail as $B flock -n -s sp/lock true &&
	test_must_fail as $B flock -n -s sp/run/a/lock true
'

test_expect_success 'files an older version left readable by all are narrowed' '
	chmod 644 sp/lock sp/jobs/a.yaml sp/progress/a.log sp/run/a/output \
		sp/history/objects/* &&
	bf-apply -d sp -g 2 >/dev/null &&
	for f in sp/lock sp/jobs/a.yaml sp/progress/a.log sp/run/a/output \
	    sp/history/objects/*; do
		test "$(stat -c %a "$f")" = 600 || { echo "$f"; exit 1; }
	done &&
	test "$(stat -c %a sp/state.yaml)" = 644
'

test_expect_success 'a retired run keeps its output A'"'"'s; history/objects the owner'"'"'s' '
	wait_for 5 grep -q "^start c " sp/run/c/output 2>/dev/null ||
	    wait_for 5 grep -q "^start c " sp/history/runs/*-c-*/output &&
	bf-solve -d sp >/dev/null && bf-apply -d sp -g 2 >out3 &&
	cat out out2 out3 | grep "^failed c 1->0 exit 3" &&
	out=$(ls sp/history/runs/*-c-*/output) &&
	test "$(stat -c %a:%u "$out")" = 600:$A &&
	test_must_fail as $B cat "$out" &&
	for o in sp/history/objects/*; do
		# holes, state, profiles: public (0644), or narrowed above
		if grep -q "^command:" "$o"; then m=600; else m="(600|644)"; fi
		stat -c %a:%U "$o" | grep -Eqx "$m:root" || { echo "$o"; exit 1; }
	done &&
	for o in $(grep -l "^command:" sp/history/objects/*); do
		test_must_fail as $B cat "$o" 2>/dev/null || exit 1
	done &&
	{ as $B grep -rl "exec $J" sp 2>/dev/null >found; true; } &&
	test_must_be_empty found &&
	as $B grep -l "^jobs:" sp/plans/current.yaml &&
	grep -rl "exec $J fail" sp >found &&
	grep objects found
'

# Every path of the spool after this run, with what varies masked: the
# modes and owners bf-spool(5) SECURITY states, nothing else.
test_expect_success 'every file and directory has the documented mode and owner' '
	find sp ! -path "sp/history/objects/?*" -printf "%m %U %y %p\n" |
	sed -e "s/ $A / A /" -e "s/ $B / B /" -e "s/ 0 / root /" \
	    -e "s,/[0-9]*-[0-9a-f]\{16\}\.,/TIME-HEX.," \
	    -e "s,objects/[0-9a-f]\{16\}$,objects/HEX," \
	    -e "s,runs/[0-9]*-c-[0-9]*,runs/ENDED-c-ID," | sort -u -k4 >actual &&
	cat >expect <<-\EOT &&
	755 root d sp
	1733 root d sp/cancel
	755 root d sp/history
	644 root f sp/history/TIME-HEX.inputs.yaml
	644 root f sp/history/TIME-HEX.mps
	644 root f sp/history/TIME-HEX.yaml
	644 root f sp/history/allocs.idx
	755 root d sp/history/objects
	755 root d sp/history/runs
	755 root d sp/history/runs/ENDED-c-ID
	644 root f sp/history/runs/ENDED-c-ID.yaml
	644 root f sp/history/runs/ENDED-c-ID/exit
	644 root f sp/history/runs/ENDED-c-ID/hosts
	600 root f sp/history/runs/ENDED-c-ID/lock
	600 A f sp/history/runs/ENDED-c-ID/output
	644 root f sp/history/runs/ENDED-c-ID/pid
	600 A f sp/history/runs/ENDED-c-ID/progress.log
	755 root d sp/holes
	644 root f sp/holes/current.yaml
	1733 root d sp/incoming
	755 root d sp/jobs
	600 root f sp/jobs/a.yaml
	600 root f sp/lock
	755 root d sp/plans
	644 root f sp/plans/TIME-HEX.mps
	644 root f sp/plans/current.yaml
	755 root d sp/profiles
	755 root d sp/progress
	600 A f sp/progress/a.log
	755 root d sp/rejected
	600 B f sp/rejected/b-a.yaml
	600 B f sp/rejected/b-a.yaml.err
	600 A f sp/rejected/bad.yaml
	600 A f sp/rejected/bad.yaml.err
	755 root d sp/run
	755 root d sp/run/a
	644 root f sp/run/a/hosts
	600 root f sp/run/a/lock
	600 A f sp/run/a/output
	644 root f sp/run/a/pid
	644 root f sp/state.yaml
	1733 root d sp/tmp
	EOT
	test_cmp expect actual
'

# A spool a user made (issue #17): she could have written any job file
# there, naming any owner.  Root's programs refuse it, before reading
# anything; a spool a user makes is her own, mode 0700.
test_expect_success 'a spool A made is hers alone (0700); root'"'"'s programs refuse it (78)' '
	mkdir -m 755 adir && chown $A:$A adir &&
	as $A bf-submit -d adir/sp files/a.yaml >/dev/null &&
	test "$(stat -c %a:%u adir/sp)" = 700:$A &&
	test "$(stat -c %a:%u adir/sp/jobs)" = 755:$A &&
	as $A sh -c "printf \"time: 1000\nsource: test\nidle:\n  - nodes: n1\n\" >adir/sp/holes/current.yaml" &&
	printf "command: \"exec %s\"\nmax_nodes: 1\nmin_nodes: 1\nname: evil\nowner: {uid: %s}\nrescale_down: 10\nrescale_up: 20\nslots_per_node: 1\nweight: 1\n" \
	    "$J" $B >evil.yaml && chmod 644 evil.yaml &&
	as $A cp evil.yaml adir/sp/jobs/evil.yaml &&
	grep "^owner: {uid: $B}" adir/sp/jobs/evil.yaml &&
	for prog in bf-solve "bf-apply --allow-root-jobs -g 1" \
	    "bf-watch --once --allow-root-jobs -g 1" "bf-submit --intake" \
	    bf-profile "bf-audit --log" "bf-hosts evil"; do
		test_expect_code 78 $prog -d adir/sp >out 2>err || exit 1
		echo "${prog%% *}: adir/sp: owned by uid $A, not by root: refused (bf-spool(5), SECURITY)" >expect &&
		test_cmp expect err && test_must_be_empty out || exit 1
	done &&
	test ! -e adir/sp/plans/current.yaml && test ! -e adir/sp/run/evil
'

test_expect_success 'B refuses A'"'"'s spool too, and may still submit to root'"'"'s' '
	mkdir -m 711 adir2 && chown $A:$A adir2 &&
	as $A bf-submit -d adir2/sp files/a.yaml >/dev/null &&
	as $A chmod 755 adir2/sp &&
	jobfile b2 "exec true" >files/b2.yaml && chmod 644 files/b2.yaml &&
	test_expect_code 78 as $B bf-submit -d adir2/sp files/b2.yaml 2>err &&
	echo "bf-submit: adir2/sp: owned by uid $A, not by root or uid $B: refused (bf-spool(5), SECURITY)" >expect &&
	test_cmp expect err &&
	as $B bf-submit -d sp files/b2.yaml >out && grep "incoming/b2.yaml" out &&
	rm sp/incoming/b2.yaml
'

# A root spool whose directories others may write is no better: incoming/
# and tmp/ may be written by all only with the sticky bit.
test_expect_success 'a directory of a root spool that others may write or own: refused (78)' '
	mkspool wsp &&
	for d in . jobs rejected holes progress profiles plans history run; do
		chmod 777 wsp/$d &&
		test_expect_code 78 bf-solve -d wsp 2>err || exit 1
		p=wsp/$d && [ $d = . ] && p=wsp
		echo "bf-solve: $p: mode 0777 lets others write it: refused (bf-spool(5), SECURITY)" >expect &&
		test_cmp expect err || exit 1
		chmod 755 wsp/$d && chown $A wsp/$d &&
		test_expect_code 78 bf-apply -n -d wsp 2>err || exit 1
		echo "bf-apply: $p: owned by uid $A, not by root: refused (bf-spool(5), SECURITY)" >expect &&
		test_cmp expect err && chown 0 wsp/$d || exit 1
	done &&
	for d in incoming tmp; do
		chmod 0777 wsp/$d &&
		test_expect_code 78 bf-submit --intake -d wsp 2>err || exit 1
		echo "bf-submit: wsp/$d: mode 0777 lets others write it without the sticky bit: refused (bf-spool(5), SECURITY)" >expect &&
		test_cmp expect err && chmod 1777 wsp/$d &&
		bf-submit --intake -d wsp || exit 1
		chmod 1733 wsp/$d
	done &&
	mkdir -p wsp/history/objects && chmod 777 wsp/history/objects &&
	test_expect_code 78 bf-audit -d wsp 1-0000000000000000 2>err &&
	echo "bf-audit: wsp/history/objects: mode 0777 lets others write it: refused (bf-spool(5), SECURITY)" >expect &&
	test_cmp expect err
'

kill_jobs sp
test_done
