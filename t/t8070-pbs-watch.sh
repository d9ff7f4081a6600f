#!/bin/sh
# bf-watch --backend pbs --holes-cmd 'bf-holes --pbs ...' over a replayed
# sequence of pbsnodes -a -F json outputs derived from the ALCF Polaris
# capture (t/data/pbs/pbsnodes-polaris.json: three real vnodes, one free,
# one running job 1147579, one down), the pilots held through the PBS
# stand-ins (t/data/pbs/standin) kept in step with the replay:
#
#   step  pbsnodes (derived)                       stand-in server
#   0     the capture without "resv": x3006 free    a main job on x3008,
#         x3008 job-exclusive, x3009 down           x3009 down
#   1     x3009 "free", its comment dropped         x3009 up
#   2     x3008 "free", its job and resources gone  the main job on x3008 ends
#   3     x3006 job-exclusive, job 1147600 (ncpus)  a main job preempts the
#                                                   pilot on x3006 (D)
#   4     x3008 and x3009 job-exclusive too         main jobs preempt both
#
# Each step's file differs from the capture only by those edits and a
# timestamp 60 s later per step (derive() below names them).  bf-watch
# grows one job onto each node that comes free, shrinks it when a pilot is
# preempted, and stops it (preempted, its file kept) when none is left.
. "$(dirname "$0")/lib.sh"

TITLES='step 0: the free Polaris vnode: a job starts there on a PBS pilot, its worker attached
step 1: a vnode back up: the job grows onto it
step 2: a job ended: the job grows to all three
step 3: a main job preempts a pilot: the job shrinks, nothing asked of that node
step 4: main jobs take the rest: the job is preempted, its file kept
SIGTERM: bf-watch exits 0'

if ! test_have_root; then
	echo "$TITLES" | while read -r t; do
		test_skip "$t" "needs root to run jobs of another uid"
	done
	test_done
fi

# qsub runs as the job's owner: the stand-ins, the programs and the spool
# must be reachable by other uids, not in a checkout in root's 0700 home.
test_public_trash
cp -R "$T_DIR/data/pbs/standin" "$PUBLIC/standin" && chmod -R go+rX "$PUBLIC/standin"
S="$PUBLIC/standin"
P="$T_DIR/data/pbs"
PATH="$S:$PATH"
PBS_CONF_FILE="$TRASH/srv/pbs.conf"
BF_COORD_HOST=127.0.0.1
export PATH PBS_CONF_FILE BF_COORD_HOST
unset BF_PBS_NAME_MAX PBS_STANDIN_NAME_MAX

A=x3006c0s13b1n0 B=x3008c0s37b1n0 C=x3009c0s19b0n0
mkdir srv && chmod 777 srv && echo "PBS_SERVER=test" >srv/pbs.conf &&
printf '%s\n%s\n%s down\n' $A $B $C >srv/nodes

# derive N CODE: nodes.N.json, the capture edited by the Python CODE (d is
# the document, n its "nodes"), "resv" dropped, the timestamp 60 s * N on.
derive() {
	python3 - "$P/pbsnodes-polaris.json" "nodes.$1.json" "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
n = d["nodes"]
for v in n.values():
    v.pop("resv")
d["timestamp"] += 60 * int(sys.argv[3])
exec(sys.argv[4])
json.dump(d, open(sys.argv[2], "w"), indent=4)
EOF
}
BUSY='
def busy(name, job):
    n[name]["state"] = "job-exclusive"
    n[name]["jobs"] = [job + ".polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov"]
    n[name]["resources_assigned"] = {"ncpus": 64}
'
UP="n['$C']['state'] = 'free'; n['$C'].pop('comment')"
DONE="n['$B']['state'] = 'free'; n['$B'].pop('jobs'); n['$B']['resources_assigned'] = {}"
derive 0 "" &&
derive 1 "$UP" &&
derive 2 "$UP; $DONE" &&
derive 3 "$BUSY
$UP; $DONE; busy('$A', '1147600')" &&
derive 4 "$BUSY
$UP; $DONE; busy('$A', '1147600'); busy('$B', '1147601'); busy('$C', '1147602')"

step() {	# n: the replay's next pbsnodes output, by rename
	cp "nodes.$1.json" .nodes.json && mv .nodes.json nodes.json
}
standin() {
	PBS_STANDIN="$TRASH/srv" pbs-standin "$@"
}
nodes_of() {	# job: its hosts in the state
	sed -n "s/^  $1: {nodes: [0-9]*, hosts: \"*\([^\",]*\)\"*,.*/\1/p" \
		sp/state.yaml
}
hosts_of() {	# job: the hosts file, one host a line
	sed "s/:.*//" "sp/run/$1/hosts" 2>/dev/null
}
holding() {	# job host...
	_j=$1
	shift
	[ "$(hosts_of "$_j" | paste -sd" ")" = "$*" ]
}
holes_at() {	# time: bf-watch has read that step's holes
	[ "$(sed -n "s/^time: //p" sp/holes/current.yaml)" = "$1" ]
}
planned() {	# job hosts: the current plan gives the job these hosts
	grep -q "^  $1: {nodes: [0-9]*, was: [0-9]*, hosts: \"$2\"}" \
		sp/plans/current.yaml
}
logged() {	# pattern
	grep -q -e "$1" watch.log
}
workers() {	# job count: running workers
	[ "$(awk '$4 == "running"' "sp/run/$1/workers" 2>/dev/null |
		wc -l)" = "$2" ]
}
pilot() {	# job node
	awk -v n="$2" '$1 == n { print $2 }' "sp/run/$1/pilots"
}
cleanup_all() {
	kill_jobs sp
	for _g in $(standin sessions 2>/dev/null); do
		kill -KILL -"$_g" 2>/dev/null
	done
}
trap cleanup_all EXIT

standin preempt D $B
step 0
mkspool sp
job sp a 3 "exec $J" "worker: exec $W" &&
chown 4321:4321 sp/incoming/a.yaml
HOLES="bf-holes --pbs --pbsnodes 'cat $TRASH/nodes.json' --qstat true --pbs-rstat true"
timeout -s KILL 240 bf-watch -d sp --backend pbs -g 2 -r 1 --debounce 20 \
	--no-profile --holes-cmd "$HOLES" --holes-interval 1 2>watch.log &
tpid=$!
wait_for 5 test -s sp/lock >/dev/null 2>&1
wpid=$(cat sp/lock 2>/dev/null)

test_expect_success 'step 0: the free Polaris vnode: a job starts there on a PBS pilot, its worker attached' '
	test -n "$wpid" && alive $wpid &&
	wait_for 30 holding a $A && cat watch.log &&
	wait_for 15 logged "decision: .*; start a 0->1 (chosen);" &&
	grep "^idle:$" -A1 sp/holes/current.yaml | grep -x "  - nodes: $A" &&
	holes_at 1699630815 &&
	grep "^4321 qsub -f -q bf -N bf-[0-9a-f]*-a -l select=1:host=$A " \
		srv/argv.log &&
	wait_for 30 workers a 1 &&
	# "running" from the fork on: its ssh, then its pbs_attach, log
	# their calls to srv/argv.log a moment later.
	wait_for 15 grep -q "^4321 pbs_attach -j $(pilot a $A) " srv/argv.log
'

standin_up() {
	printf '%s\n%s\n%s\n' $A $B $C >srv/nodes
}
standin_up
step 1
test_expect_success 'step 1: a vnode back up: the job grows onto it' '
	wait_for 30 holding a $A $C && cat watch.log &&
	wait_for 15 logged "decision: .*; grow a 1->2 (chosen);" &&
	holes_at 1699630875 &&
	wait_for 30 workers a 2
'

standin end $B
step 2
test_expect_success 'step 2: a job ended: the job grows to all three' '
	wait_for 30 holding a $A $B $C && cat watch.log && holes_at 1699630935 &&
	wait_for 15 logged "decision: .*; grow a 2->3 (chosen);" &&
	wait_for 30 workers a 3
'

standin preempt D $A
step 3
test_expect_success 'step 3: a main job preempts a pilot: the job shrinks, nothing asked of that node' '
	idA=$(pilot a $A) &&
	wait_for 30 holes_at 1699630995 && wait_for 15 planned a "$B,$C" &&
	wait_for 30 holding a $B $C && cat watch.log sp/state.yaml &&
	grep " leave $A $idA GONE$" sp/run/a/pilots.log &&
	test $(grep -c "^4321 qsub .*host=$A " srv/argv.log) = 1 &&
	wait_for 30 workers a 2
'

standin preempt D $B $C
step 4
test_expect_success 'step 4: main jobs take the rest: the job is preempted, its file kept' '
	wait_for 30 holes_at 1699631055 &&
	wait_for 30 eval "grep -q \"^jobs: {}\$\" sp/state.yaml" &&
	cat watch.log &&
	wait_for 15 logged "preempted a " &&
	test -f sp/jobs/a.yaml &&
	grep -l "^outcome: preempted$" sp/history/runs/*-a-*.yaml &&
	! grep "decision: .*[;,] \(failed\|lost\) [^ ]* [0-9]*->" watch.log
'

kill -TERM "$wpid" 2>/dev/null
wait_for 10 eval '! alive $wpid' >/dev/null 2>&1 || kill -KILL "$wpid" 2>/dev/null
wait "$tpid"
watch_rc=$?
test_expect_success 'SIGTERM: bf-watch exits 0' '
	test $watch_rc = 0 && ! alive $wpid
'

cleanup_all
test_done
