#!/bin/sh
# A preemption under bf-watch --backend slurm (private Slurm 22.05, 8 nodes,
# t/lib-slurm.sh), with a holes file older than the preemption (bf-holes
# polled every 20 s): the forced shrink is a decision line; the nodes taken
# are asked for at most once more (state.yaml unobtained) and the job does
# not thrash; at the next decision it grows back onto the nodes still idle;
# a newer holes file without the taken nodes ends the matter.
. "$(dirname "$0")/lib.sh"
. "$T_DIR/lib-slurm.sh"

TITLES='a private Slurm starts with 8 idle nodes
a job of 6 nodes holds n[1-6] with 6 pilots
a main job takes n[1-2]: the forced shrink is a decision line
no thrash: the taken nodes are asked for at most once more
it grows back onto the idle n[7-8] at the next decision
a newer holes file lists n[1-2] no more: nothing changes
every daemon and job stopped by pid'

slurm_usable || test_slurm_skip_all "$TITLES"

nodes_of() {	# job: its node count in the state
	sed -n "s/^  $1: {nodes: \([0-9]*\),.*/\1/p" sp/state.yaml
}
hosts_of() {	# job
	sed -n "s/^  $1: {nodes: [0-9]*, hosts: \"\([^\"]*\)\".*/\1/p" sp/state.yaml
}
holding() {	# job nodes
	[ "$(nodes_of "$1")" = "$2" ]
}
holding_on() {	# job hostlist
	[ "$(hosts_of "$1")" = "$2" ]
}
decisions() {	# pattern: how many decision lines match
	grep -c "decision: .*$1" watch.log || true
}

slurm_start 2>start.err
start_rc=$?
test_expect_success 'a private Slurm starts with 8 idle nodes' '
	cat "$TRASH/start.err" && test $start_rc = 0 &&
	test $(sinfo -h -N -p bf -t idle -o %N | wc -l) = 8
'

mkspool sp
TAG=$(slurm_pilot_tag sp)
timeout -s KILL 300 bf-watch -d sp --backend slurm --allow-root-jobs -g 2 \
	-r 1 --debounce 20 --no-profile --holes-cmd 'bf-holes --slurm' \
	--holes-interval 20 2>watch.log &
tpid=$!
wait_for 5 test -s sp/lock >/dev/null 2>&1
wpid=$(cat sp/lock 2>/dev/null)
# Linear scaling: every node is worth having, so it grows whenever it can.
printf 'name: a\ncommand: exec %s\nmax_nodes: 6\nrescale_up: 0.1\nrescale_down: 0.1\nscaling: {1: 100, 6: 600}\n' \
	"$J" >sp/incoming/.a && mv sp/incoming/.a sp/incoming/a.yaml

test_expect_success 'a job of 6 nodes holds n[1-6] with 6 pilots' '
	wait_for 30 holding a 6 &&
	pilots | grep -c " RUNNING$" >n && echo 6 >expect && test_cmp expect n &&
	hosts_of a >actual && echo "n[1-6]" >expect && test_cmp expect actual
'

test_expect_success 'a main job takes n[1-2]: the forced shrink is a decision line' '
	grows=$(decisions "grow a ") &&
	echo "$grows" >grows.before &&
	cp sp/holes/current.yaml holes.before &&
	sbatch --parsable -p main -w "n[1-2]" -N2 --exclusive -t 5 -J main2 \
		--wrap "sleep 300" >main2 &&
	slurm_wait 15 sh -c "[ \"\$(squeue -h -j $(cat main2) -o %T)\" = RUNNING ]" &&
	wait_for 15 grep -q "decision: .*adopt a 6->4" watch.log &&
	grep "decision: .*adopt a 6->4" watch.log
'

test_expect_success 'no thrash: the taken nodes are asked for at most once more' '
	wait_for 15 holding a 6 &&
	sleep 3 &&
	cmp holes.before sp/holes/current.yaml &&
	cat watch.log &&
	test $(decisions "grow a ") -le $(($(cat grows.before) + 2)) &&
	sort sp/run/a/pilots >p && cat p &&
	! grep -q "^n[12] " p &&
	grep " leave n1 " sp/run/a/pilots.log && grep " leave n2 " sp/run/a/pilots.log
'

test_expect_success 'it grows back onto the idle n[7-8] at the next decision' '
	hosts_of a >actual && echo "n[3-8]" >expect && test_cmp expect actual &&
	grep "^unobtained: {holes: \"xxh3:[0-9a-f]*\", hosts: \"n\[1-2\]\", since: [0-9]*}$" \
		sp/state.yaml ||
	! grep -q "^unobtained:" sp/state.yaml
'

test_expect_success 'a newer holes file lists n[1-2] no more: nothing changes' '
	n=$(wc -l <watch.log) &&
	wait_for 30 eval "! cmp -s holes.before sp/holes/current.yaml" &&
	sleep 2 &&
	! grep -q "n1\b\|n\[1" sp/holes/current.yaml &&
	hosts_of a >actual && echo "n[3-8]" >expect && test_cmp expect actual &&
	tail -n +$((n + 1)) watch.log >after && cat after &&
	! grep "decision: .*\(grow\|shrink\|stop\) a" after
'

kill -TERM "$wpid" 2>/dev/null
wait "$tpid"
kill_jobs sp
scancel -u root 2>/dev/null
test_slurm_stop 'every daemon and job stopped by pid'
test_done
