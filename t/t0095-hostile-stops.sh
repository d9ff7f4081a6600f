#!/bin/sh
# Jobs that ignore SIGTERM, stopped by one decision, are given their notice
# together and waited for once: their nodes come back after one grace, not
# one grace per job in turn (with a grace of 3 s: at least 3 s, under 6 s,
# where one after the other took 12 s).
. "$(dirname "$0")/lib.sh"

trap 'kill_jobs sp' EXIT
deaf="trap \"\" TERM; echo up; while :; do sleep 0.1; done"

test_expect_success 'four SIGTERM-ignoring jobs stopped by one plan: one grace in all' '
	mkspool sp && holes sp 1000 "n[1-4]" &&
	for n in a b c d; do job sp $n 1 "$deaf" || exit 1; done &&
	bf-submit --intake -d sp 2>/dev/null &&
	bf-solve -d sp >/dev/null &&
	bf-apply -d sp -g 2 --allow-root-jobs >out &&
	test $(grep -c "^start " out) = 4 &&
	for n in a b c d; do wait_for 5 grep -q up sp/run/$n/output || exit 1; done &&
	holes sp 1001 "" && bf-solve -d sp >/dev/null &&
	t0=$(date +%s.%N) &&
	bf-apply -d sp -g 3 --allow-root-jobs >out &&
	t1=$(date +%s.%N) &&
	test $(grep -c "^stop .* plan$" out) = 4 &&
	test $(grep -c "^preempted .* signal 9$" out) = 4 &&
	awk -v a="$t0" -v b="$t1" "BEGIN { s = b - a; print s \" s\";
		exit !(s >= 3 && s < 6) }"
'

test_done
