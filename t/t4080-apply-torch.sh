#!/bin/sh
# The real elastic PyTorch job of the shipped recipe (examples/torch:
# torchrun 1.13, c10d rendezvous hosted by the job's coordinator, gloo on
# CPU, DistributedDataParallel) under bf-apply's local backend, submitted by a
# non-root user (nobody): one torchrun agent per host it holds; it starts on
# 2, grows to 4, shrinks to 3 with notice (the leaving worker commits a
# checkpoint before it goes) and goes on from there; bftrainer ends it at its
# samples, and nothing of it is left.  The recipe, spool and checkpoints are
# in a temporary directory every user can reach.
. "$(dirname "$0")/lib.sh"

if ! test_have_root || ! command -v setpriv >/dev/null; then
	test_skip 'a torchrun job of a non-root user, local backend' \
		'needs root (bf-apply runs jobs as their owner) and setpriv'
	test_done
fi

USER_UID=65534
SAMPLES=${BF_T4080_SAMPLES:-40000}
W=$(mktemp -d /tmp/bf-t4080.XXXXXX)
chmod 755 "$W"
cp -R "$BF_ROOT/examples/torch" "$W/torch"
chmod -R a+rX "$W/torch"
mkdir "$W/ckpt" && chown $USER_UID "$W/ckpt"
mkspool "$W/sp"
trap 'kill_jobs "$W/sp"; pkill -KILL -u $USER_UID -f "$W" 2>/dev/null; rm -rf "$W"' EXIT

apply() {
	bf-solve -d "$W/sp" >/dev/null && bf-apply -d "$W/sp" -g 10
}
reported() {	# count [skip]: a report on COUNT nodes after SKIP lines
	tail -n +$((${2:-0} + 1)) "$W/sp/progress/mlp.log" 2>/dev/null |
		awk -v n="$1" '$2 == n { f = 1 } END { exit !f }'
}
log_lines() {
	wc -l <"$W/sp/progress/mlp.log"
}
agents_are() {	# count: torchrun agents of the user running
	[ "$(pgrep -u $USER_UID -f "/usr/bin/torchrun.*$W" | wc -l)" -eq "$1" ]
}
# No process of the job is left: none of the user's runs anything of $W
# (a zombie is dead: the shell, a child subreaper under lib-slurm, reaps
# its orphans only when it waits).
user_gone() {
	! ps -u $USER_UID -o stat=,pid=,args= | grep -v "^Z" | grep -F "$W" >&2
}
finished() {
	bf-apply -d "$W/sp" -g 10 >>"$W/out" 2>&1
	ls "$W"/sp/history/runs/*-mlp-*.yaml >/dev/null 2>&1
}

test_expect_success 'torch: python3-torch and torchrun are installed' '
	/usr/bin/python3 -c "import torch, torch.distributed" &&
	test -x /usr/bin/torchrun
'

test_expect_success 'nobody submits the recipe; it starts on 2 hosts, an agent each' '
	sed -e "s|@EXAMPLES@|$W|" -e "s|@CHECKPOINT@|$W/ckpt|" \
	    -e "s|^samples: .*|samples: $SAMPLES|" \
	    "$W/torch/mlp.yaml" >"$W/mlp.yaml" && chmod 644 "$W/mlp.yaml" &&
	setpriv --reuid=$USER_UID --regid=$USER_UID --clear-groups \
		cp "$W/mlp.yaml" "$W/sp/incoming/mlp.yaml" &&
	bf-submit --intake -d "$W/sp" 2>/dev/null &&
	holes "$W/sp" 1000 "n[1-2]" &&
	apply >out && grep -x "start mlp 0->2 n\[1-2\]" out &&
	wait_for 120 reported 2 || { cat "$W/sp/run/mlp/output"; exit 1; } &&
	agents_are 2
'

test_expect_success 'it grows to 4 and trains on 4' '
	n=$(log_lines) &&
	holes "$W/sp" 1001 "n[1-4]" &&
	apply >out && grep -x "grow mlp 2->4 n\[1-4\]" out &&
	wait_for 120 reported 4 $n || { tail -30 "$W/sp/run/mlp/output"; exit 1; } &&
	agents_are 4
'

test_expect_success 'a shrink to 3 gives notice: the leaving worker commits, training goes on on 3' '
	n=$(log_lines) &&
	holes "$W/sp" 1002 "n[1-3]" &&
	apply >out && grep -x "shrink mlp 4->3 n\[1-3\]" out &&
	wait_for 15 grep -q " term n4 " "$W/sp/run/mlp/workers.log" &&
	wait_for 30 grep -q " exit n4 " "$W/sp/run/mlp/workers.log" &&
	! grep -q " kill n4 " "$W/sp/run/mlp/workers.log" &&
	wait_for 120 reported 3 $n || { tail -30 "$W/sp/run/mlp/output"; exit 1; } &&
	tail -n +$((n + 1)) "$W/sp/progress/mlp.log" >after && cat after &&
	awk "NR > 1 && \$3 < prev { exit 1 } { prev = \$3 }" after &&
	wait_for 30 agents_are 3 &&
	sed -n "s/.*stop at step [0-9]* samples [0-9]* (.*), committed step \([0-9]*\)$/\1/p" \
		"$W/sp/run/mlp/output" | tail -1 >committed &&
	grep "start: 3 nodes" "$W/sp/run/mlp/output" | tail -1 |
		sed -n "s/.*resumed at step \([0-9]*\) .*/\1/p" >resumed &&
	cat committed resumed && test -s committed && test_cmp committed resumed
'

test_expect_success 'bftrainer ends it at its samples; nothing of it is left' '
	wait_for 300 finished || { tail -30 "$W/sp/run/mlp/output"; exit 1; } &&
	grep -x "outcome: finished" "$W"/sp/history/runs/*-mlp-*.yaml &&
	! test -f "$W/sp/jobs/mlp.yaml" &&
	awk "END { exit !(\$3 >= $SAMPLES) }" "$W"/sp/history/runs/*-mlp-*/progress.log &&
	wait_for 30 user_gone
'

test_done
