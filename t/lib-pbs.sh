# t/lib-pbs.sh - a private OpenPBS for the t8 tests, sourced after lib.sh in
# the test script's own shell (never inside a test body), as t/lib-slurm.sh
# is for Slurm.
#
#	if pbs_usable; then pbs_start || ...; fi	(else $pbs_why)
#	pbs_wait SECS CMD...	until CMD succeeds, at most SECS seconds
#	pbs_wait_free [SECS]	all $PBS_NODES nodes free
#	pbs_as CMD...		CMD as $PBS_USER (uid, gid, groups, HOME)
#	pbs_stop		delete every job, stop every daemon by pid
#				(PBS_KEEP=1, or a failure, keeps the logs)
#	test_pbs_stop TITLE	the last case: pbs_stop, and every daemon gone
#	bfq			queue bf: "ID NAME OWNER STATE NODE" lines
#	tasks ID NODE		how many tasks job ID has on NODE's mom
#	main_on NODE		a workq job of $PBS_USER there; its id
#	job_running ID		job ID runs (substate 42)
#
# OpenPBS is built once per machine from the vendored tarball,
# $BF_ROOT/../shared/vendor/openpbs-*.tar.gz (in CI the shared folder is
# copied beside the checkout), by scripts/openpbs-build into a cache outside
# the checkout (/var/cache/bftrainer/openpbs-DIGEST/pbs, $PBS_EXEC); a first
# run builds it (3 to 7 minutes), later ones find it.
#
# pbs_start runs, as root, everything under a temporary directory $PBS_DIR
# and on the loopback address of this host's name: pbs_comm, pbs_server
# with its PostgreSQL datastore, pbs_sched, and $PBS_NODES pbs_mom, each its
# own PBS_HOME ($PBS_DIR/momI), ports 15011+2i and the manager port one
# above, a node nI (I from 1) created with resources_available.host=nI and
# one CPU.  The server's PBS_HOME is copied from a template made once by
# pbs_habitat and kept beside the build (openpbs-DIGEST/home.template):
# that saves the datastore's initdb at every start.  The server, queues and
# scheduler are set by examples/pbs/bftrainer.qmgr as it is, and by the
# sched_config lines examples/pbs/README.md tells a site to add, so the tests
# check the example; workq is the main queue.  The user $PBS_USER (bfpbs),
# created if missing, is in group bftrainer (the queue's acl_groups).
# PBS_CONF_FILE and PATH are exported, so qsub, qstat, qdel, qsig, pbsnodes
# and pbs_rstat talk to this server.  OpenPBS's ports are fixed (15001,
# 15004, 15007, 17001): one such cluster per machine at a time, so
# pbs_usable takes /tmp/bf-openpbs.lock (flock, for the whole test) and a
# second PBS test waits there for the first to end; t/testrules.yml lists
# t8085 where it starts as t8080 ends.
#
# Workers reach their node's pilot as a site's ssh does: bf-apply runs
# "ssh ... NODE pbs_attach -j ID CMD"; on one host $PBS_DIR/bin/ssh stands
# in for ssh alone: it runs the remote command line with /bin/sh in a new
# session (as sshd does) with PBS_CONF_FILE naming NODE's mom, so that
# pbs_attach attaches to that node's mom.  Everything else is OpenPBS.
#
# The daemons fork themselves into the background; their pids come from
# their lock files, checked against /proc/PID/exe.  As lib-slurm.sh does,
# the script re-executes itself as a child subreaper, so that the daemons
# are this shell's children and are reaped when stopped.

PBS_NODES=4
PBS_USER=bfpbs
PBS_DIR=""
PBS_EXEC=""
PBS_PIDS=""		# "name:pid ..." of every daemon, in start order
pbs_why=""

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

# True when OpenPBS can run here; else false with $pbs_why.  In CI (CI=true)
# the caller must fail, not skip: test_pbs_skip_all does.
pbs_usable() {
	if ! test_have_root; then
		pbs_why="needs root to run pbs_server and pbs_mom; CI runs it as root"
		return 1
	fi
	if ! PBS_EXEC=$("$BF_ROOT/scripts/openpbs-build" -n 2>/dev/null); then
		if ! ls "$BF_ROOT"/../shared/vendor/openpbs-*.tar.gz >/dev/null 2>&1; then
			pbs_why="no OpenPBS: not built here, and no source tarball in $BF_ROOT/../shared/vendor/ (CI copies the shared folder beside the checkout)"
			return 1
		fi
		echo "# lib-pbs: building OpenPBS once for this machine (scripts/openpbs-build)"
		if ! "$BF_ROOT/scripts/openpbs-build" >/dev/null 2>"$TRASH/openpbs-build.log" ||
		    ! PBS_EXEC=$("$BF_ROOT/scripts/openpbs-build" -n); then
			sed 's/^/# /' "$TRASH/openpbs-build.log"
			pbs_why="scripts/openpbs-build failed"
			return 1
		fi
	fi
	PBS_EXEC=$(echo "$PBS_EXEC" | tail -1)
	_pu_pg=$(pg_config --bindir 2>/dev/null)
	if [ ! -x "$_pu_pg/initdb" ] || ! id postgres >/dev/null 2>&1; then
		pbs_why="PostgreSQL server not installed (scripts/install-deps: postgresql)"
		return 1
	fi
	if ! getent hosts "$(hostname -s)" >/dev/null; then
		pbs_why="host name $(hostname -s) does not resolve"
		return 1
	fi
	# One private OpenPBS at a time on this machine, whatever the
	# checkout (its ports are fixed): a test that finds another's
	# running waits for it to end, up to 15 minutes, rather than skip.
	# The lock is this shell's fd 8, closed for the daemons it starts.
	exec 8>>/tmp/bf-openpbs.lock
	if ! flock -w 900 8; then
		pbs_why="another OpenPBS test held /tmp/bf-openpbs.lock for 15 minutes"
		return 1
	fi
	for _pu_p in 15001 15004 15007 17001 15011 15012; do
		if ss -Hltn 2>/dev/null | awk '{ print $4 }' | grep -q ":$_pu_p\$"; then
			pbs_why="TCP port $_pu_p in use (another PBS running?)"
			return 1
		fi
	done
	return 0
}

pbs_wait() {	# secs command...
	_pw_n=$(($1 * 10))
	shift
	while [ "$_pw_n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		_pw_n=$((_pw_n - 1))
	done
	echo "pbs_wait: timed out waiting for: $*" >&2
	return 1
}

_pbs_all_free() {
	[ "$(pbsnodes -av 2>/dev/null | grep -c '^ *state = free$')" -eq "$PBS_NODES" ]
}

pbs_wait_free() {	# [secs]
	pbs_wait "${1:-30}" _pbs_all_free
}

# The user's identity as PBS needs it: its uid, gid and groups (bftrainer),
# HOME, USER.
pbs_as() {	# command...
	setpriv --reuid="$PBS_USER" --regid="$PBS_USER" --init-groups \
	    env HOME="$(getent passwd "$PBS_USER" | cut -d: -f6)" \
	    USER="$PBS_USER" LOGNAME="$PBS_USER" "$@"
}

# The pid in lock file $1 if that process runs program $2.
_pbs_lockpid() {	# file exe
	[ -r "$1" ] || return 1
	_pl_p=$(head -1 "$1" | tr -dc 0-9)
	[ -n "$_pl_p" ] && [ -d "/proc/$_pl_p" ] || return 1
	[ "$(readlink "/proc/$_pl_p/exe")" = "$2" ] || return 1
	echo "$_pl_p"
}

_pbs_user() {
	getent group bftrainer >/dev/null || groupadd bftrainer || return 1
	if ! id "$PBS_USER" >/dev/null 2>&1; then
		useradd -m -s /bin/sh -G bftrainer "$PBS_USER" || return 1
	fi
	id -nG "$PBS_USER" | tr ' ' '\n' | grep -qx bftrainer ||
	    usermod -a -G bftrainer "$PBS_USER"
}

pbs_start() {
	_ps_t0=$(date +%s.%N)
	PBS_HOST=$(hostname -s)
	PBS_DIR=$(mktemp -d /tmp/bf-pbs.XXXXXX) && chmod 755 "$PBS_DIR" || return 1
	PBS_CONF_FILE=$PBS_DIR/pbs.conf
	PATH="$PBS_DIR/bin:$PBS_EXEC/bin:$PATH"
	export PBS_CONF_FILE PATH PBS_EXEC
	trap pbs_stop EXIT
	trap 'exit 1' HUP INT TERM
	_pbs_user || return 1
	_ps_s=$PBS_DIR/server
	cat >"$PBS_CONF_FILE" <<EOT
PBS_EXEC=$PBS_EXEC
PBS_HOME=$_ps_s
PBS_SERVER=$PBS_HOST
PBS_START_SERVER=1
PBS_START_SCHED=1
PBS_START_COMM=1
PBS_START_MOM=0
PBS_LOG_HIGHRES_TIMESTAMP=1
EOT
	# The server's PBS_HOME with its datastore: from the template, or made
	# by pbs_habitat (initdb, pbs_server -t create, ~8 s) and kept.
	_ps_tpl=${PBS_EXEC%/pbs}/home.template
	if [ -d "$_ps_tpl/datastore/base" ]; then
		cp -a "$_ps_tpl" "$_ps_s" || return 1
	else
		PBS_DATA_SERVICE_USER=postgres "$PBS_EXEC/libexec/pbs_habitat" \
		    >"$PBS_DIR/habitat.log" 2>&1 8>&- || { cat "$PBS_DIR/habitat.log" >&2; return 1; }
		[ -d "$_ps_s/datastore/base" ] || { cat "$PBS_DIR/habitat.log" >&2; return 1; }
		rm -rf "$_ps_tpl.new" && cp -a "$_ps_s" "$_ps_tpl.new" &&
		    mv "$_ps_tpl.new" "$_ps_tpl"
	fi
	# The scheduler lines of examples/pbs/README.md, step 1.
	printf 'strict_ordering: True\tALL\n' >>"$_ps_s/sched_priv/sched_config"
	sed -i 's/^preemptive_sched:.*/preemptive_sched: True\tALL/' \
	    "$_ps_s/sched_priv/sched_config"
	"$PBS_EXEC/sbin/pbs_comm" >"$PBS_DIR/comm.out" 2>&1 8>&- &&
	"$PBS_EXEC/sbin/pbs_sched" >"$PBS_DIR/sched.out" 2>&1 8>&- &&
	"$PBS_EXEC/sbin/pbs_server" >"$PBS_DIR/server.out" 2>&1 8>&- || {
		cat "$PBS_DIR"/*.out >&2
		return 1
	}
	pbs_wait 30 qstat -B >/dev/null 2>&1 || return 1
	_pbs_pids
	: >"$PBS_DIR/nodes"
	mkdir -m 755 "$PBS_DIR/bin"
	_ps_i=1
	while [ "$_ps_i" -le "$PBS_NODES" ]; do
		_ps_h=$PBS_DIR/mom$_ps_i
		_ps_port=$((15011 + 2 * (_ps_i - 1)))
		mkdir -p "$_ps_h/mom_priv/jobs" "$_ps_h/mom_priv/hooks/tmp" \
		    "$_ps_h/mom_logs" "$_ps_h/spool" "$_ps_h/undelivered" \
		    "$_ps_h/aux" "$_ps_h/checkpoint" &&
		chmod 751 "$_ps_h/mom_priv" "$_ps_h/mom_priv/jobs" &&
		chmod 750 "$_ps_h/mom_priv/hooks" "$_ps_h/mom_priv/hooks/tmp" &&
		chmod 1777 "$_ps_h/spool" "$_ps_h/undelivered" &&
		chmod 700 "$_ps_h/checkpoint" || return 1
		printf 'PATH=/bin:/usr/bin\nPBS_EXEC=%s\nPBS_CONF_FILE=%s\n' \
		    "$PBS_EXEC" "$PBS_DIR/pbs.conf.n$_ps_i" >"$_ps_h/pbs_environment"
		printf '$clienthost %s\n$usecp *:/ /\n' "$PBS_HOST" \
		    >"$_ps_h/mom_priv/config"
		cat >"$PBS_DIR/pbs.conf.n$_ps_i" <<EOT
PBS_EXEC=$PBS_EXEC
PBS_HOME=$_ps_h
PBS_SERVER=$PBS_HOST
PBS_START_SERVER=0
PBS_START_SCHED=0
PBS_START_COMM=0
PBS_START_MOM=1
PBS_MOM_SERVICE_PORT=$_ps_port
PBS_MANAGER_SERVICE_PORT=$((_ps_port + 1))
PBS_MOM_NODE_NAME=n$_ps_i
PBS_LOG_HIGHRES_TIMESTAMP=1
EOT
		PBS_CONF_FILE=$PBS_DIR/pbs.conf.n$_ps_i "$PBS_EXEC/sbin/pbs_mom" \
		    >"$PBS_DIR/mom$_ps_i.out" 2>&1 8>&- || { cat "$PBS_DIR/mom$_ps_i.out" >&2; return 1; }
		qmgr -c "create node n$_ps_i Mom=$PBS_HOST,port=$_ps_port,resources_available.host=n$_ps_i,resources_available.ncpus=1" ||
		    return 1
		echo "n$_ps_i" >>"$PBS_DIR/nodes"
		_ps_i=$((_ps_i + 1))
	done
	_pbs_pids
	# The site's settings, as the example gives them; mail off.
	qmgr <"$BF_ROOT/examples/pbs/bftrainer.qmgr" >"$PBS_DIR/qmgr.out" 2>&1 || {
		cat "$PBS_DIR/qmgr.out" >&2
		return 1
	}
	qmgr -c 'set server default_qsub_arguments = "-m n"' || return 1
	# ssh to node NAME, on one host: the remote command line run by
	# /bin/sh in a session of its own, against NAME's mom.
	cat >"$PBS_DIR/bin/ssh" <<EOT
#!/bin/sh
# ssh stand-in of t/lib-pbs.sh: the options are ssh's, then NODE CMD...
while [ \$# -gt 0 ]; do
	case \$1 in
	-o) shift 2 ;;
	-*) shift ;;
	*) break ;;
	esac
done
node=\$1
shift
PBS_CONF_FILE=$PBS_DIR/pbs.conf.\$node
[ -r "\$PBS_CONF_FILE" ] || { echo "ssh: \$node: no such node" >&2; exit 255; }
# sshd's PATH, with pbs_attach on it as a site puts it on its nodes'.
PATH=$PBS_EXEC/bin:/usr/local/bin:/usr/bin:/bin
export PBS_CONF_FILE PATH
exec setsid -w /bin/sh -c "\$*"
EOT
	chmod 755 "$PBS_DIR/bin/ssh"
	pbs_wait_free 30 || { pbsnodes -aS >&2; return 1; }
	PBS_START_SECONDS=$(echo "$(date +%s.%N) - $_ps_t0" | bc)
	echo "# lib-pbs: OpenPBS $(qstat --version | sed 's/.*= //') up with $PBS_NODES nodes in $PBS_DIR in ${PBS_START_SECONDS} s"
}

# PBS_PIDS from the lock files: comm, server, sched, datastore, moms.
_pbs_pids() {
	_pp_s=$PBS_DIR/server
	PBS_PIDS=""
	for _pp_e in "comm:$_pp_s/server_priv/comm.lock:$PBS_EXEC/sbin/pbs_comm" \
	    "server:$_pp_s/server_priv/server.lock:$PBS_EXEC/sbin/pbs_server.bin" \
	    "sched:$_pp_s/sched_priv/sched.lock:$PBS_EXEC/sbin/pbs_sched" \
	    "postgres:$_pp_s/datastore/postmaster.pid:$(pg_config --bindir)/postgres"; do
		_pp_n=${_pp_e%%:*}
		_pp_r=${_pp_e#*:}
		_pp_p=$(_pbs_lockpid "${_pp_r%%:*}" "${_pp_r#*:}") &&
		    PBS_PIDS="$PBS_PIDS $_pp_n:$_pp_p"
	done
	for _pp_d in "$PBS_DIR"/mom*/; do
		[ -d "$_pp_d" ] || continue
		_pp_p=$(_pbs_lockpid "$_pp_d/mom_priv/mom.lock" "$PBS_EXEC/sbin/pbs_mom") &&
		    PBS_PIDS="$PBS_PIDS $(basename "$_pp_d"):$_pp_p"
	done
	# The datastore's monitor has no lock file: found by its PBS_CONF_FILE.
	for _pp_p in /proc/[0-9]*; do
		[ "$(readlink "$_pp_p/exe" 2>/dev/null)" = "$PBS_EXEC/sbin/pbs_ds_monitor" ] || continue
		tr '\0' '\n' <"$_pp_p/environ" 2>/dev/null |
		    grep -qx "PBS_CONF_FILE=$PBS_CONF_FILE" &&
		    PBS_PIDS="$PBS_PIDS ds_monitor:${_pp_p#/proc/}"
	done
	PBS_PIDS=${PBS_PIDS# }
}

# TERM, up to $3 s for it to end, then KILL (t/lib.sh).
_pbs_kill() {	# name pid secs
	daemon_kill lib-pbs "$@"
}

# The processes of this cluster's jobs: children of its moms, and what
# they started (by session: a job is a session the mom made).
_pbs_job_pids() {
	for _pj_e in $PBS_PIDS; do
		case $_pj_e in mom*) ;; *) continue ;; esac
		ps -e -o pid= -o ppid= -o stat= | awk -v m="${_pj_e#*:}" \
		    '$2 == m && $3 !~ /Z/ { print $1 }'
	done
}

pbs_stop() {
	_st_rc=0
	[ -n "$PBS_DIR" ] || return 0
	_pbs_pids
	if qstat -B >/dev/null 2>&1; then
		_st_jobs=$(qselect 2>/dev/null)
		[ -n "$_st_jobs" ] && qdel -W force $_st_jobs >/dev/null 2>&1
		pbs_wait 15 sh -c '[ -z "$(qselect 2>/dev/null)" ]' || _st_rc=1
	fi
	# Moms (they end their jobs), scheduler, server (it stops its
	# datastore), what is left of the datastore, comm last.
	for _st_e in $PBS_PIDS; do
		case $_st_e in mom*|sched:*) _pbs_kill "${_st_e%%:*}" "${_st_e#*:}" 15 || _st_rc=1 ;; esac
	done
	for _st_n in server postgres ds_monitor comm; do
		for _st_e in $PBS_PIDS; do
			case $_st_e in "$_st_n":*) _pbs_kill "$_st_n" "${_st_e#*:}" 30 || _st_rc=1 ;; esac
		done
	done
	if [ "$_st_rc" -eq 0 ] && [ -z "${PBS_KEEP:-}" ]; then
		rm -rf "$PBS_DIR"
	else
		echo "lib-pbs: logs kept in $PBS_DIR" >&2
	fi
	PBS_DIR=""
	trap - EXIT
	return "$_st_rc"
}

# The last case of a PBS script: stop the cluster, then check that every
# daemon is gone by pid (neither running nor a zombie).
test_pbs_stop() {	# title
	_pbs_pids
	_stop_pids=$(echo $PBS_PIDS | tr ' ' '\n' | sed 's/.*://')
	_stop_n=$(echo $PBS_PIDS | wc -w)
	pbs_stop 2>"$TRASH/stop.err"
	_stop_rc=$?
	test_expect_success "$1" '
		cat "$TRASH/stop.err" && test $_stop_rc = 0 &&
		test $_stop_n = $((PBS_NODES + 5)) &&
		for p in $_stop_pids; do
			test ! -e /proc/$p || { cat /proc/$p/status; exit 1; }
		done
	'
}

# Where no private OpenPBS can run: every case reported as skipped with the
# reason; in CI (CI=true), where it must run, one failing case instead.
test_pbs_skip_all() {	# titles
	if [ "${CI:-}" = true ]; then
		test_expect_success "a private OpenPBS runs in CI ($pbs_why)" false
		test_done
	fi
	while IFS= read -r _title; do
		[ -n "$_title" ] && test_skip "$_title" "$pbs_why"
	done <<EOT
$1
EOT
	test_done
}

# The pilot-name prefix bf-apply gives a spool's pilots (bf-apply(1)).
pbs_pilot_tag() {	# spool
	printf 'bf-%s-' "$(printf %s "$(cd "$1" && pwd -P)" | xxhsum -H3 |
		sed 's/.* = //; s/^\(........\).*/\1/')"
}

# The tests' own views of the private cluster.

# The queue bf as qstat shows it: "ID NAME OWNER STATE NODE", by id.
bfq() {
	qstat -f -F json bf | python3 -c '
import json, sys
d = json.load(sys.stdin)
for i, j in sorted(d.get("Jobs", {}).items(), key=lambda x: int(x[0].split(".")[0])):
    print(i, j["Job_Name"], j["Job_Owner"].split("@")[0], j["job_state"],
          j.get("exec_host", "-").split("/")[0])'
}

# A pbs_attach'ed task of a pilot: the mom keeps a task file per task, the
# job's own shell is one, each attached session another.
tasks() {	# id node
	ls "$PBS_DIR/mom${2#n}/mom_priv/jobs/$1.TK" 2>/dev/null | wc -l
}

main_on() {	# node: a workq job of $PBS_USER there; its id
	(cd / && pbs_as qsub -f -q workq -N main -l "select=1:host=$1" \
	    -l place=exclhost -j oe -o /dev/null -- /bin/sleep 3600)
}

# Running, substate 42 (41 is still starting).
job_running() {	# id
	qstat -f "$1" 2>/dev/null | grep -q "substate = 42"
}
