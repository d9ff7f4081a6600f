#!/bin/sh
# A crash (kill -9, through BF_FAULT) at every step of bf-apply, then a run
# without it: the state is true, every job started once, nothing lost.
. "$(dirname "$0")/lib.sh"

t=1000

# One plan: new holes, a solve, a run that may die, a run that must not.
step() {	# point holes
	t=$((t + 1))
	holes sp $t "$2" && bf-solve -d sp || return 1
	BF_FAULT=$1 bf-apply -d sp -g 2 --allow-root-jobs >/dev/null 2>&1
	# A supervisor forked just before the crash holds the spool's lock
	# for the instant before it closes it: 75, try again.
	wait_for 2 bf-apply -d sp -g 2 --allow-root-jobs >/dev/null 2>&1 ||
		return 1
	bf-apply -d sp -g 2 --allow-root-jobs >again || return 1
	test_must_be_empty again && state_true sp
}

for point in history-after-objects apply-after-history apply-before-start \
    local-before-spawn local-after-fork apply-before-state \
    apply-before-state:2 apply-after-state apply-before-resize \
    apply-after-stop apply-after-stop:2 local-after-term \
    apply-after-record apply-before-retire; do
	test_expect_success "kill -9 at $point: true state, each job once" "
		rm -rf sp && mkspool sp &&
		job sp a 2 'exec $J' && job sp b 2 'exec $J' &&
		bf-submit --intake -d sp 2>/dev/null &&
		step $point 'n[01-04]' &&
		step $point 'n[01-03]' &&
		step $point '' &&
		started_once sp a && started_once sp b &&
		printf 'time: T\njobs: {}\n' >expect &&
		mask_state sp/state.yaml >actual && test_cmp expect actual &&
		ls sp/jobs >actual && printf 'a.yaml\nb.yaml\n' >expect &&
		test_cmp expect actual &&
		grep -l '^outcome: preempted$' sp/history/runs/*.yaml >recs &&
		test \$(wc -l <recs) -eq 2 &&
		test \$(ls sp/history | grep -c '^[0-9]*-[0-9a-f]*\.yaml$') -eq 3 &&
		find sp/run -mindepth 1 >left && test_must_be_empty left
	"
	kill_jobs sp
done

# Samples reached, unseen, when a plan stops the job; a crash between its
# run record (preempted) and the state write leaves it in the state: the
# next run retires it as recorded, and does not stop it again as done
# (which removed its job file as finished, the record still preempted).
samples() {	# spool name
	tail -n1 "$1/progress/$2.log" | cut -d' ' -f3
}
test_expect_success 'kill -9 after the record of a stop: the job ends as recorded' '
	rm -rf sp && mkspool sp &&
	job sp a 1 "exec $J" "samples: 500" &&
	bf-submit --intake -d sp 2>/dev/null &&
	holes sp 2001 n1 && bf-solve -d sp &&
	bf-apply -d sp -g 2 --allow-root-jobs >/dev/null &&
	wait_for 10 eval "test \$(samples sp a) -ge 500" &&
	holes sp 2002 "" && bf-solve -d sp &&
	test_expect_code 137 env BF_FAULT=apply-after-record \
		bf-apply -d sp -g 2 --allow-root-jobs >/dev/null &&
	grep -q "^  a: " sp/state.yaml &&
	bf-apply -d sp -g 2 --allow-root-jobs >actual &&
	echo "preempted a 1->0 exit 0" >expect &&
	test_cmp expect actual &&
	test -f sp/jobs/a.yaml &&
	ls sp/history/runs/*.yaml >recs && test $(wc -l <recs) -eq 1 &&
	grep "^outcome: preempted$" $(cat recs) &&
	printf "time: T\njobs: {}\n" >expect &&
	mask_state sp/state.yaml >actual && test_cmp expect actual &&
	find sp/run -mindepth 1 >left && test_must_be_empty left
'
kill_jobs sp

# A lost run (its supervisor killed) ends when found lost; a crash after
# its record, and the next run a second later, must not record it again
# under another time, leaving the first record without its directory.
test_expect_success 'kill -9 after the record of a lost run: one record' '
	rm -rf sp && mkspool sp &&
	job sp a 1 "exec $J" && bf-submit --intake -d sp 2>/dev/null &&
	holes sp 3001 n1 && bf-solve -d sp &&
	bf-apply -d sp -g 2 --allow-root-jobs >/dev/null &&
	sup=$(sed -n "s/^supervisor: //p" sp/run/a/pid) &&
	pg=$(sed -n "s/^pgid: //p" sp/run/a/pid) &&
	kill -KILL -$pg $sup &&
	wait_for 5 flock -n -s sp/run/a/lock true &&
	test_expect_code 137 env BF_FAULT=apply-after-record \
		bf-apply -d sp -g 2 --allow-root-jobs >/dev/null &&
	sleep 1 &&
	bf-apply -d sp -g 2 --allow-root-jobs >actual &&
	echo "lost a 1->0 exit unknown" >expect && test_cmp expect actual &&
	ls sp/history/runs >actual &&
	stem=$(ls sp/history/runs | sed -n "s/\.yaml$//p") &&
	printf "%s\n" $stem $stem.yaml >expect && test_cmp expect actual &&
	grep "^outcome: lost$" sp/history/runs/$stem.yaml &&
	test -f sp/jobs/a.yaml
'
kill_jobs sp

# The starts of a plan begin together, then each is waited for, then the
# state is written once: killed before that write, the state has neither
# job (a job in it must be running; the next run adopts both).
test_expect_success 'kill -9 before the state write of two starts: both adopted' '
	rm -rf sp && mkspool sp &&
	job sp a 2 "exec $J" && job sp b 2 "exec $J" &&
	bf-submit --intake -d sp 2>/dev/null &&
	holes sp 5001 "n[01-04]" && bf-solve -d sp &&
	grep -c "^  [ab]: {nodes: 2, was: 0," sp/plans/current.yaml >count &&
	echo 2 >expect && test_cmp expect count &&
	test_expect_code 137 env BF_FAULT=apply-before-state \
		bf-apply -d sp -g 2 --allow-root-jobs >/dev/null &&
	! test -e sp/state.yaml &&
	! flock -n -s sp/run/a/lock true && ! flock -n -s sp/run/b/lock true &&
	wait_for 2 bf-apply -d sp -g 2 --allow-root-jobs >actual &&
	printf "adopt a 2 n[01-02]\nadopt b 2 n[03-04]\n" >expect &&
	test_cmp expect actual &&
	sed -n "s/^  \([ab]\): .*/\1/p" sp/state.yaml >actual &&
	printf "a\nb\n" >expect && test_cmp expect actual &&
	state_true sp &&
	started_once sp a && started_once sp b
'
kill_jobs sp

# The hosts files of a plan's starts (and resizes) are written as one
# synced group before any supervisor is forked: killed as the second
# start is prepared, neither job has a hosts file or ran (the first one's
# was only staged in tmp/); the next run starts each once.
test_expect_success 'two starts: hosts files one group; killed before the second, neither ran' '
	rm -rf sp && mkspool sp &&
	job sp a 2 "exec $J" && job sp b 2 "exec $J" &&
	bf-submit --intake -d sp 2>/dev/null &&
	holes sp 5101 "n[01-04]" && bf-solve -d sp &&
	test_expect_code 137 env BF_FAULT=apply-before-start:2 \
		bf-apply -d sp -g 2 --allow-root-jobs >/dev/null &&
	! test -e sp/state.yaml &&
	find sp/run -name hosts >found && test_must_be_empty found &&
	bf-apply -d sp -g 2 --allow-root-jobs >actual &&
	printf "start a 0->2 n[01-02]\nstart b 0->2 n[03-04]\n" >expect &&
	test_cmp expect actual && state_true sp &&
	started_once sp a && started_once sp b
'
kill_jobs sp

# The resizes of a plan are written to the state once, after the last:
# a plan that shrinks both jobs reaches one state write (a second crash
# point is never met); killed before the one write of a plan that grows
# both, the state still has what they had, and the next run adopts what
# their hosts files say.
test_expect_success 'two resizes: one state write; killed before it, both adopted' '
	rm -rf sp && mkspool sp &&
	job sp a 2 "exec $J" && job sp b 2 "exec $J" &&
	bf-submit --intake -d sp 2>/dev/null &&
	holes sp 6001 "n[01-04]" && bf-solve -d sp &&
	bf-apply -d sp -g 2 --allow-root-jobs >/dev/null &&
	holes sp 6002 "n[01,03]" && bf-solve -d sp &&
	BF_FAULT=apply-before-state:2 bf-apply -d sp -g 2 \
		--allow-root-jobs >actual &&
	printf "shrink a 2->1 n01\nshrink b 2->1 n03\n" >expect &&
	test_cmp expect actual && state_true sp &&
	holes sp 6003 "n[01-04]" && bf-solve -d sp &&
	cp sp/state.yaml state.before &&
	test_expect_code 137 env BF_FAULT=apply-before-state \
		bf-apply -d sp -g 2 --allow-root-jobs >/dev/null &&
	test_cmp state.before sp/state.yaml &&
	bf-apply -d sp -g 2 --allow-root-jobs >actual &&
	printf "adopt a 2 n[01-02]\nadopt b 2 n[03-04]\n" >expect &&
	test_cmp expect actual && state_true sp &&
	started_once sp a && started_once sp b
'
kill_jobs sp

# The jobs one plan stops are retired together: both stopped, then both
# records (synced as one group), one state write (a second crash point
# is never met), then both runs moved.  Killed after the records, the
# state still has both; the next run retires them as recorded.
two_running() {	# spool time (the jobs a spool there still runs killed)
	kill_jobs "$1" && rm -rf "$1" && mkspool "$1" &&
	job "$1" a 2 "exec $J" && job "$1" b 2 "exec $J" &&
	bf-submit --intake -d "$1" 2>/dev/null &&
	holes "$1" "$2" "n[01-04]" && bf-solve -d "$1" &&
	bf-apply -d "$1" -g 2 --allow-root-jobs >/dev/null &&
	holes "$1" $(($2 + 1)) "" && bf-solve -d "$1"
}

test_expect_success 'two stops: one state write; killed after the records, retired once' '
	two_running sp 7001 &&
	BF_FAULT=apply-before-state:2 bf-apply -d sp -g 2 \
		--allow-root-jobs >actual &&
	printf "%s\n" "stop a 2->0 plan" "stop b 2->0 plan" \
		"preempted a 2->0 exit 0" "preempted b 2->0 exit 0" \
		>expect && test_cmp expect actual &&
	printf "time: T\njobs: {}\n" >expect &&
	mask_state sp/state.yaml >actual && test_cmp expect actual &&
	grep -l "^outcome: preempted$" sp/history/runs/*.yaml >recs &&
	test $(wc -l <recs) -eq 2 &&
	find sp/run -mindepth 1 >left && test_must_be_empty left &&
	ls sp/history/runs | grep -c "^[0-9]*-[ab]-[0-9]*$" >count &&
	echo 2 >expect && test_cmp expect count &&
	two_running sp 7101 &&
	test_expect_code 137 env BF_FAULT=apply-after-record \
		bf-apply -d sp -g 2 --allow-root-jobs >/dev/null &&
	grep -c "^  [ab]: " sp/state.yaml >count &&
	echo 2 >expect && test_cmp expect count &&
	ls sp/history/runs/*.yaml >recs && test $(wc -l <recs) -eq 2 &&
	bf-apply -d sp -g 2 --allow-root-jobs >actual &&
	printf "%s\n" "preempted a 2->0 exit 0" "preempted b 2->0 exit 0" \
		>expect && test_cmp expect actual &&
	ls sp/history/runs/*.yaml >actual && test_cmp recs actual &&
	printf "time: T\njobs: {}\n" >expect &&
	mask_state sp/state.yaml >actual && test_cmp expect actual &&
	find sp/run -mindepth 1 >left && test_must_be_empty left
'
kill_jobs sp

# A plan that stops one job and shrinks another writes the state once,
# after the shrink; the stopped job's run moves after that write.  Killed
# before it, the state still has both jobs as they were and the stopped
# run is still in run/: the next run retires it as recorded, once, and
# adopts the shrink.
test_expect_success 'a stop and a shrink: one state write; killed before it, retired once, adopted' '
	two_running sp 7201 &&
	holes sp 7203 n03 && bf-solve -d sp &&
	BF_FAULT=apply-before-state:2 bf-apply -d sp -g 2 \
		--allow-root-jobs >actual &&
	printf "%s\n" "stop a 2->0 plan" "preempted a 2->0 exit 0" \
		"shrink b 2->1 n03" >expect && test_cmp expect actual &&
	state_true sp && ls sp/run >actual && echo b >expect &&
	test_cmp expect actual &&
	two_running sp 7301 &&
	holes sp 7303 n03 && bf-solve -d sp &&
	cp sp/state.yaml state.before &&
	test_expect_code 137 env BF_FAULT=apply-before-state \
		bf-apply -d sp -g 2 --allow-root-jobs >/dev/null &&
	test_cmp state.before sp/state.yaml &&
	ls sp/run >actual && printf "a\nb\n" >expect &&
	test_cmp expect actual &&
	ls sp/history/runs/*.yaml >recs && test $(wc -l <recs) -eq 1 &&
	bf-apply -d sp -g 2 --allow-root-jobs >actual &&
	printf "%s\n" "adopt b 1 n03" "preempted a 2->0 exit 0" >expect &&
	test_cmp expect actual && state_true sp &&
	ls sp/history/runs/*.yaml >actual && test_cmp recs actual &&
	ls sp/run >actual && echo b >expect && test_cmp expect actual
'
kill_jobs sp

# A start killed between the hosts file and the supervisor leaves a
# run/NAME/ that never ran.  Its job file kept, the next start reuses it
# (the loop above); its job file gone, nothing would, and it is retired
# to history/runs/ as lost, never started, once, even across a crash.
never_started() {	# spool
	rm -rf "$1" && mkspool "$1" &&
	job "$1" a 1 "exec $J" && bf-submit --intake -d "$1" 2>/dev/null &&
	holes "$1" 4001 n1 && bf-solve -d "$1" &&
	test_expect_code 137 env BF_FAULT=local-before-spawn \
		bf-apply -d "$1" -g 2 --allow-root-jobs >/dev/null &&
	ls "$1/run/a" >actual && echo hosts >expect && test_cmp expect actual &&
	rm "$1/jobs/a.yaml"
}

test_expect_success 'a start that never ran, its job file gone: retired, lost' '
	never_started sp &&
	bf-apply -n -d sp -g 2 --allow-root-jobs >actual &&
	echo "lost a 0->0 never started" >expect && test_cmp expect actual &&
	ls sp/run >actual && echo a >expect && test_cmp expect actual &&
	bf-apply -d sp -g 2 --allow-root-jobs >actual &&
	echo "lost a 0->0 never started" >expect && test_cmp expect actual &&
	find sp/run -mindepth 1 >left && test_must_be_empty left &&
	stem=$(ls sp/history/runs | sed -n "s/\.yaml$//p") &&
	ls sp/history/runs >actual &&
	printf "%s\n" $stem $stem.yaml >expect && test_cmp expect actual &&
	case $stem in [0-9]*-a-0) ;; *) false ;; esac &&
	ended=${stem%-a-0} &&
	cat >expect <<-EOF &&
	name: a
	outcome: lost
	ended: $ended
	nodes: 0
	hosts: ""
	run: "history/runs/$stem"
	EOF
	test_cmp expect sp/history/runs/$stem.yaml &&
	ls sp/history/runs/$stem >actual && echo hosts >expect &&
	test_cmp expect actual &&
	bf-apply -d sp -g 2 --allow-root-jobs >actual &&
	test_must_be_empty actual
'

test_expect_success 'kill -9 after the record of a run never started: one record' '
	never_started sp &&
	test_expect_code 137 env BF_FAULT=apply-after-record \
		bf-apply -d sp -g 2 --allow-root-jobs >/dev/null &&
	test -d sp/run/a &&
	sleep 1 &&
	bf-apply -d sp -g 2 --allow-root-jobs >actual &&
	echo "lost a 0->0 never started" >expect && test_cmp expect actual &&
	stem=$(ls sp/history/runs | sed -n "s/\.yaml$//p") &&
	ls sp/history/runs >actual &&
	printf "%s\n" $stem $stem.yaml >expect && test_cmp expect actual &&
	find sp/run -mindepth 1 >left && test_must_be_empty left
'
kill_jobs sp

test_done
