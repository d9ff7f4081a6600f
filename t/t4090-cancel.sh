#!/bin/sh
# bf-cancel: a user cancels their own jobs, running or waiting, through
# SPOOL/cancel/, answered by the root daemon (bf-watch) within its normal
# latency; another user's job is refused (77) and nothing changes; root may
# cancel any job; an unknown job is 66; without a daemon the request waits
# (75) and the next bf-apply answers it.  Records say cancelled and by whom.
. "$(dirname "$0")/lib.sh"

test_need_root_setpriv 'bf-cancel by users of a root spool'
test_public_trash

A=4321 B=4322
submit() {	# uid name min_nodes max_nodes
	printf 'name: %s\ncommand: exec %s\nmin_nodes: %s\nmax_nodes: %s\nscaling: {1: 100, 8: 800}\n' \
		"$2" "$J" "$3" "$4" >"$2.yaml" && chmod 644 "$2.yaml" &&
	as "$1" bf-submit -d sp "$2.yaml" 2>/dev/null
}
record() {	# name: its run record(s)
	cat sp/history/runs/*-"$1"-*.yaml 2>/dev/null
}
trap 'stop_watch; kill_jobs sp' EXIT

test_expect_success 'setup: a daemon; A'"'"'s a runs, A'"'"'s w waits, B'"'"'s b runs' '
	mkspool sp && chmod 755 . && holes sp 1000 "n[1-2]" &&
	submit $A a 1 1 && submit $A w 5 8 && submit $B b 1 1 &&
	start_watch sp &&
	wait_for 30 grep -q "^  a: " sp/state.yaml &&
	wait_for 30 grep -q "^  b: " sp/state.yaml &&
	test -f sp/jobs/w.yaml && ! grep -q "^  w: " sp/state.yaml &&
	test "$(stat -c %a sp/cancel)" = 1733
'

test_expect_success 'B cannot cancel A'"'"'s job: 77, and nothing changes' '
	cp sp/state.yaml state.before &&
	test_expect_code 77 as $B bf-cancel -d sp -w 20 a 2>err &&
	cat err &&
	echo "bf-cancel: job a is uid $A'"'"'s, not uid $B'"'"'s: not cancelled" >expect &&
	test_cmp expect err &&
	grep -q "^  a: " sp/state.yaml && test -f sp/jobs/a.yaml &&
	! record a | grep -q cancelled
'

test_expect_success 'A cancels a running job: stopped, its record says cancelled by A' '
	as $A bf-cancel -d sp -w 20 a >out &&
	echo "job a cancelled" >expect && test_cmp expect out &&
	wait_for 10 eval "ls -d sp/history/runs/*-a-*/ >/dev/null 2>&1" &&
	! grep -q "^  a: " sp/state.yaml && ! test -f sp/jobs/a.yaml &&
	record a >rec && cat rec &&
	grep -x "outcome: cancelled" rec && grep -x "cancelled_by: $A" rec &&
	wait_for 10 grep -q "decision: .*stop a 1->0" watch.log &&
	grep -q "^stop a$" sp/history/runs/*-a-*/output
'

test_expect_success 'A cancels a waiting job: its job file goes, its record says so' '
	as $A bf-cancel -d sp -w 20 w >out &&
	echo "job w cancelled" >expect && test_cmp expect out &&
	! test -f sp/jobs/w.yaml &&
	record w >rec && cat rec &&
	grep -x "outcome: cancelled" rec && grep -x "cancelled_by: $A" rec &&
	grep -x "nodes: 0" rec
'

test_expect_success 'no such job: 66' '
	test_expect_code 66 as $A bf-cancel -d sp -w 20 zz 2>err &&
	echo "bf-cancel: no job zz in jobs/" >expect && test_cmp expect err
'

test_expect_success 'root cancels B'"'"'s job' '
	bf-cancel -d sp -w 20 b >out &&
	echo "job b cancelled" >expect && test_cmp expect out &&
	wait_for 10 eval "! grep -q \"^  b: \" sp/state.yaml" &&
	record b | grep -x "cancelled_by: 0"
'

test_expect_success 'requests and answers are their users'"'"' alone; cancel/ is not listable' '
	test_must_fail as $B ls sp/cancel &&
	test -z "$(find sp/cancel -mindepth 1)"
'

test_expect_success 'without a daemon the request waits (75); the next bf-apply answers it' '
	stop_watch &&
	submit $A c 1 1 && bf-submit --intake -d sp 2>/dev/null &&
	bf-solve -d sp >/dev/null && bf-apply -d sp -g 2 >/dev/null &&
	grep -q "^  c: " sp/state.yaml &&
	test_expect_code 75 as $A bf-cancel -d sp -w 1 c 2>err &&
	grep "c: no answer within 1 s; the request stays queued" err &&
	grep -q "^  c: " sp/state.yaml &&
	bf-apply -d sp -g 2 >out && cat out &&
	grep -x "stop c 1->0 cancel:$A" out &&
	grep -x "cancelled c 1->0 exit 0" out &&
	ls sp/cancel >left && grep -q "^c@[0-9a-f]*\.answer$" left &&
	ans=$(ls sp/cancel/c@*.answer) &&
	test "$(stat -c %a:%u "$ans")" = 600:$A &&
	test_must_fail as $B cat "$ans" &&
	as $A cat "$ans" >actual && echo "0 job c cancelled" >expect &&
	test_cmp expect actual
'

test_expect_success 'bad usage: 64' '
	test_expect_code 64 bf-cancel -d sp &&
	test_expect_code 64 bf-cancel -d sp "a/b" &&
	test_expect_code 64 bf-cancel -d sp -w x a
'

test_done
