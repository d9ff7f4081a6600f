#!/bin/sh
# The torch recipe's coordinator (examples/torch/coordinator.py) against a
# client that plays torch 1.13's agents through the real store and state
# (t/data/torch/coordinator-client.py: TCPStore, C10dRendezvousBackend,
# _RendezvousState by compare-and-set, the liveness handshake of bfauth):
# a rendezvous an agent closed as it failed is opened again, as a new empty
# round, once an agent registers after the closing, and not before; a round
# whose agents are all in is completed, but not within 2 s of an agent's
# disconnection (a preemption ends its agents one after another).  Both
# were seen in CI: a round completed between two agents' ends of one
# preemption, then the survivors' store timed out and closed the
# rendezvous, and every agent started after failed at once.
. "$(dirname "$0")/lib.sh"

if ! /usr/bin/python3 -c "import torch.distributed" 2>/dev/null; then
	test_skip 'the torch recipe coordinator' \
		"needs Debian's python3-torch (scripts/install-deps)"
	test_done
fi

# coordinator STEP: a coordinator of its own for the client's STEP; the
# client's lines without their times in out.STEP, the coordinator's in
# coord.STEP.
coordinator() {	# step
	_port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	_secret=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
	# (A command started with & alone: at the end of an && list, the
	# whole list would run in the background.)
	BF_SECRET=$_secret BF_COORD_PORT=$_port BF_COORD=127.0.0.1:$_port \
	BF_JOB=mlp BF_COORD_HOST=127.0.0.1 BF_MIN_NODES=1 BF_MAX_NODES=4 \
	    /usr/bin/python3 "$BF_ROOT/examples/torch/coordinator.py" \
	    2>"coord.$1" &
	_cpid=$!
	wait_for 30 grep -q "rendezvous store on port $_port" "coord.$1" &&
	BF_SECRET=$_secret timeout 60 /usr/bin/python3 \
	    "$T_DIR/data/torch/coordinator-client.py" \
	    "$BF_ROOT/examples/torch" "$_port" mlp "$1" >"raw.$1"
	_rc=$?
	kill -TERM "$_cpid" && wait "$_cpid"
	sed 's/^ *[0-9.]* //' "raw.$1" >"out.$1"
	return $_rc
}

test_expect_success 'a closed rendezvous stays closed with no new agent, and is opened as the next round, empty, when one registers' '
	coordinator reopen &&
	cat >expect <<-EOF &&
	no agent since: closed True, round 5
	an agent registered: closed False, round 6, participants 0, complete False
	EOF
	test_cmp expect out.reopen &&
	grep -q "the rendezvous was closed by an agent that exited (round 5)" coord.reopen &&
	grep -q "opened the rendezvous again: round 6" coord.reopen
'

test_expect_success 'a round of all the live agents completes, 2 s after the last disconnection and not before' '
	coordinator settle &&
	echo "round 1 complete True after 2 s from the disconnection; ranks [0, 1]" >expect &&
	test_cmp expect out.settle &&
	grep -q "completed round 1 with its 2 live agents" coord.settle
'

test_done
