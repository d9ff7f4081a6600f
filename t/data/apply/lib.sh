# t/data/apply/lib.sh - helpers for the apply (t4*) and watch (t5*) tests,
# sourced after t/lib.sh.  Every process a test starts is killed by pid.

J="$T_DIR/data/apply/job.sh"
W="$T_DIR/data/apply/worker.sh"

mkspool() {	# spool
	bf-submit -d "$1" /dev/null 2>/dev/null
	test -d "$1/jobs"
}

# A holes file lands by rename, as bf-holes delivers it.
holes() {	# spool time [hostlist]
	printf 'time: %s\nsource: test\nidle:\n' "$2" >"$1/holes/.new"
	if [ -n "${3:-}" ]; then
		printf '  - nodes: "%s"\n' "$3" >>"$1/holes/.new"
	else
		sed -i 's/^idle:$/idle: []/' "$1/holes/.new"
	fi
	mv "$1/holes/.new" "$1/holes/current.yaml"
}

# A job file dropped into incoming/ by rename; cheap to rescale, and with
# diminishing returns, so that nodes are shared out.
job() {	# spool name max_nodes command [extra yaml line...]
	_sp=$1 _n=$2 _max=$3 _cmd=$4
	shift 4
	{
		printf 'name: %s\ncommand: %s\nmax_nodes: %s\n' "$_n" "$_cmd" "$_max"
		printf 'rescale_up: 0.1\nrescale_down: 0.1\n'
		for _l in "$@"; do echo "$_l"; done
		echo "scaling:"
		_i=1
		for _r in 100 150 190 220 240 250 255 258; do
			[ "$_i" -le "$_max" ] && echo "  $_i: $_r"
			_i=$((_i + 1))
		done
	} >"$_sp/incoming/.$_n"
	mv "$_sp/incoming/.$_n" "$_sp/incoming/$_n.yaml"
}

# Poll until the command succeeds, at most SECONDS; then once more, loudly.
wait_for() {	# seconds command...
	_t=$(($1 * 20))
	shift
	while [ "$_t" -gt 0 ]; do
		"$@" 2>/dev/null && return 0
		sleep 0.05
		_t=$((_t - 1))
	done
	"$@"
}

# Running, and not a zombie (init here does not reap).
alive() {	# pid
	[ -r "/proc/$1/status" ] && ! grep -q '^State:.*Z' "/proc/$1/status"
}

# Kill every running job's process group and supervisor.  Only those
# whose supervisor still holds run/NAME/lock: a pid in an ended job's
# record may be some other process's by now.  Returns once every lock
# is free (the supervisors are gone), so that bf-apply sees them ended;
# 1 if one is still held after 10 s.
kill_jobs() {	# spool
	for _f in "$1"/run/*/pid; do
		[ -f "$_f" ] || continue
		flock -n -s "${_f%/pid}/lock" true && continue
		_g=$(sed -n 's/^pgid: //p' "$_f")
		_s=$(sed -n 's/^supervisor: //p' "$_f")
		[ -n "$_g" ] && kill -KILL -"$_g" 2>/dev/null
		[ -n "$_s" ] && kill -KILL "$_s" 2>/dev/null
		# Workers: "HOST PGID RESTARTS STATE", each its own group.
		[ -f "${_f%/pid}/workers" ] &&
		    awk '$2 > 1 { print $2 }' "${_f%/pid}/workers" |
		    while read -r _w; do kill -KILL -"$_w" 2>/dev/null; done
	done
	for _f in "$1"/run/*/pid; do
		[ -f "$_f" ] || continue
		wait_for 10 flock -n -s "${_f%/pid}/lock" true || return 1
	done
	return 0
}

# How many times job NAME started, over its runs past and present.
starts() {	# spool name
	cat "$1"/run/*/output "$1"/history/runs/*/output 2>/dev/null |
		grep -c "^start $2 "
}

mask_state() {	# file
	sed '1s/^time: [0-9]*$/time: T/' "$1"
}

# Every job in the state runs (its supervisor holds run/NAME/lock) on as
# many hosts as the state says, and every running job is in the state.
state_true() {	# spool
	sed -n 's/^  \([^:]*\): {nodes: \([0-9]*\), .*/\1 \2/p' \
		"$1/state.yaml" >state_true.jobs
	while read -r _n _c; do
		if ! test -f "$1/run/$_n/lock" ||
		    flock -n -s "$1/run/$_n/lock" true; then
			echo "$_n is in the state but does not run"
			return 1
		fi
		bf-hosts -d "$1" "$_n" >state_true.hosts || return 1
		_h=$(wc -l <state_true.hosts)
		[ "$_h" -eq "$_c" ] || { echo "$_n: $_h hosts, state $_c"; return 1; }
	done <state_true.jobs
	for _d in "$1"/run/*/; do
		[ -d "$_d" ] || continue
		_n=$(basename "$_d")
		if ! flock -n -s "$_d/lock" true &&
		    ! grep -q "^$_n " state_true.jobs; then
			echo "$_n runs but is not in the state"
			return 1
		fi
	done
	return 0
}

# The parent of a process.
ppid() {	# pid
	sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f2
}

# bf-watch in the background, bounded in time; its pid (from the lock it
# holds) in watch.pid once it runs.  The lock's pid must be that of the
# child of this timeout(1): a watcher killed an instant ago may not be
# gone yet, and its pid is still in the lock.
start_watch() {	# spool [option...]
	_sp=$1
	shift
	rm -f watch.pid
	# A child forked by a watcher killed an instant ago may still hold
	# the lock until it closes it: a few tries.
	for _try in 1 2 3; do
		timeout -s KILL 80 bf-watch -d "$_sp" --allow-root-jobs -g 2 \
			-r 1 --debounce 20 --no-profile "$@" 2>>watch.log &
		echo $! >timeout.pid
		if wait_for 3 eval 'test -s "$_sp/lock" &&
		    _p=$(cat "$_sp/lock") && alive "$_p" &&
		    [ "$(ppid "$_p")" = "$(cat timeout.pid)" ] &&
		    grep -q bf-watch "/proc/$_p/cmdline"'; then
			cat "$_sp/lock" >watch.pid
			return 0
		fi
	done
	return 1
}

stop_watch() {	# : TERM, then KILL if it would not go
	[ -s watch.pid ] || return 0
	_p=$(cat watch.pid)
	kill -TERM "$_p" 2>/dev/null
	wait_for 5 eval '! alive $_p' || kill -KILL "$_p" 2>/dev/null
	rm -f watch.pid
	return 0
}

# Nodes held in the state, all jobs together.
held() {	# spool
	sed -n 's/^  [^:]*: {nodes: \([0-9]*\),.*/\1/p' "$1/state.yaml" |
		awk '{ s += $1 } END { print s + 0 }'
}

# Every file of a spool but its lock (which holds the pid of the last
# program that took it), with its owner, mode, size and checksum: two
# snapshots equal, nothing was written.
snap() {	# spool
	(cd "$1" && find . ! -type d ! -path ./lock -printf '%p %u %m %s ' \
		-exec sh -c 'md5sum <"$1" | cut -c1-32' sh {} \;) | sort
}

# Nothing left behind in tmp/.
tmp_clean() {	# spool
	find "$1/tmp" -mindepth 1 >tmp.left &&
	test_must_be_empty tmp.left
}

# The standard error is exactly one line, this one (a grep -x pattern).
one_line() {	# file pattern
	cat "$1"
	test "$(wc -l <"$1")" -eq 1 && grep -qx "$2" "$1"
}
