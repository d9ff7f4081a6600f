#!/bin/sh
# Users see their own jobs through a root spool (issue #32, item 7), and
# nothing private of others: as A, bf-report --now shows A's running job
# with its samples and the rate of its own log, why A's other job waits
# (a policy cap, from the plan's note), and B's job with only what is
# public; as B, the reverse.  Plain bf-report as either exits 0, skips what
# it may not read and says so in one line.  History objects that hold
# nothing private are public (0644); job objects stay the spool's (0600).
. "$(dirname "$0")/lib.sh"
# Other uids run the programs and reach the spool: t/lib.sh.
test_public_trash

test_need_root_setpriv 'users of a root spool'

A=4321 B=4322
jobfile() {	# name command max
	printf 'name: %s\ncommand: %s\nmax_nodes: %s\nsamples: 100000000\n' "$1" "$2" "$3"
	printf 'scaling:\n  1: 1000\n  2: 1900\n'
}

# A may hold one node (policy): a runs, a2 waits; b (B) runs on the other.
test_expect_success 'setup: A runs a and a2 is held by the cap; B runs b' '
	mkspool sp && holes sp 1000 "n[01-02]" &&
	printf "users:\n  $A: {max_nodes: 1}\n" >sp/policy.yaml &&
	mkdir -m 755 files &&
	jobfile a "SECRET_OF_A=a-private exec $J" 1 >files/a.yaml &&
	jobfile a2 "SECRET_OF_A=a-private exec $J" 1 >files/a2.yaml &&
	jobfile b "exec $J" 1 >files/b.yaml &&
	chmod 644 files/* &&
	as $A bf-submit -d sp files/a.yaml files/a2.yaml &&
	as $B bf-submit -d sp files/b.yaml &&
	bf-submit --intake -d sp 2>intake.log &&
	bf-solve -d sp && bf-apply -d sp -g 2 >actions &&
	grep "^start b 0->1 " actions &&
	grep -E "^start a2? 0->1 " actions >runs && test $(wc -l <runs) = 1 &&
	if grep -q "^start a " runs; then ra=a wa=a2; else ra=a2 wa=a; fi &&
	echo "$ra $wa" >which &&
	wait_for 10 eval "test \$(awk \"{ print \\\$1 }\" sp/progress/$ra.log | sort -u | wc -l) -ge 3" &&
	wait_for 10 test -s sp/progress/b.log
'

test_expect_success 'the plan says why the other job of A waits' '
	read ra wa <which &&
	grep -x "  $wa: {nodes: 0, was: 0, note: \"waits: held by policy cap: user $A may hold 1 nodes, its jobs hold 1\"}" sp/plans/current.yaml
'

test_expect_success 'as A: its running job with its samples and rate, its waiting one with why, B'"'"'s public part only' '
	read ra wa <which &&
	as $A bf-report --now -d sp >nowA 2>err &&
	cat nowA &&
	test_must_be_empty err &&
	grep -E "^$ra +$A +1 n0[12] +[0-9]+\.[0-9] log +[0-9]+ +100000000 +[0-9:d]+ 20[0-9-]{8}T[0-9:]{8}Z$" nowA &&
	grep -E "^b +$B +1 n0[12] +- +- +- +100000000 +- -$" nowA &&
	grep -x "  $wa (user $A): waits: held by policy cap: user $A may hold 1 nodes, its jobs hold 1" nowA &&
	! grep -q "a-private\|exec " nowA
'

test_expect_success 'the rate A is shown is its log'"'"'s: 100 samples per 0.1 s; the finish at that rate' '
	read ra wa <which &&
	set -- $(grep "^$ra " nowA) &&
	r=$5 s=$7 fin=${10} &&
	awk -v r="$r" "BEGIN { exit !(r > 300 && r < 1500) }" &&
	t=$(awk -v s="$s" "\$3 == s { print \$1; exit }" sp/progress/$ra.log) &&
	want=$(awk -v t="$t" -v s="$s" -v r="$r" "BEGIN { x = t + (100000000 - s) / r
		y = int(x); if (y < x) y++; print y }") &&
	# the rate is printed to 0.1: the finish may differ by what 0.05 makes
	tol=$(awk -v r="$r" "BEGIN { print int(100000000 / (r * r) * 0.05) + 2 }") &&
	d=$(( $(date -u -d "$fin" +%s) - want )) &&
	test "${d#-}" -le "$tol"
'

test_expect_success 'as B: b with its samples and rate, A'"'"'s jobs public part only' '
	read ra wa <which &&
	as $B bf-report --now -d sp >nowB 2>err &&
	test_must_be_empty err &&
	grep -E "^b +$B +1 n0[12] +[0-9]+\.[0-9] log +[0-9]+ +100000000 +[0-9:d]+ 20[0-9-]{8}T[0-9:]{8}Z$" nowB &&
	grep -E "^$ra +$A +1 n0[12] +- +- +- +100000000 +- -$" nowB &&
	grep -x "  $wa (user $A): waits: held by policy cap: user $A may hold 1 nodes, its jobs hold 1" nowB &&
	test_must_fail as $B cat sp/jobs/a.yaml sp/progress/$ra.log 2>/dev/null
'

test_expect_success 'history objects: holes and state public, job files private' '
	for o in sp/history/objects/*; do
		if grep -q "^command:" "$o"; then
			test "$(stat -c %a "$o")" = 600 &&
			test_must_fail as $B cat "$o" 2>/dev/null || exit 1
		else
			test "$(stat -c %a "$o")" = 644 || exit 1
		fi
	done &&
	grep -l "^idle:" sp/history/objects/* >holes && test -s holes &&
	{ as $B grep -rl "a-private" sp 2>/dev/null >found; true; } &&
	test_must_be_empty found
'

test_expect_success 'plain bf-report as A and as B: exit 0, the unreadable counted in one line' '
	as $A bf-report -d sp >repA 2>err &&
	! grep -q "Permission denied" err repA &&
	grep -E "^  [0-9]+ files? of other users not readable by uid $A \(job files and progress logs are private to their owners\): their owners, samples and ideal are not counted$" repA &&
	grep -E "^$A +- +[0-9.]+ " repA && grep -E "^$B +- +[0-9.]+ " repA &&
	as $B bf-report -d sp --csv >csvB 2>err &&
	grep -E "^bf-report: note: [0-9]+ files? of other users not readable by uid $B " err &&
	grep -E "^user,,$B,," csvB && grep -E "^user,,$A,," csvB &&
	bf-report -d sp >repRoot 2>err &&
	! grep -q "not readable" repRoot
'

test_expect_success 'cancelled by its owner: shown to all as ended, with where its output is' '
	read ra wa <which &&
	as $A bf-cancel -d sp -w 0 $ra >/dev/null 2>&1;
	bf-apply -d sp -g 2 >actions2 &&
	wait_for 10 eval "ls sp/history/runs/*-$ra-*.yaml" &&
	as $B bf-report --now -d sp >nowB2 2>err &&
	grep -E "^  $ra \(user $A\): cancelled at [0-9T:Z-]+; output in history/runs/[0-9]+-$ra-[0-9]+/output$" nowB2 &&
	as $A bf-report -d sp >repA2 &&
	grep -E "^$A +- .* 1$" repA2
'

test_expect_success 'cleanup' '
	kill_jobs sp
'

test_done
