#!/bin/sh
# bf-watch --backend slurm against a live private Slurm 22.05 with 8 nodes
# (t/lib-slurm.sh), its holes from --holes-cmd 'bf-holes --slurm': jobs
# start on pilots; slurmctld stopped while bf-watch runs: bf-holes exits
# 75, is retried, bf-watch runs on and changes nothing; slurmctld restarted:
# bf-watch carries on (a new job starts on new pilots) and loses nothing;
# SIGTERM ends it with 0.
#
# For a few seconds after slurmctld starts, sinfo shows every node
# "unknown" until its slurmd registers again; bf-holes then exits 75
# (state not known yet) rather than report no usable node, so bf-watch
# keeps every job where it is: checked below.  bf-watch logs a decision
# once bf-apply has enacted it, so a moment after state.yaml shows it: the
# tests wait for the line.  While the controller is
# gone, every Slurm command tries to connect for MessageTimeout - 1 seconds
# (its own retries) before it fails: bf-holes, then one squeue per job in
# each pass of the pilots' poll, so bf-holes is retried about every 5 s
# here, not every --holes-interval.  With the cluster's MessageTimeout of
# 5 that was 4 s a command and 20 s a retry, which is all the 2 retries
# waited for; so the clients' is 2 while the controller is gone
# (slurm_message_timeout, t/lib-slurm.sh), and 5 again before it restarts.
. "$(dirname "$0")/lib.sh"
. "$T_DIR/lib-slurm.sh"

TITLES='a private Slurm starts with 8 idle nodes
bf-watch --backend slurm starts two jobs on 3 pilots each
slurmctld stopped: bf-holes exits 75, retried; bf-watch runs on unchanged
slurmctld restarted: bf-watch carries on, a new job starts, nothing lost
a controller restart preempts no job
SIGTERM: bf-watch exits 0
every daemon and job stopped by pid'

slurm_usable || test_slurm_skip_all "$TITLES"

t0=$(date +%s)
running_pilots() {	# count
	[ "$(pilots | grep -c " RUNNING$")" -eq "$1" ]
}
nodes_of() {	# job: its node count in the state
	sed -n "s/^  $1: {nodes: \([0-9]*\),.*/\1/p" sp/state.yaml
}
holding() {	# job nodes
	[ "$(nodes_of "$1")" = "$2" ]
}
fails_75() {
	grep -c -e "--holes-cmd failed (exit 75); will retry" watch.log
}

# The exit-75 lines have stopped: none new over 2 s (after a restart,
# bf-holes exits 75 a few seconds more, until the slurmds register).
quiet_75() {
	_q=$(fails_75)
	sleep 2
	test "$(fails_75)" = "$_q"
}
# The line matching PATTERN is in watch.log after its first SKIP lines.
logged() {	# skip pattern
	tail -n +$(($1 + 1)) watch.log | grep -q -e "$2"
}
retried() {	# count: at least that many failures of bf-holes logged
	[ "$(fails_75)" -ge "$1" ]
}

slurm_start 2>start.err
start_rc=$?
test_expect_success 'a private Slurm starts with 8 idle nodes' '
	cat "$TRASH/start.err" && test $start_rc = 0 &&
	test $(sinfo -h -N -p bf -t idle -o %N | wc -l) = 8
'

# bf-watch is a child of this shell, so that its exit code can be had;
# timeout bounds its life should the script die first.
mkspool sp
TAG=$(slurm_pilot_tag sp)
timeout -s KILL 240 bf-watch -d sp --backend slurm --allow-root-jobs -g 2 \
	-r 1 --debounce 20 --no-profile --holes-cmd 'bf-holes --slurm' \
	--holes-interval 1 2>watch.log &
tpid=$!
wait_for 5 test -s sp/lock >/dev/null 2>&1
wpid=$(cat sp/lock 2>/dev/null)
job sp a 3 "exec $J"
job sp b 3 "exec $J"

test_expect_success 'bf-watch --backend slurm starts two jobs on 3 pilots each' '
	test -n "$wpid" && alive $wpid &&
	grep -q bf-watch /proc/$wpid/cmdline &&
	wait_for 30 holding a 3 && wait_for 15 holding b 3 &&
	slurm_wait 15 running_pilots 6 &&
	pilots && state_true sp &&
	wait_for 15 logged 0 "decision: .*start a 0->3" &&
	wait_for 15 logged 0 "decision: .*start b 0->3" &&
	grep -c "pilots: {" sp/state.yaml >n && echo 2 >expect &&
	test_cmp expect n &&
	sort sp/run/a/pilots sp/run/b/pilots | awk "{ print \$2 }" >ids &&
	pilots | awk "{ print \$1 }" | sort >expect && test_cmp expect ids
'

# The controller gone while bf-watch runs; its jobs and their pilots stay.
cp sp/state.yaml state.before 2>/dev/null
decisions_before=$(grep -c "decision:" watch.log)
fails_before=$(fails_75)
slurm_stop_ctld 2>ctld.err
ctld_rc=$?
slurm_message_timeout 2 2>>ctld.err
mt_rc=$?
wait_for 100 retried $((fails_before + 2)) >/dev/null 2>&1

test_expect_success 'slurmctld stopped: bf-holes exits 75, retried; bf-watch runs on unchanged' '
	cat "$TRASH/ctld.err" && test $ctld_rc = 0 && test $mt_rc = 0 &&
	! scontrol ping >/dev/null 2>&1 &&
	cat watch.log &&
	test $(fails_75) -ge $((fails_before + 2)) &&
	grep "^bf-holes: sinfo exited with status 1; is slurmctld answering?$" \
		watch.log &&
	alive $wpid &&
	test $(grep -c "decision:" watch.log) = $decisions_before &&
	sed 1d state.before >expect && sed 1d sp/state.yaml >actual &&
	test_cmp expect actual && state_true sp &&
	test -f sp/jobs/a.yaml && test -f sp/jobs/b.yaml
'

# The controller back: bf-watch carries on where it was.
restart_at=$(wc -l <watch.log)
slurm_message_timeout 5 2>ctld2.err &&
slurm_start_ctld 2>>ctld2.err
ctld2_rc=$?
job sp c 2 "exec $J"

test_expect_success 'slurmctld restarted: bf-watch carries on, a new job starts, nothing lost' '
	cat "$TRASH/ctld2.err" && test $ctld2_rc = 0 &&
	wait_for 60 holding c 2 && wait_for 15 holding a 3 &&
	wait_for 15 holding b 3 &&
	slurm_wait 15 running_pilots 8 && pilots &&
	wait_for 15 logged $restart_at "decision: .*start c 0->2" &&
	sed 1,${restart_at}d watch.log >after && cat after &&
	! grep "decision: .*[;,] \(failed\|lost\) [^ ]* [0-9]*->" after &&
	state_true sp &&
	test -f sp/jobs/a.yaml && test -f sp/jobs/b.yaml &&
	test -f sp/jobs/c.yaml &&
	! grep -l "^outcome: \(failed\|lost\|finished\)" \
		sp/history/runs/*.yaml 2>/dev/null &&
	wait_for 30 quiet_75 &&
	alive $wpid
'

test_expect_success 'a controller restart preempts no job' '
	started_once sp a && started_once sp b &&
	! sed 1,${restart_at}d watch.log | grep "decision: .*preempted"
'

kill -TERM "$wpid" 2>/dev/null
wait_for 10 eval '! alive $wpid' >/dev/null 2>&1 || kill -KILL "$wpid" 2>/dev/null
wait "$tpid"
watch_rc=$?
test_expect_success 'SIGTERM: bf-watch exits 0' '
	test $watch_rc = 0 && ! alive $wpid &&
	tail -3 watch.log
'

kill_jobs sp
scancel -u root 2>/dev/null
test_slurm_stop 'every daemon and job stopped by pid'

echo "# t8030: $(($(date +%s) - t0)) s of wall time"
test_done
