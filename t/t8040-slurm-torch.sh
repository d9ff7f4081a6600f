#!/bin/sh
# A real elastic PyTorch job (torchrun 1.13, c10d rendezvous, gloo on CPU,
# DistributedDataParallel) from the shipped recipe (examples/torch), submitted
# by a non-root user (nobody) to a root bf-watch --backend slurm on a private
# Slurm 22.05 of 8 nodes (t/lib-slurm.sh), its holes from bf-holes --slurm:
# main jobs hold 6 nodes, so it starts on 2; its pilots are the user's; each
# torchrun agent is a step of its node's pilot (SLURM_JOB_ID that pilot's); 2
# main nodes free up and it grows to 4; a main job takes 2 of them back
# (preemption, no notice) and training goes on on the other 2 from its last
# checkpoint; bftrainer ends it at its samples and nothing of it outlives it.
#
# The recipe, the spool and the checkpoints are copied to a temporary
# directory that every user can reach, as a site installs them: the user's
# processes cannot reach a checkout in root's 0700 home.
. "$(dirname "$0")/lib.sh"
. "$T_DIR/lib-slurm.sh"

TITLES='a private Slurm starts with 8 idle nodes
torch: python3-torch and torchrun are installed
nobody submits the torchrun recipe; main jobs hold 6 nodes: it starts on 2
its pilots are the user'"'"'s, each agent a step of its node'"'"'s pilot
2 main nodes free up: it grows to 4 and trains on 4
a main job takes 2 nodes back: training goes on on 2 from its checkpoint
bftrainer ends it at its samples; nothing of it is left
every daemon and job stopped by pid'

slurm_usable || test_slurm_skip_all "$TITLES"

USER_UID=65534
# Enough that the job still trains when the grow and the shrink come: on
# an otherwise idle machine it trains at up to 1,500 samples/s on 2
# emulated nodes, on a loaded one at 500, and the grow comes 10 to 30 s
# after its first report.
SAMPLES=${BF_T8040_SAMPLES:-150000}
# The declared curve is a shape: 2 emulated nodes measure 1,300 to 1,500
# samples/s here, and bf-solve scales the declared rates it has not
# measured to what it has (bf-solve(1), Profiles).  When it took them as
# declared, a run that measured more than the declared 1,500 at 4 kept the
# job on 2 (tests 5 and 6 failed, 2026-11-25).
as_user() {
	as $USER_UID "$@"
}
# The job's node count in the state ("" when not there).
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
# The last report's samples, from the log in progress/ or, once the job
# ended, moved with its run.
last_samples() {
	cat "$W/sp/progress/mlp.log" "$W"/sp/history/runs/*-mlp-*/progress.log \
		2>/dev/null | awk 'END { print $3 + 0 }'
}
# "NODE PILOT" of the job's running steps named mlp-worker, by node.
steps() {
	squeue -h -s -o '%i %j %u %N' | awk '$2 == "mlp-worker" {
		split($1, id, "."); print $4, id[1], $3 }' | sort
}
# "NODE PILOT" from run/mlp/pilots, by node.
recorded() {
	sort "$W/sp/run/mlp/pilots"
}
# Every agent runs in the pilot recorded for its node, and only those.
agents_in_pilots() {
	agents >agents.now && recorded >pilots.now && cmp -s agents.now pilots.now
}
# Each torchrun agent's BF_HOST and SLURM_JOB_ID, from its environment.
agents() {
	for _p in $(pgrep -u $USER_UID -f "torchrun.*$W"); do
		tr '\0' '\n' <"/proc/$_p/environ" 2>/dev/null |
		    awk -F= '$1 == "BF_HOST" { h = $2 } $1 == "SLURM_JOB_ID" { j = $2 }
			END { if (h != "") print h, j }'
	done | sort -u
}
# The run is retired: its record is in history/runs/ and its directory, with
# the progress log, moved there after it (the last step of a retirement: the
# record alone shows a retirement under way, its job file and log maybe not
# yet moved).
retired() {
	ls "$W"/sp/history/runs/*-mlp-*.yaml >/dev/null 2>&1 &&
	ls -d "$W"/sp/history/runs/*-mlp-*/ >/dev/null 2>&1
}
steps_are() {	# count
	[ "$(steps | wc -l)" -eq "$1" ]
}
# No process of the job is left: none of the user's runs anything of $W
# (a zombie is dead: the shell, a child subreaper under lib-slurm, reaps
# its orphans only when it waits).
user_gone() {
	! ps -u $USER_UID -o stat=,pid=,args= | grep -v "^Z" | grep -F "$W" >&2
}

slurm_start 2>start.err
start_rc=$?
test_expect_success 'a private Slurm starts with 8 idle nodes' '
	cat "$TRASH/start.err" && test $start_rc = 0 &&
	test $(sinfo -h -N -p bf -t idle -o %N | wc -l) = 8
'

test_expect_success 'torch: python3-torch and torchrun are installed' '
	/usr/bin/python3 -c "import torch, torch.distributed; print(torch.__version__)" &&
	test -x /usr/bin/torchrun
'

W=$(mktemp -d /tmp/bf-t8040.XXXXXX)
chmod 755 "$W"
cp -R "$BF_ROOT/examples/torch" "$W/torch"
chmod -R a+rX "$W/torch"
mkdir "$W/ckpt" && chown $USER_UID "$W/ckpt"
mkspool "$W/sp"
TAG=$(slurm_pilot_tag "$W/sp")
cleanup_all() {
	kill_jobs "$W/sp"
	scancel -u nobody 2>/dev/null
	pkill -KILL -u $USER_UID -f "$W" 2>/dev/null
}

# Main jobs: M1 on n[3-4] (ends to let the job grow), M2 on n[5-8].
m1=$(sbatch --parsable -p main -w "n[3-4]" -N2 --exclusive -t 20 -J m1 --wrap "sleep 1200")
m2=$(sbatch --parsable -p main -w "n[5-8]" -N4 --exclusive -t 20 -J m2 --wrap "sleep 1200")
slurm_wait 15 sh -c '[ "$(squeue -h -p main -t running | wc -l)" = 2 ]' >/dev/null 2>&1

timeout -s KILL 1200 bf-watch -d "$W/sp" --backend slurm -g 5 -r 1 \
	--debounce 20 --holes-cmd 'bf-holes --slurm' --holes-interval 1 \
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

test_expect_success 'nobody submits the torchrun recipe; main jobs hold 6 nodes: it starts on 2' '
	as_user cp job.yaml "$W/sp/incoming/mlp.yaml" &&
	wait_for 30 test -f "$W/sp/jobs/mlp.yaml" &&
	grep -x "owner: {uid: $USER_UID}" "$W/sp/jobs/mlp.yaml" &&
	wait_for 30 holding 2 &&
	grep "^  mlp: {nodes: 2, hosts: \"n\[1-2\]\"" "$W/sp/state.yaml" &&
	wait_for 120 reported 2 || { cat "$W/sp/run/mlp/output"; exit 1; }
'

test_expect_success 'its pilots are the user'"'"'s, each agent a step of its node'"'"'s pilot' '
	pilots >p && cat p &&
	awk "{ print \$3, \$4 }" p >actual &&
	printf "n1 RUNNING\nn2 RUNNING\n" >expect && test_cmp expect actual &&
	squeue -h -o "%u %j" | grep "^nobody $TAG" | sort -u >actual &&
	echo "nobody ${TAG}mlp" >expect && test_cmp expect actual &&
	wait_for 30 steps_are 2 &&
	steps >s && cat s &&
	awk "{ print \$1, \$2 }" s >actual && recorded >expect &&
	test_cmp expect actual &&
	awk "{ print \$3 }" s | sort -u >actual && echo nobody >expect &&
	test_cmp expect actual &&
	wait_for 30 agents_in_pilots && cat agents.now
'

test_expect_success '2 main nodes free up: it grows to 4 and trains on 4' '
	n=$(wc -l <"$W/sp/progress/mlp.log") &&
	scancel $m1 &&
	wait_for 60 holding 4 &&
	wait_for 120 reported 4 $n || { tail -30 "$W/sp/run/mlp/output"; exit 1; } &&
	wait_for 30 steps_are 4 &&
	wait_for 30 agents_in_pilots &&
	wait_for 10 grep -q "decision: .*grow mlp 2->4" watch.log
'

test_expect_success 'a main job takes 2 nodes back: training goes on on 2 from its checkpoint' '
	n=$(wc -l <"$W/sp/progress/mlp.log") &&
	before=$(last_samples) &&
	m3=$(sbatch --parsable -p main -w "n[3-4]" -N2 --exclusive -t 20 -J m3 --wrap "sleep 1200") &&
	slurm_wait 15 sh -c "[ \"\$(squeue -h -j $m3 -o %T)\" = RUNNING ]" &&
	wait_for 60 holding 2 &&
	wait_for 10 grep -q "decision: .*adopt mlp 4->2" watch.log &&
	wait_for 120 reported 2 $n || { tail -40 "$W/sp/run/mlp/output"; exit 1; } &&
	tail -n +$((n + 1)) "$W/sp/progress/mlp.log" >after && cat after &&
	awk -v b="$before" "\$2 == 2 && \$3 < b { bad = 1 } END { exit bad }" after &&
	grep "start: 2 nodes" "$W/sp/run/mlp/output" | tail -1 >restart &&
	cat restart && grep -q "resumed at step [1-9]" restart &&
	wait_for 30 steps_are 2 &&
	wait_for 30 agents_in_pilots || { cat agents.now pilots.now; exit 1; }
'

test_expect_success 'bftrainer ends it at its samples; nothing of it is left' '
	{ wait_for 600 retired || { echo "not retired in 600 s:"
	    tail -30 "$W/sp/run/mlp/output"; cat "$W/sp/state.yaml"; exit 1; } >&2; } &&
	grep -h "^outcome:" "$W"/sp/history/runs/*-mlp-*.yaml >actual &&
	echo "outcome: finished" >expect &&
	{ test_cmp expect actual || { tail -5 watch.log
	    tail -20 "$W"/sp/history/runs/*-mlp-*/output; exit 1; } >&2; } &&
	s=$(last_samples) &&
	{ test $s -ge $SAMPLES ||
	    { echo "ended at $s samples, not $SAMPLES"; exit 1; } >&2; } &&
	! test -f "$W/sp/jobs/mlp.yaml" &&
	{ wait_for 60 eval "! pilots | grep -q mlp" ||
	    { echo "pilots left:"; pilots; squeue -a; exit 1; } >&2; } &&
	{ wait_for 60 user_gone ||
	    { echo "processes left:"
	      ps -u $USER_UID -o pid,ppid,pgid,sid,stat,etime,comm,args
	      echo "slurmstepd processes:"; ps -C slurmstepd -o pid,ppid,etime,args
	      cp "$SLURM_DIR"/slurmd-n*.log "$SLURM_DIR"/slurmctld.log "$TRASH"/ 2>/dev/null
	      exit 1; } >&2; } &&
	! squeue -h -s -o %j | grep -q mlp-worker
'

kill -TERM $(cat "$W/sp/lock" 2>/dev/null) 2>/dev/null
wait $tpid 2>/dev/null
cleanup_all
test_slurm_stop 'every daemon and job stopped by pid'
# What a failure needs read, kept in the trash directory (t/trash/...).
if [ "$test_failed" -ne 0 ]; then
	rm -rf kept && mkdir kept &&
	cp -R "$W/sp/state.yaml" "$W/sp/run" "$W/sp/history/runs" kept/ 2>/dev/null
	echo "# the spool's state, runs and records kept in $TRASH/kept"
fi
rm -rf "$W"
test_done
