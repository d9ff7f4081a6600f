#!/bin/sh
# bf-apply, bf-hosts, bf-audit and bf-watch under valgrind: no invalid
# access, no leak, through a start, a stop, an audit and a watcher pass.
. "$(dirname "$0")/lib.sh"

if ! test_valgrind_usable; then
	test_skip 'valgrind runs' "$test_valgrind_why"
	test_done
fi


test_expect_success 'setup' '
	mkspool sp && job sp a 2 "exec $J" && job sp b 1 "exec $J" &&
	bf-submit --intake -d sp 2>/dev/null &&
	holes sp 1000 "n[01-03]" && bf-solve -d sp
'

test_expect_success 'bf-apply starting jobs is clean' '
	vg bf-apply -d sp -g 2 --allow-root-jobs >out &&
	test $(wc -l <out) -eq 2
'

test_expect_success 'bf-hosts and bf-audit are clean' '
	vg bf-hosts -d sp a >out && test $(wc -l <out) -eq 2 &&
	p=$(ls sp/history | grep "^[0-9]*-[0-9a-f]*\.yaml$") &&
	vg bf-audit -d sp "$p" >out && grep identical out &&
	vg bf-audit -d sp --log >out && test -s out
'

test_expect_success 'bf-apply stopping and retiring jobs is clean' '
	holes sp 1001 "" && bf-solve -d sp &&
	vg bf-apply -d sp -g 2 --allow-root-jobs >out &&
	grep "^preempted a " out && grep "^preempted b " out
'

test_expect_success 'a bf-watch pass is clean' '
	holes sp 1002 "n[01-02]" &&
	vg bf-watch -d sp --once --no-profile --allow-root-jobs 2>log &&
	grep "decision: trigger start" log &&
	state_true sp
'

test_expect_success 'cleanup' '
	kill_jobs sp
'

test_done
