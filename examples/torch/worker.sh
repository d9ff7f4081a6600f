#!/bin/sh
# worker.sh - the per-node command of a torchrun job under bftrainer: one
# torchrun agent for this node ($BF_HOST), joining the c10d rendezvous that
# coordinator.py hosts at $BF_COORD.  Arguments are passed to train.py.
#
#   worker: exec /bin/sh /ABS/PATH/examples/torch/worker.sh --checkpoint /shared/DIR
#
# exec, twice (liveness.py registers the agent with the coordinator, then execs
# torchrun with the rendezvous id in its environment, PET_RDZV_ID, derived from
# the run's secret $BF_SECRET: never on the command line, which ps shows to
# every user): torchrun becomes the process that bftrainer started, so a SIGTERM
# to it or to its process group reaches the agent once, and the agent exits
# only after its training processes have (it sends them SIGTERM and waits up
# to 30 s).
#
# Flags are spelt as torch 1.13 (Debian 12) accepts them: underscores
# (--nproc_per_node); torch 2.x accepts these and the hyphenated forms.
# TORCHRUN, PYTHON_EXEC (the interpreter of the training processes; torchrun
# uses its own otherwise), BF_TORCH_LAST_CALL and BF_TORCH_MONITOR (below) may
# be set in the environment.
set -eu
here=$(cd "$(dirname "$0")" && pwd)

: "${BF_COORD:?BF_COORD is not set}" "${BF_JOB:?BF_JOB is not set}"
: "${BF_SECRET:?BF_SECRET is not set}"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
# Nothing here needs HOME (it may not exist: user nobody); torchrun makes a
# log directory with mkdtemp in ${TMPDIR:-/tmp} for each agent and leaves it.

# --rdzv_conf (1.13 keys):
#   is_host=0          never host the store here: it lives in coordinator.py
#   last_call_timeout  seconds a round stays open for more agents once
#                      min_nodes have joined; coordinator.py completes it as
#                      soon as all the live agents are in, so this is the
#                      fallback for agents it does not know (3 s)
#   join_timeout       seconds an agent may wait for a rendezvous to complete
#   close_timeout      seconds to close the rendezvous at the end of the job
#   read_timeout       seconds a store operation may take
# --monitor_interval: how often the agent polls its workers and the wait list
#   (1.13 default 5 s; 0.2 s here): the delay before it notices a joining
#   agent or a failed worker.
# --max_restarts: worker group failures allowed; every shrink and preemption
#   can count as one (a membership change is not counted by torchrun, but the
#   processes that stop because a peer did exit 75, a failure).
# --redirects=1 --tee=1: 1.13 under Python 3.11 crashes starting workers with
#   the default 0 (Std.from_str("0") is None there), so stdout is redirected
#   and tee'd; train.py logs to stderr, which is passed straight through.
exec /usr/bin/python3 "$here/liveness.py" "${TORCHRUN:-/usr/bin/torchrun}" \
	--nnodes="${BF_MIN_NODES:-1}:${BF_MAX_NODES:-1}" \
	--nproc_per_node="${BF_SLOTS:-1}" \
	--rdzv_backend=c10d \
	--rdzv_endpoint="$BF_COORD" \
	--rdzv_conf="is_host=0,last_call_timeout=${BF_TORCH_LAST_CALL:-3},join_timeout=600,close_timeout=10,read_timeout=60" \
	--max_restarts=1000000 \
	--monitor_interval="${BF_TORCH_MONITOR:-0.2}" \
	--redirects=1 --tee=1 \
	"$here/train.py" "$@"
