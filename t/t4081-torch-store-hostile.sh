#!/bin/sh
# Another local user against the torch recipe's coordinator (issue 33, item
# 1): the real recipe (torchrun 1.13, c10d store hosted by coordinator.py)
# runs as nobody under bf-apply's local backend; a second uid reads what ps
# shows every user, connects to the job's rendezvous store, writes a pickle
# that would create a file when unpickled under every key it can name
# (torch.rendezvous.ID for the rendezvous id it can see or guess), and
# registers a fake agent on the liveness port with the old protocol and with
# a wrong proof.  Asserted: the pickle never runs (no file, so no code of the
# attacker's ran as the job's owner, in the coordinator or in an agent), the
# fake agents are refused, the job's secret appears on no command line and
# in no environment the attacker can read, the liveness port is not on every
# interface, and the job still trains after the attack.
. "$(dirname "$0")/lib.sh"

if ! test_have_root || ! command -v setpriv >/dev/null; then
	test_skip 'the torch recipe against another local user' \
		'needs root (bf-apply runs jobs as their owner) and setpriv'
	test_done
fi

OWNER=65534
EVIL=65533
W=$(mktemp -d /tmp/bf-t4081.XXXXXX)
chmod 755 "$W"
cp -R "$BF_ROOT/examples/torch" "$W/torch"
chmod -R a+rX "$W/torch"
mkdir "$W/ckpt" && chown $OWNER "$W/ckpt"
# Whoever unpickles the attacker's payload writes its uid here.
mkdir -m 1777 "$W/loot"
mkspool "$W/sp"
trap 'kill_jobs "$W/sp"; pkill -KILL -u $OWNER -f "$W" 2>/dev/null;
	pkill -KILL -u $EVIL -f "$W" 2>/dev/null; rm -rf "$W"' EXIT

cat >"$W/attack.py" <<'EOF'
# The attacker: only what any local user sees (ps) and any TCP client can do.
import base64, os, pickle, re, socket, subprocess, sys, datetime
from torch.distributed import TCPStore

loot = sys.argv[1]
args = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
ep = re.search(r"--rdzv_endpoint=(\S+):(\d+)", args)
if not ep:
    sys.exit("attack: no endpoint on any command line")
host, port = ep.group(1), int(ep.group(2))
ids = set(re.findall(r"--rdzv_id=(\S+)", args)) | {"mlp"}

class Payload:
    def __reduce__(self):
        return (os.system, (f"id -u >{loot}/ran.$$",))

bits = base64.b64encode(pickle.dumps(Payload())).decode()
store = TCPStore(host, port, is_master=False, timeout=datetime.timedelta(seconds=10))
for i in sorted(ids):
    store.set(f"torch.rendezvous.{i}", bits)
    print(f"attack: wrote torch.rendezvous.{i}")
# A fake agent, the old way: the port from the old key, "FQDN PID".
try:
    store.wait(["bftrainer/liveness"], datetime.timedelta(seconds=1))
    lport = int(store.get("bftrainer/liveness"))
    s = socket.create_connection((host, lport), timeout=5)
    s.sendall(b"evil 1\n")
    print("attack: registered a fake agent (old protocol)")
except Exception as e:
    print(f"attack: no old liveness key: {type(e).__name__}")
EOF

cat >"$W/fake-agent.py" <<'EOF'
# A fake agent with a wrong proof: refused means the connection is closed
# without "ok".
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=10)
hello = s.recv(1024)
s.sendall(b"evil 1 " + b"0" * 32 + b" " + b"0" * 64 + b"\n")
print("answer:", s.recv(1024) or b"(closed)")
EOF
chmod 644 "$W/attack.py" "$W/fake-agent.py"

apply() {
	bf-solve -d "$W/sp" >/dev/null && bf-apply -d "$W/sp" -g 10
}
reports() {
	wc -l <"$W/sp/progress/mlp.log" 2>/dev/null || echo 0
}
more_reports() {	# than
	[ "$(reports)" -gt "$1" ]
}
looted_or_reported() {	# reports
	[ -n "$(ls -A "$W/loot")" ] || more_reports "$1"
}
coord_pid() {
	pgrep -u $OWNER -f "coordinator.py" | head -1
}

test_expect_success 'nobody runs the recipe on one host; it trains' '
	sed -e "s|@EXAMPLES@|$W|" -e "s|@CHECKPOINT@|$W/ckpt|" \
	    -e "s|^max_nodes: .*|max_nodes: 1|" -e "s|^samples: .*|samples: 100000000|" \
	    "$W/torch/mlp.yaml" >"$W/mlp.yaml" && chmod 644 "$W/mlp.yaml" &&
	as $OWNER cp "$W/mlp.yaml" "$W/sp/incoming/mlp.yaml" &&
	bf-submit --intake -d "$W/sp" 2>/dev/null &&
	holes "$W/sp" 1000 "n1" &&
	apply >out && grep -x "start mlp 0->1 n1" out &&
	wait_for 120 more_reports 0 || { cat "$W/sp/run/mlp/output"; exit 1; }
'

test_expect_success 'another user writes a pickle into every key it can name: it never runs' '
	as $EVIL env HOME=/ /usr/bin/python3 "$W/attack.py" "$W/loot" >attack.out 2>&1;
	cat attack.out &&
	grep -q "^attack: wrote torch.rendezvous.mlp" attack.out &&
	n=$(reports) &&
	# The coordinator reads the state every 0.1 s, the agent every second;
	# two reports later both have read it many times.
	{ wait_for 60 looted_or_reported $((n + 1)) || true; } &&
	ls -la "$W/loot" && cat "$W"/loot/* 2>/dev/null;
	test -z "$(ls -A "$W/loot")" && alive "$(coord_pid)"
'

test_expect_success 'the old liveness protocol and a wrong proof are refused' '
	! grep -q "registered a fake agent" attack.out &&
	lport=$(sed -n "s/.*liveness port \([0-9]*\) on .*/\1/p" "$W/sp/run/mlp/output" | head -1) &&
	laddr=$(sed -n "s/.*liveness port [0-9]* on \(.*\)$/\1/p" "$W/sp/run/mlp/output" | head -1) &&
	test -n "$lport" && echo "liveness on $laddr port $lport" &&
	as $EVIL /usr/bin/python3 "$W/fake-agent.py" "$laddr" "$lport" >fake.out 2>&1;
	cat fake.out && grep -qx "answer: b.(closed)." fake.out &&
	wait_for 10 grep -q "refused liveness connection .*wrong proof" "$W/sp/run/mlp/output" &&
	grep -c "registered from" "$W/sp/run/mlp/output" >n && test "$(cat n)" -eq 1
'

test_expect_success 'the liveness port is on the coordinator host'"'"'s address, not every interface' '
	ss -Hltn "sport = :$(sed -n "s/.*liveness port \([0-9]*\) on .*/\1/p" "$W/sp/run/mlp/output" | head -1)" >ss.out &&
	cat ss.out && test -s ss.out &&
	! grep -E "(0\.0\.0\.0|\*|\[::\]):[0-9]" ss.out
'

test_expect_success 'the secret is on no command line and in no environment the attacker reads' '
	pid=$(coord_pid) && test -n "$pid" &&
	secret=$(tr "\0" "\n" <"/proc/$pid/environ" | sed -n "s/^BF_SECRET=//p") &&
	test ${#secret} -eq 32 &&
	as $EVIL ps -eo args >ps.out && ! grep -F "$secret" ps.out &&
	! grep -e "--rdzv_id" ps.out &&
	for p in $(pgrep -u $OWNER -f "$W"); do
		! as $EVIL cat "/proc/$p/environ" >/dev/null 2>&1 || exit 1
	done &&
	! grep -rF "$secret" "$W/sp"
'

test_expect_success 'the job still trains, then stops when its holes go' '
	n=$(reports) &&
	wait_for 60 more_reports $n &&
	holes "$W/sp" 1001 &&
	apply >out; cat out && grep "^stop mlp 1->0" out
'

test_done
