#!/bin/sh
# A job name used again: user A's finished job foo leaves no progress log
# and no profile behind (they move with its run to history/runs/), so user
# B's later job foo starts with a fresh log of its own, which A cannot write
# into to end it early; a log of the name left by another owner is moved
# aside, kept, before B's job starts.
. "$(dirname "$0")/lib.sh"

test_need_root_setpriv 'a job name used again by another user'

# The other uids must reach the programs and the spool: not in a checkout
# in root's 0700 home.
test_public_trash

A=4321 B=4322
# The test job, where the users can run it whatever the checkout's mode.
X=$(mktemp -d /tmp/bf-t0093.XXXXXX)
chmod 755 "$X"
cp "$J" "$X/job.sh" && chmod 755 "$X/job.sh"
trap 'kill_jobs sp; rm -rf "$X"' EXIT

jobfile() {	# name samples
	printf 'name: %s\ncommand: exec %s\nmax_nodes: 1\nsamples: %s\n' \
		"$1" "$X/job.sh" "$2"
	printf 'rescale_up: 0.1\nrescale_down: 0.1\nscaling:\n  1: 100\n'
}
apply() {
	bf-solve -d sp >/dev/null && bf-apply -d sp -g 2
}
submit() {	# uid name samples
	jobfile "$2" "$3" >"$X/$2-$1.yaml" && chmod 644 "$X/$2-$1.yaml" &&
	as "$1" bf-submit -d sp "$X/$2-$1.yaml" 2>/dev/null &&
	bf-submit --intake -d sp 2>/dev/null
}

test_expect_success 'A'"'"'s foo runs to its samples; its log and profile go with its run' '
	mkspool sp && holes sp 1000 "n[01-02]" &&
	submit $A foo 300 &&
	apply >out && grep "^start foo 0->1" out &&
	printf "name: foo\n" >sp/profiles/foo.yaml &&
	wait_for 10 eval "apply >>out; grep -q \"^finished foo\" out" &&
	! test -e sp/progress/foo.log &&
	! test -e sp/profiles/foo.yaml &&
	run=$(ls -d sp/history/runs/*-foo-*/) &&
	test "$(stat -c %a:%u "${run}progress.log")" = 600:$A &&
	test "$(awk "END { print \$3 }" "${run}progress.log")" -ge 300 &&
	grep -qx "name: foo" "${run}profile.yaml"
'

test_expect_success 'B'"'"'s foo starts with a fresh log of its own; A cannot end it' '
	submit $B foo 100000 &&
	apply >out && grep "^start foo 0->1" out &&
	wait_for 5 test -s sp/progress/foo.log &&
	test "$(stat -c %a:%u sp/progress/foo.log)" = 600:$B &&
	test_must_fail as $A sh -c "echo \"9 1 99999999\" >>sp/progress/foo.log" &&
	apply >out && ! grep "foo" out &&
	grep -q "^start foo nodes=1 uid=$B " sp/run/foo/output
'

test_expect_success 'a log of the name another owner left is moved aside, kept' '
	holes sp 1001 "n[01-03]" &&
	printf "1795000000 1 99999999\n" >sp/progress/bar.log &&
	chown $A:$A sp/progress/bar.log && chmod 600 sp/progress/bar.log &&
	submit $B bar 100000 &&
	apply >out 2>err && grep "^start bar 0->1" out &&
	grep "progress/bar.log: owned by uid $A, not the job.s owner" err &&
	kept=$(ls sp/history/runs/*-bar-uid$A.progress.log) &&
	grep -qx "1795000000 1 99999999" "$kept" &&
	wait_for 5 test -s sp/progress/bar.log &&
	test "$(stat -c %u sp/progress/bar.log)" = $B &&
	! grep -q 99999999 sp/progress/bar.log &&
	apply >out && ! grep "bar" out
'

test_done
