#!/bin/sh
# History records are never replaced nor dropped (issue #33, item 11):
# records of runs that had no run of their own were all named TIME-NAME-0,
# so the second of two jobs of one name cancelled while waiting in the same
# second (the same job file, so the same bytes but the name) was lost.  Now
# the second takes the ID 4194305 (above any pid), both are kept, and a
# rerun after a crash still finds its own record (t4030).
. "$(dirname "$0")/lib.sh"

test_need_root_setpriv 'cancelled waiting jobs of one name, by a user'
test_public_trash

A=4321
submit() {	# uid name command
	printf 'name: %s\ncommand: %s\nmax_nodes: 1\nscaling: {1: 100}\n' \
		"$2" "$3" >"$2.yaml" && chmod 644 "$2.yaml" &&
	as "$1" bf-submit -d sp "$2.yaml" 2>/dev/null
}
token() {	# : 16 hex digits
	od -An -N8 -tx1 /dev/urandom | tr -d " \n"
}
trap 'kill_jobs sp' EXIT

cancel_waiting_twice() {
	for i in 1 2; do
		submit $A w "exec $J" && bf-submit --intake -d sp 2>/dev/null &&
		t=$(token) &&
		as $A sh -c "echo > sp/cancel/.w@$t && mv sp/cancel/.w@$t sp/cancel/w@$t" &&
		bf-solve -d sp >/dev/null && bf-apply -d sp -g 1 >>out2 || return 1
	done
}

test_expect_success 'a waiting job of one name cancelled twice in one second: two records' '
	mkspool sp && chmod 755 . && holes sp 5000 "" &&
	same=0 &&
	for try in 1 2 3 4 5 6 7 8 9 10; do
		rm -f sp/history/runs/*-w-* out2 &&
		cancel_waiting_twice || exit 1
		ls sp/history/runs | grep -- "-w-" >recs &&
		if test $(cut -d- -f1 recs | sort -u | wc -l) = 1; then
			same=1 && break
		fi
	done &&
	cat recs && test $same = 1 && test $(wc -l <recs) = 2 &&
	t=$(cut -d- -f1 recs | sort -u) &&
	printf "%s\n" $t-w-0.yaml $t-w-4194305.yaml >expect && test_cmp expect recs &&
	test $(grep -c "^cancelled w " out2) = 2 &&
	for f in $(cat recs); do
		grep -x "outcome: cancelled" sp/history/runs/$f &&
		grep -x "run: \"history/runs/${f%.yaml}\"" sp/history/runs/$f || exit 1
	done
'

test_expect_success 'bf-report counts both' '
	bf-report -d sp >report &&
	grep "^history: .*; plans enacted 0, runs ended 2$" report
'

test_done
