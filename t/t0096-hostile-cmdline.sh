#!/bin/sh
# A job's command is private: job files are the service's, and the running
# shell shows 'eval "$BF_COMMAND"' (after a trap) on its command line, which every user can
# read in /proc/PID/cmdline, while the text is in its environment, which only
# its owner and root can read.  The same for a worker.
. "$(dirname "$0")/lib.sh"

test_need_root_setpriv 'a job command off the command line'

# The other uids must reach the programs and the spool: not in a checkout
# in root's 0700 home.
test_public_trash

A=4321 B=4322
trap 'kill_jobs sp' EXIT
test_expect_success 'setup: A'"'"'s job with a secret in its command and its worker' '
	mkspool sp && holes sp 1000 "n1" &&
	printf "name: s\ncommand: sleep 1000; echo secret-cmd-A\nworker: sleep 1001; echo secret-wrk-A\nmax_nodes: 1\nscaling: {1: 10}\n" \
		>s.yaml && chmod 644 s.yaml && chown $A s.yaml &&
	cp -p s.yaml sp/incoming/s.yaml &&
	bf-submit --intake -d sp 2>/dev/null &&
	bf-solve -d sp >/dev/null && bf-apply -d sp -g 1 >out &&
	grep -x "start s 0->1 n1" out &&
	wait_for 5 grep -q " running$" sp/run/s/workers
'

test_expect_success 'B sees no command text on any command line' '
	pgid=$(sed -n "s/^pgid: //p" sp/run/s/pid) &&
	wpg=$(awk "{ print \$2 }" sp/run/s/workers) &&
	for p in $pgid $wpg; do
		as $B cat /proc/$p/cmdline | tr "\0" " " >cmd && echo >>cmd &&
		cat cmd &&
		echo "/bin/sh -c trap \"trap - TERM; kill -TERM \\\$\\\$\" TERM; eval \"\$BF_COMMAND\" " >expect &&
		test_cmp expect cmd || exit 1
	done &&
	! as $B sh -c "cat /proc/[0-9]*/cmdline 2>/dev/null" | tr "\0" " " |
		grep -q "secret[-]"
'

test_expect_success 'B cannot read the environment; A and root can' '
	pgid=$(sed -n "s/^pgid: //p" sp/run/s/pid) &&
	test_must_fail as $B cat /proc/$pgid/environ &&
	as $A cat /proc/$pgid/environ | tr "\0" "\n" | grep -x "BF_COMMAND=sleep 1000; echo secret-cmd-A"
'

test_done
