#!/bin/sh
# A job's processes that leave its process group and session (setsid, a
# double fork, nohup) end with the job: its supervisor is a child subreaper,
# so they stay in its tree, and it kills the tree when the job is over.  The
# user's other processes, started outside bftrainer, are left alone.
. "$(dirname "$0")/lib.sh"

test_need_root_setpriv 'a job that escapes its process group'

# The other uids must reach the programs and the spool: not in a checkout
# in root's 0700 home.
test_public_trash

A=4321
X=$(mktemp -d /tmp/bf-t0094.XXXXXX)
chmod 755 "$X"
cat >"$X/escape.sh" <<'EOT'
#!/bin/sh
# setsid: a new session; ( ... &) : a double fork, re-parented; nohup.
setsid sleep 10941 &
( sleep 10942 & )
nohup sleep 10943 >/dev/null 2>&1 &
echo escaped
exec sleep 1000
EOT
chmod 755 "$X/escape.sh"
# A chain: each process starts a session, and once its parent is gone (it
# is re-parented) forks a successor, then lives on; killed a generation at
# a time, it outlives any number of rounds (issue #33, item 4).
cat >"$X/chain.py" <<'EOT'
import os, sys, time
def successor():
    if os.fork() == 0:
        os.setsid()
        parent = os.getppid()
        while os.getppid() == parent:
            time.sleep(0.001)
        successor()
        while True:
            time.sleep(1)
successor()
print("chained", flush=True)
while True:
    time.sleep(1)
EOT
chmod 644 "$X/chain.py"
trap 'kill_jobs sp; kill_jobs sp2; pkill -KILL -u $A -f "^sleep 1094[1-9]" 2>/dev/null; pkill -KILL -u $A -f "chain.py 10944" 2>/dev/null; rm -rf "$X"' EXIT

escaped() {	# count of the job's escaped processes
	pgrep -u $A -f "^sleep 1094[1-9]" | wc -l
}

# One of the user's own processes, not the job's: it must be left alone.
setpriv --reuid=$A --regid=$A --clear-groups sleep 10949 &

test_expect_success 'a job whose processes escape its group: all end when it is stopped' '
	mkspool sp && holes sp 1000 "n1" &&
	printf "name: esc\ncommand: exec %s\nmax_nodes: 1\nscaling: {1: 10}\n" \
		"$X/escape.sh" >"$X/esc.yaml" && chmod 644 "$X/esc.yaml" &&
	setpriv --reuid=$A --regid=$A --clear-groups bf-submit -d sp "$X/esc.yaml" 2>/dev/null &&
	bf-submit --intake -d sp 2>/dev/null &&
	bf-solve -d sp >/dev/null && bf-apply -d sp -g 1 >out &&
	wait_for 5 grep -q escaped sp/run/esc/output &&
	wait_for 5 eval "test \$(escaped) = 4" &&
	sid=$(ps -o sid= -p $(pgrep -u $A -f "^sleep 10941")) &&
	pgid=$(sed -n "s/^pgid: //p" sp/run/esc/pid) &&
	test "$sid" != "$pgid" &&
	holes sp 1001 "" &&
	bf-solve -d sp >/dev/null && bf-apply -d sp -g 1 >out &&
	grep -x "stop esc 1->0 plan" out &&
	wait_for 5 eval "test \$(escaped) = 1" &&
	pgrep -u $A -f "^sleep 10949"
'

chained() {	# count of the chain's processes
	pgrep -u $A -f "chain.py 10944" | wc -l
}

test_expect_success 'a chain that forks a successor whenever re-parented: all of it ends at the stop' '
	mkspool sp2 &&
	printf "name: chn\ncommand: exec python3 %s 10944\nmax_nodes: 1\nscaling: {1: 10}\n" \
		"$X/chain.py" >"$X/chn.yaml" && chmod 644 "$X/chn.yaml" &&
	setpriv --reuid=$A --regid=$A --clear-groups bf-submit -d sp2 "$X/chn.yaml" 2>/dev/null &&
	bf-submit --intake -d sp2 2>/dev/null &&
	holes sp2 1002 "n1" && bf-solve -d sp2 >/dev/null && bf-apply -d sp2 -g 1 >out &&
	wait_for 5 grep -q chained sp2/run/chn/output &&
	wait_for 5 eval "test \$(chained) -ge 2" &&
	holes sp2 1003 "" && bf-solve -d sp2 >/dev/null && bf-apply -d sp2 -g 1 >out &&
	grep -x "stop chn 1->0 plan" out &&
	sleep 1 && test $(chained) = 0 && sleep 2 && test $(chained) = 0 &&
	pgrep -u $A -f "^sleep 10949"
'

test_done
