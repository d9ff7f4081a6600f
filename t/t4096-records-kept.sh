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

cancel_waiting() {
	submit $A w "exec $J" && bf-submit --intake -d sp 2>/dev/null &&
	t=$(token) &&
	as $A sh -c "echo > sp/cancel/.w@$t && mv sp/cancel/.w@$t sp/cancel/w@$t" &&
	bf-solve -d sp >/dev/null && bf-apply -d sp -g 1 >>out
}

# The second of two cancels lands in the first one's second only by luck;
# so the first record is copied to every second of the next two minutes
# (another job's records, as far as the second cancel can tell): its
# record must take the spare ID and leave every one of them as it was.
test_expect_success 'a waiting job cancelled in a second that has a record of its name: both kept' '
	mkspool sp && chmod 755 . && holes sp 5000 "" &&
	cancel_waiting && ls sp/history/runs >first && cat first &&
	test $(wc -l <first) = 1 && grep -qx "[0-9]*-w-0.yaml" first &&
	r=$(cat first) && now=$(date +%s) &&
	for s in $(seq $now $((now + 120))); do
		test -e sp/history/runs/$s-w-0.yaml ||
		cp -p sp/history/runs/$r sp/history/runs/$s-w-0.yaml || exit 1
	done &&
	(cd sp/history/runs && md5sum *-w-0.yaml) >before &&
	cancel_waiting &&
	(cd sp/history/runs && md5sum *-w-0.yaml) >after && test_cmp before after &&
	ls sp/history/runs | grep -v -- "-w-0.yaml$" >new && cat new &&
	test $(wc -l <new) = 1 && grep -qx "[0-9]*-w-4194305.yaml" new &&
	f=$(cat new) &&
	grep -x "outcome: cancelled" sp/history/runs/$f &&
	grep -x "run: \"history/runs/${f%.yaml}\"" sp/history/runs/$f &&
	test $(grep -c "^cancelled w " out) = 2
'

test_expect_success 'bf-report counts both of a natural pair' '
	rm -rf sp out && mkspool sp && holes sp 5000 "" &&
	cancel_waiting && cancel_waiting &&
	bf-report -d sp >report &&
	grep "^history: .*; plans enacted 0, runs ended 2$" report
'

test_done
