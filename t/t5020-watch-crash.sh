#!/bin/sh
# kill -9 of bf-watch at any point (BF_FAULT, and at random instants), then
# a restart: it converges with nothing lost and no job started twice.
. "$(dirname "$0")/lib.sh"

once() {	# [env...]: one bounded --once run of the watcher
	env "$@" timeout -s KILL 30 bf-watch -d sp --once --allow-root-jobs \
		-g 2 --no-profile 2>>watch.log
}

# Converged: every job started once, the state true, nothing in incoming.
converged() {
	for n in a b c; do
		started_once sp $n || return 1
	done
	state_true sp &&
	test "$(held sp)" -eq 6 &&
	find sp/incoming -mindepth 1 >left && test_must_be_empty left
}

converged_empty() {
	started_once sp a &&
	printf "time: T\njobs: {}\n" >expect &&
	mask_state sp/state.yaml >actual && test_cmp expect actual &&
	find sp/run -mindepth 1 >left && test_must_be_empty left
}

setup() {
	rm -rf sp && mkspool sp &&
	for n in a b c; do job sp $n 2 "exec $J"; done &&
	holes sp 1000 "n[01-06]"
}

for point in watch-after-intake watch-before-solve solve-before-plan \
    watch-before-apply history-after-objects history-after-index apply-after-history apply-before-start \
    apply-before-start:2 local-after-fork local-after-fork:2 \
    apply-before-state apply-after-state intake-after-accept:2; do
	test_expect_success "kill -9 at $point, restart: converged" "
		setup &&
		once BF_FAULT=$point; test \$? -eq 137 &&
		wait_for 3 once &&
		once &&
		converged
	"
	kill_jobs sp
done

test_expect_success 'kill -9 at random instants while jobs arrive, restart' '
	setup &&
	i=0 && while [ $i -lt 6 ]; do
		start_watch sp && sleep 0.0$(($(od -An -N1 -tu1 /dev/urandom) % 10)) &&
		kill -KILL $(cat watch.pid) && rm -f watch.pid &&
		if [ $i -eq 2 ]; then job sp d 1 "exec $J"; fi &&
		i=$((i + 1)) || exit 1
	done &&
	wait_for 3 once && once &&
	test "$(starts sp d)" -le 1 &&
	state_true sp &&
	for n in a b c d; do
		test -f sp/jobs/$n.yaml || exit 1
		test "$(starts sp $n)" -le 1 || exit 1
	done
'
kill_jobs sp

# Exit 75 from the apply step that is not a stale plan: here a job that
# does not stop (its supervisor stopped, so it cannot reap it and free
# its lock).  Logged and retried after 5 s, not taken for a stale plan
# and re-solved in a silent loop; once the supervisor goes on, the job
# ends as the plan said.  The supervisor is stopped once the job runs (its
# "start" line): stopped between its pid record and its go to the job,
# it would hold the job before its exec, and the job would never start.
test_expect_success 'a job that does not stop: logged, retried, then retired' '
	rm -rf sp && mkspool sp && job sp a 1 "exec $J" &&
	holes sp 1000 n01 && start_watch sp -g 0 &&
	wait_for 10 grep -q "^start a " sp/run/a/output &&
	sup=$(sed -n "s/^supervisor: //p" sp/run/a/pid) &&
	kill -STOP $sup &&
	holes sp 1001 "" &&
	wait_for 20 grep -q "^bf-watch: apply: job a did not stop; will retry$" watch.log
	rc=$?
	kill -CONT $sup
	test $rc -eq 0 &&
	wait_for 15 eval "ls sp/history/runs/*-a-$sup.yaml" &&
	grep "^outcome: preempted$" sp/history/runs/*-a-$sup.yaml &&
	stop_watch && once && converged_empty
'
kill_jobs sp

test_done
