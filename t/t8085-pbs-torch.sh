#!/bin/sh
# A real elastic PyTorch job (torchrun 1.13, c10d rendezvous, gloo on CPU)
# from the shipped recipe (examples/torch), submitted by a non-root user
# (bfpbs, in group bftrainer) to a root bf-watch --backend pbs on the
# private OpenPBS 23.06 of t/lib-pbs.sh (four moms n1-n4, queues workq and
# bf as examples/pbs/bftrainer.qmgr sets them), its holes from bf-holes
# --pbs: workq jobs hold n3 and n4, so it starts on 2; one pilot per node
# in bf, the user's, each torchrun agent attached to its node's pilot
# (pbs_attach: a task of that pilot's mom); the workq jobs end and it grows
# to 4; workq jobs take n3 and n4 back (preemption: the pilots deleted)
# and training goes on on 2 from its last checkpoint; bftrainer ends it at
# its samples and nothing of it outlives it.  t8040 is the same under
# Slurm.
#
# The recipe, the spool and the checkpoints are in a temporary directory
# that every user can reach, as a site installs them.
. "$(dirname "$0")/lib.sh"
. "$T_DIR/lib-pbs.sh"

TITLES='a private OpenPBS starts with 4 free nodes
torch: python3-torch and torchrun are installed
bfpbs submits the torchrun recipe; workq jobs hold 2 nodes: it starts on 2
its pilots are the user'"'"'s, each agent a task of its node'"'"'s pilot
the workq jobs end: it grows to 4 and trains on 4
workq jobs take 2 nodes back: training goes on on 2 from its checkpoint
bftrainer ends it at its samples; no pilot, nothing of it is left
every daemon stopped by pid'

pbs_usable || test_pbs_skip_all "$TITLES"

# qsub runs as the job's owner: the programs must be reachable by it.
test_public_trash

# As t8040: enough that it still trains when the grow and the preemption
# come (1,300 to 1,500 samples/s on 2 emulated nodes on an idle machine).
SAMPLES=${BF_T8085_SAMPLES:-150000}
BF_COORD_HOST=127.0.0.1
export BF_COORD_HOST

pbs_start >start.out 2>start.err
start_rc=$?
test_expect_success 'a private OpenPBS starts with 4 free nodes' '
	cat "$TRASH/start.out" "$TRASH/start.err" && test $start_rc = 0 &&
	test $(pbsnodes -aS | awk "NR > 2 && \$2 == \"free\"" | wc -l) = 4
'

test_expect_success 'torch: python3-torch and torchrun are installed' '
	/usr/bin/python3 -c "import torch, torch.distributed; print(torch.__version__)" &&
	test -x /usr/bin/torchrun
'

UID_U=$(id -u "$PBS_USER")
W=$(mktemp -d /tmp/bf-t8085.XXXXXX)
chmod 755 "$W"
cp -R "$BF_ROOT/examples/torch" "$W/torch"
chmod -R a+rX "$W/torch"
mkdir "$W/ckpt" && chown "$PBS_USER" "$W/ckpt"
mkspool "$W/sp"
TAG=$(pbs_pilot_tag "$W/sp")
cleanup_all() {
	kill_jobs "$W/sp"
	pkill -KILL -u "$UID_U" -f "$W" 2>/dev/null
}
trap 'cleanup_all; pbs_stop' EXIT

nodes_of() {
	sed -n "s/^  mlp: {nodes: \([0-9]*\),.*/\1/p" "$W/sp/state.yaml" 2>/dev/null
}
holding() {	# count
	[ "$(nodes_of)" = "$1" ]
}
# Some report on COUNT nodes after the first SKIP lines of the log.
reported() {	# count [skip]
	tail -n +$((${2:-0} + 1)) "$W/sp/progress/mlp.log" 2>/dev/null |
		awk -v n="$1" '$2 == n { f = 1 } END { exit !f }'
}
last_samples() {
	cat "$W/sp/progress/mlp.log" "$W"/sp/history/runs/*-mlp-*/progress.log \
		2>/dev/null | awk 'END { print $3 + 0 }'
}
# Every pilot recorded in run/mlp/pilots has its agent attached: 2 tasks.
agents_attached() {
	[ -s "$W/sp/run/mlp/pilots" ] || return 1
	while read -r _n _id; do
		[ "$(tasks "$_id" "$_n")" = 2 ] || return 1
	done <"$W/sp/run/mlp/pilots"
}
# Each torchrun agent's BF_HOST, from its environment.
agent_hosts() {
	for _p in $(pgrep -u "$UID_U" -f "torchrun.*$W"); do
		tr '\0' '\n' <"/proc/$_p/environ" 2>/dev/null |
		    sed -n 's/^BF_HOST=//p'
	done | sort -u
}
retired() {
	ls "$W"/sp/history/runs/*-mlp-*.yaml >/dev/null 2>&1 &&
	ls -d "$W"/sp/history/runs/*-mlp-*/ >/dev/null 2>&1
}
user_gone() {
	! ps -u "$UID_U" -o stat=,pid=,args= | grep -v "^Z" | grep -F "$W" >&2
}

m3=$(main_on n3)
m4=$(main_on n4)
pbs_wait 15 sh -c "qstat -f $m3 | grep -q 'substate = 42' &&
	qstat -f $m4 | grep -q 'substate = 42'" >/dev/null 2>&1

timeout -s KILL 1200 bf-watch -d "$W/sp" --backend pbs -g 5 -r 1 \
	--debounce 20 --holes-cmd 'bf-holes --pbs --own bf' --holes-interval 1 \
	2>watch.log &
tpid=$!

cat >job.yaml <<EOT
name: mlp
command: /usr/bin/python3 $W/torch/coordinator.py
worker: /bin/sh $W/torch/worker.sh --checkpoint $W/ckpt
min_nodes: 1
max_nodes: 4
rescale_up: 5
rescale_down: 5
samples: $SAMPLES
scaling: {1: 400, 2: 780, 3: 1150, 4: 1500}
EOT
chmod 644 job.yaml

test_expect_success 'bfpbs submits the torchrun recipe; workq jobs hold 2 nodes: it starts on 2' '
	pbs_as cp job.yaml "$W/sp/incoming/mlp.yaml" &&
	wait_for 30 test -f "$W/sp/jobs/mlp.yaml" &&
	grep -x "owner: {uid: $UID_U}" "$W/sp/jobs/mlp.yaml" &&
	wait_for 60 holding 2 &&
	grep "^  mlp: {nodes: 2, hosts: \"n\[1-2\]\"" "$W/sp/state.yaml" &&
	wait_for 180 reported 2 || { tail -30 "$W/sp/run/mlp/output"; exit 1; }
'

test_expect_success 'its pilots are the user'"'"'s, each agent a task of its node'"'"'s pilot' '
	bfq >q && cat q &&
	awk "{ print \$2, \$3, \$4, \$5 }" q >actual &&
	printf "${TAG}mlp $PBS_USER R n1\n${TAG}mlp $PBS_USER R n2\n" >expect &&
	test_cmp expect actual &&
	awk "{ print \$1 }" q >actual &&
	sort -k2 "$W/sp/run/mlp/pilots" | awk "{ print \$2 }" | sort -n >expect &&
	sort -n actual >a2 && test_cmp expect a2 &&
	wait_for 30 agents_attached &&
	wait_for 30 eval "[ \"\$(agent_hosts | tr \"\\n\" \" \")\" = \"n1 n2 \" ]"
'

test_expect_success 'the workq jobs end: it grows to 4 and trains on 4' '
	n=$(wc -l <"$W/sp/progress/mlp.log") &&
	qdel $m3 $m4 &&
	wait_for 60 holding 4 &&
	wait_for 180 reported 4 $n || { tail -30 "$W/sp/run/mlp/output"; exit 1; } &&
	wait_for 10 grep -q "decision: .*grow mlp 2->4 (chosen)" watch.log &&
	test $(bfq | grep -c " ${TAG}mlp $PBS_USER R n[1-4]$") = 4 &&
	wait_for 30 agents_attached
'

test_expect_success 'workq jobs take 2 nodes back: training goes on on 2 from its checkpoint' '
	n=$(wc -l <"$W/sp/progress/mlp.log") &&
	before=$(last_samples) &&
	m3=$(main_on n3) && m4=$(main_on n4) &&
	wait_for 30 eval "job_running $m3 && job_running $m4" &&
	wait_for 60 holding 2 &&
	wait_for 10 grep -q "decision: .*adopt mlp [34]->[23] (pilot lost)" watch.log &&
	wait_for 180 reported 2 $n || { tail -40 "$W/sp/run/mlp/output"; exit 1; } &&
	tail -n +$((n + 1)) "$W/sp/progress/mlp.log" >after && cat after &&
	awk -v b="$before" "\$2 == 2 && \$3 < b { bad = 1 } END { exit bad }" after &&
	grep "start: 2 nodes" "$W/sp/run/mlp/output" | tail -1 >restart &&
	cat restart && grep -q "resumed at step [1-9]" restart &&
	test $(bfq | grep -c " ${TAG}mlp ") = 2 &&
	wait_for 30 agents_attached
'

test_expect_success 'bftrainer ends it at its samples; no pilot, nothing of it is left' '
	{ wait_for 600 retired || { echo "not retired in 600 s:"
	    tail -30 "$W/sp/run/mlp/output"; cat "$W/sp/state.yaml"; exit 1; } >&2; } &&
	grep -h "^outcome:" "$W"/sp/history/runs/*-mlp-*.yaml >actual &&
	echo "outcome: finished" >expect && test_cmp expect actual &&
	s=$(last_samples) &&
	{ test $s -ge $SAMPLES ||
	    { echo "ended at $s samples, not $SAMPLES"; exit 1; } >&2; } &&
	! test -f "$W/sp/jobs/mlp.yaml" &&
	{ wait_for 60 eval "! bfq | grep -q \" ${TAG}mlp \"" ||
	    { echo "pilots left:"; bfq; exit 1; } >&2; } &&
	{ wait_for 60 user_gone ||
	    { echo "processes left:"
	      ps -u "$UID_U" -o pid,ppid,pgid,sid,stat,etime,comm,args; exit 1; } >&2; }
'

kill -TERM $(cat "$W/sp/lock" 2>/dev/null) 2>/dev/null
wait $tpid 2>/dev/null
qdel $m3 $m4 2>/dev/null
cleanup_all
trap - EXIT
test_pbs_stop 'every daemon stopped by pid'
if [ "$test_failed" -ne 0 ]; then
	rm -rf kept && mkdir kept &&
	cp -R "$W/sp/state.yaml" "$W/sp/run" "$W/sp/history/runs" kept/ 2>/dev/null
	echo "# the spool's state, runs and records kept in $TRASH/kept"
fi
rm -rf "$W"
test_done
