# t/lib-slurm.sh - a private Slurm 22.05 for the t8 tests, sourced after lib.sh
# in the test script's own shell (never inside a test body: the daemons must
# be children of this shell, so that it can reap them).
#
#	if slurm_usable; then slurm_start || ...; fi	(else $slurm_why)
#	slurm_wait_idle [SECS]	all 8 nodes idle in partition main
#	slurm_wait SECS CMD...	until CMD succeeds, at most SECS seconds
#	slurm_stop_ctld		stop slurmctld alone (the controller gone)
#	slurm_start_ctld	start it again, same config and state; waits
#				for scontrol ping
#	slurm_message_timeout SECS	the clients' MessageTimeout (5)
#	slurm_stop		cancel every job, stop every daemon by pid
#				(SLURM_KEEP=1, or a failure, keeps the logs)
#
# slurm_start runs, as root, everything under a temporary directory
# $SLURM_DIR and on 127.0.0.1 only: munged with its own key and socket,
# slurmctld and eight `slurmd -D -N nX` (NodeName=n[1-8] NodeHostname=localhost
# NodeAddr=127.0.0.1, one Port each), all in the foreground as children of
# this shell, on ports found free ($SLURM_CTLD_PORT, then one per node).
# The scheduler (sched/backfill, here with bf_interval=1), preemption
# (preempt/partition_prio) and the partitions main and bf over all nodes are
# the lines of examples/slurm/slurm.conf, so the tests check the example.
# SLURM_CONF is exported, so sinfo, squeue, sbatch, scancel and scontrol
# talk to this cluster.  An EXIT trap stops everything, so a failing test
# leaves nothing running.
#
# This machine's init reaps no orphans, and slurmd double-forks every
# slurmstepd; so, where perl can call prctl(2), the script re-executes
# itself once as a child subreaper (PR_SET_CHILD_SUBREAPER) and the shell
# reaps the steps it inherits.  slurm_stop checks /proc/PID/status of every
# daemon afterwards: none may be left running or a zombie.

SLURM_NODES=8
SLURM_DIR=""
SLURM_PIDS=""		# "name:pid ..." in start order
SLURM_CTLD_PID=""
slurm_why=""

# Re-executes the test script as a subreaper (once; BF_SUBREAPER marks it).
if [ "$(id -u)" -eq 0 ] && [ -z "${BF_SUBREAPER:-}" ] &&
    command -v perl >/dev/null 2>&1; then
	case $(uname -m) in
	x86_64) _sr_nr=157 ;;
	aarch64) _sr_nr=167 ;;
	*) _sr_nr="" ;;
	esac
	if [ -n "$_sr_nr" ]; then
		BF_SUBREAPER=1
		export BF_SUBREAPER
		exec perl -e 'syscall('"$_sr_nr"', 36, 1, 0, 0, 0) == 0 or
		    warn "prctl(PR_SET_CHILD_SUBREAPER): $!\n"; exec @ARGV or
		    die "exec: $!\n"' /bin/sh "$T_DIR/$TEST_NAME.sh" "$@"
	fi
fi

slurm_usable() {
	if ! test_have_root; then
		slurm_why="needs root to run slurmctld and slurmd; CI runs it as root"
		return 1
	fi
	for _su_p in slurmctld slurmd munged sinfo squeue sbatch scontrol; do
		if ! PATH="$PATH:/usr/sbin:/sbin" command -v $_su_p >/dev/null 2>&1; then
			slurm_why="$_su_p not installed (scripts/install-deps: slurm-wlm munge)"
			return 1
		fi
	done
	return 0
}

slurm_wait() {	# secs command...
	_sw_n=$(($1 * 5))
	shift
	while [ "$_sw_n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.2
		_sw_n=$((_sw_n - 1))
	done
	echo "slurm_wait: timed out waiting for: $*" >&2
	return 1
}

# True when no TCP socket of this machine uses port $1.
_slurm_port_free() {
	if command -v ss >/dev/null 2>&1; then
		! ss -Htan 2>/dev/null | awk '{ print $4 }' | grep -q ":$1\$"
	else
		return 0
	fi
}

# Sets SLURM_CTLD_PORT: a base with it and the next $SLURM_NODES ports free,
# and reserves them.  Two Slurm tests may run at once (t/testrules.yml):
# each reserves its range in $SLURM_PORTS_DIR (a file named after the base,
# holding this shell's pid), under a lock, so that the other, choosing
# before these daemons bind or while slurmctld is stopped for a restart,
# never takes one of them.  A reservation whose shell is gone is stale.
SLURM_PORTS_DIR=/tmp/bf-slurm-ports
_slurm_port_reserved() {	# port: reserved by a live shell other than this one
	for _pr_f in "$SLURM_PORTS_DIR"/[0-9]*; do
		[ -f "$_pr_f" ] || continue
		_pr_b=${_pr_f##*/}
		[ "$1" -ge "$_pr_b" ] && [ "$1" -le $((_pr_b + SLURM_NODES)) ] ||
			continue
		_pr_pid=$(cat "$_pr_f" 2>/dev/null)
		[ -n "$_pr_pid" ] && [ "$_pr_pid" != $$ ] &&
			kill -0 "$_pr_pid" 2>/dev/null && return 0
	done
	return 1
}
_slurm_ports() {
	mkdir -p "$SLURM_PORTS_DIR" || return 1
	exec 9>>"$SLURM_PORTS_DIR/lock" && flock 9 || return 1
	_sp_try=0
	_sp_base=$((20000 + ($$ * 37) % 9000))
	while [ "$_sp_try" -lt 50 ]; do
		_sp_ok=1
		_sp_i=0
		while [ "$_sp_i" -le "$SLURM_NODES" ]; do
			if ! _slurm_port_free $((_sp_base + _sp_i)) ||
			    _slurm_port_reserved $((_sp_base + _sp_i)); then
				_sp_ok=0
				break
			fi
			_sp_i=$((_sp_i + 1))
		done
		if [ "$_sp_ok" = 1 ]; then
			SLURM_CTLD_PORT=$_sp_base
			echo $$ >"$SLURM_PORTS_DIR/$_sp_base"
			exec 9>&-
			return 0
		fi
		_sp_base=$((20000 + (_sp_base - 20000 + 211) % 9000))
		_sp_try=$((_sp_try + 1))
	done
	exec 9>&-
	echo "lib-slurm: no free ports" >&2
	return 1
}

_slurm_conf() {
	cat <<EOT
# written by t/lib-slurm.sh for one test run
ClusterName=bftest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$SLURM_CTLD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SLURM_DIR/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool/%n
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd-%n.pid
SlurmctldLogFile=$SLURM_DIR/slurmctld.log
SlurmdLogFile=$SLURM_DIR/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
SlurmdParameters=config_overrides
SlurmdTimeout=10
MessageTimeout=5
InactiveLimit=0
MinJobAge=300
KillWait=2
EOT
	_sc_i=1
	while [ "$_sc_i" -le "$SLURM_NODES" ]; do
		echo "NodeName=n$_sc_i NodeHostname=localhost NodeAddr=127.0.0.1" \
		    "Port=$((SLURM_CTLD_PORT + _sc_i)) CPUs=4 RealMemory=1000 State=UNKNOWN"
		_sc_i=$((_sc_i + 1))
	done
	# The scheduler, preemption and partitions of the example a site
	# merges, as they are, but for a backfill plan every second.
	grep -v -e '^#' -e '^[[:space:]]*$' "$BF_ROOT/examples/slurm/slurm.conf" |
	    sed 's/^SchedulerParameters=.*/SchedulerParameters=bf_interval=1,bf_resolution=60/'
}

_slurm_all_idle() {
	[ "$(sinfo -h -N -p main -t idle -o %N 2>/dev/null | wc -l)" -eq "$SLURM_NODES" ]
}

slurm_wait_idle() {	# [secs]
	slurm_wait "${1:-30}" _slurm_all_idle
}

slurm_start() {
	PATH="$PATH:/usr/sbin:/sbin"
	SLURM_DIR=$(mktemp -d /tmp/bf-slurm.XXXXXX) && chmod 755 "$SLURM_DIR" || return 1
	SLURM_CONF=$SLURM_DIR/slurm.conf
	export SLURM_CONF PATH
	trap slurm_stop EXIT
	trap 'exit 1' HUP INT TERM
	_slurm_ports || return 1
	mkdir -p "$SLURM_DIR/state" "$SLURM_DIR/spool" "$SLURM_DIR/munge" &&
	chmod 755 "$SLURM_DIR/munge" &&
	dd if=/dev/urandom of="$SLURM_DIR/munge/munge.key" bs=1024 count=1 \
	    2>/dev/null &&
	chmod 400 "$SLURM_DIR/munge/munge.key" || return 1
	_slurm_conf >"$SLURM_CONF" || return 1

	munged -F --force --socket="$SLURM_DIR/munge/munge.sock" \
	    --key-file="$SLURM_DIR/munge/munge.key" \
	    --pid-file="$SLURM_DIR/munge/munged.pid" \
	    --log-file="$SLURM_DIR/munge/munged.log" \
	    --seed-file="$SLURM_DIR/munge/munged.seed" \
	    </dev/null >"$SLURM_DIR/munged.out" 2>&1 &
	SLURM_PIDS="munged:$!"
	slurm_wait 10 test -S "$SLURM_DIR/munge/munge.sock" || return 1
	slurmctld -D -i -f "$SLURM_CONF" </dev/null >"$SLURM_DIR/slurmctld.out" 2>&1 &
	SLURM_PIDS="$SLURM_PIDS slurmctld:$!"
	SLURM_CTLD_PID=$!
	slurm_wait 15 scontrol ping >/dev/null 2>&1 || return 1
	_ss_i=1
	while [ "$_ss_i" -le "$SLURM_NODES" ]; do
		slurmd -D -N "n$_ss_i" -f "$SLURM_CONF" </dev/null \
		    >"$SLURM_DIR/slurmd-n$_ss_i.out" 2>&1 &
		SLURM_PIDS="$SLURM_PIDS slurmd-n$_ss_i:$!"
		_ss_i=$((_ss_i + 1))
	done
	if ! slurm_wait_idle 30; then
		sinfo -N >&2
		tail -20 "$SLURM_DIR/slurmctld.log" >&2
		return 1
	fi
}

# Stops one daemon: TERM, up to 10 s for it to end, then KILL (t/lib.sh).
_slurm_kill() {	# name pid
	daemon_kill lib-slurm "$1" "$2" 10
}

# The pids of the slurmstepd processes this shell inherited as subreaper,
# and of all their descendants (zombies included).
_slurm_steps() {
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v root=$$ '
	{
		comm = $0; sub(/^[^(]*\(/, "", comm); sub(/\)[^)]*$/, "", comm)
		rest = $0; sub(/^.*\) /, "", rest); split(rest, f, " ")
		pp[$1] = f[2]
		if (f[2] == root && comm ~ /^slurmstepd/) { want[$1] = 1 }
	}
	END {
		do {
			more = 0
			for (p in pp)
				if (!(p in want) && (pp[p] in want)) { want[p] = 1; more = 1 }
		} while (more)
		for (p in want) printf "%s ", p
	}'
}

slurm_stop_ctld() {
	_slurm_kill slurmctld "$SLURM_CTLD_PID"
}

# The controller back after slurm_stop_ctld: the same config, the jobs of
# its saved state; its pid takes the old one's place in SLURM_PIDS.
slurm_start_ctld() {
	[ -n "$SLURM_DIR" ] || return 1
	if [ -n "$SLURM_CTLD_PID" ] && [ -d "/proc/$SLURM_CTLD_PID" ]; then
		echo "lib-slurm: slurmctld (pid $SLURM_CTLD_PID) still runs" >&2
		return 1
	fi
	slurmctld -D -i -f "$SLURM_CONF" </dev/null >>"$SLURM_DIR/slurmctld.out" 2>&1 &
	SLURM_CTLD_PID=$!
	SLURM_PIDS=$(echo "$SLURM_PIDS" |
	    sed "s/slurmctld:[0-9]*/slurmctld:$SLURM_CTLD_PID/")
	slurm_wait 15 scontrol ping >/dev/null 2>&1
}

# MessageTimeout in slurm.conf, which every Slurm command reads when it
# starts; the daemons read it only when they start.  While slurmctld is
# gone, a command tries to connect for MessageTimeout - 1 seconds before
# it fails (4 s with the 5 of _slurm_conf); a test that stops the
# controller may make its clients give up sooner meanwhile, and must put
# the 5 back before slurm_start_ctld, so that the controller reads the
# configuration the nodes run with.  The file is replaced by rename: a
# command never reads half of it.
slurm_message_timeout() {	# secs
	sed "s/^MessageTimeout=.*/MessageTimeout=$1/" "$SLURM_CONF" \
	    >"$SLURM_CONF.new" && mv "$SLURM_CONF.new" "$SLURM_CONF" &&
	grep -qx "MessageTimeout=$1" "$SLURM_CONF"
}

slurm_stop() {
	_st_rc=0
	[ -n "$SLURM_DIR" ] || return 0
	if [ -n "$SLURM_CTLD_PID" ] && [ -d "/proc/$SLURM_CTLD_PID" ]; then
		scancel -u root >/dev/null 2>&1
		slurm_wait 15 sh -c '[ -z "$(squeue -h -o %i 2>/dev/null)" ]' ||
		    _st_rc=1
	fi
	# In the reverse order of their start: nodes, controller, munged.
	for _st_e in $(echo "$SLURM_PIDS" |
	    awk '{ for (i = NF; i > 0; i--) print $i }'); do
		_slurm_kill "${_st_e%%:*}" "${_st_e#*:}" || _st_rc=1
	done
	# Steps (and their jobs) the subreaper inherited from slurmd: they end
	# with their jobs; any still there (the controller was gone, so no
	# job could be cancelled) are killed by pid.  Waiting on sleep lets
	# the shell reap them.
	_st_left=$(_slurm_steps)
	if [ -n "$_st_left" ]; then
		kill -KILL $_st_left 2>/dev/null
		_st_n=25
		while [ "$_st_n" -gt 0 ] && [ -n "$(_slurm_steps)" ]; do
			sleep 0.2
			_st_n=$((_st_n - 1))
		done
	fi
	_st_left=$(_slurm_steps)
	if [ -n "$_st_left" ]; then
		echo "lib-slurm: job steps left behind: $_st_left" >&2
		_st_rc=1
	fi
	# The ports are free again: the reservation goes.
	[ -n "${SLURM_CTLD_PORT:-}" ] &&
		rm -f "$SLURM_PORTS_DIR/$SLURM_CTLD_PORT"
	if [ "$_st_rc" -eq 0 ] && [ -z "${SLURM_KEEP:-}" ]; then
		rm -rf "$SLURM_DIR"
	else
		echo "lib-slurm: logs kept in $SLURM_DIR" >&2
	fi
	SLURM_DIR=""
	SLURM_PIDS=""
	trap - EXIT
	return "$_st_rc"
}

# The last test of a Slurm script: stop the cluster, then check that every
# daemon is gone by pid (neither running nor a zombie) and no step is left.
test_slurm_stop() {	# title
	_stop_pids=$(echo $SLURM_PIDS | tr ' ' '\n' | sed 's/.*://')
	slurm_stop 2>"$TRASH/stop.err"
	_stop_rc=$?
	test_expect_success "$1" '
		cat "$TRASH/stop.err" && test $_stop_rc = 0 &&
		test $(echo "$_stop_pids" | wc -l) = 10 &&
		for p in $_stop_pids; do
			test ! -e /proc/$p || { cat /proc/$p/status; exit 1; }
		done &&
		test -z "$(_slurm_steps)"
	'
}

# Where no private Slurm can run: every test the script plans is reported
# as skipped with the reason, then the plan.  TITLES: one title a line.
test_slurm_skip_all() {	# titles
	while IFS= read -r _title; do
		[ -n "$_title" ] && test_skip "$_title" "$slurm_why"
	done <<EOT
$1
EOT
	test_done
}

# The pilot-name prefix bf-apply gives a spool's pilots, worked out here
# from its definition (bf-apply(1)): bf-, 8 hex digits of the XXH3 of the
# spool's real path, -.
slurm_pilot_tag() {	# spool
	printf 'bf-%s-' "$(printf %s "$(cd "$1" && pwd -P)" | xxhsum -H3 |
		sed 's/.* = //; s/^\(........\).*/\1/')"
}

# The pilots whose name starts with $TAG: "ID NAME NODE STATE", by id.
pilots() {
	squeue -h -o '%i %j %N %T' | awk -v p="$TAG" 'index($2, p) == 1' |
		sort -n
}

