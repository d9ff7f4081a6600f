# t/lib.sh - the shell test harness, after git's t/test-lib.sh, and every
# helper the tests share.
#
#	. "$(dirname "$0")/lib.sh"   (the first line of a test script in t/)
#	test_expect_success 'title' 'commands'
#	test_must_fail bf-submit -d sp bad.yaml
#	test_expect_code 65 bf-submit -d sp bad.yaml
#	test_cmp expect actual
#	test_done
#
# Each script runs in its own scratch directory t/trash/NAME, made anew.
# A test body runs in a subshell; its exit status decides.  Its output goes
# to a log that is shown as TAP comments: on stderr when it fails, so that
# prove shows it without -v (as Test::More's diag), on stdout with -v or
# TEST_VERBOSE=1 when it passes.  The plan is printed at the end, never
# hard-coded.  A program under test is never upstream of a pipe: its
# output goes to a file first, so that its exit status counts.
#
# The helpers, by section below:
#	the harness		test_*, vg, test_public_trash, test_done
#	spools and jobs		mkspool, holes, job, wait_for, kill_jobs,
#				start_watch, state_true, started_once, snap,
#				... (t0*, t4*, t5*, t7040, t9*; the test job
#				t/data/apply/job.sh)
#	hostile input		bounded, listing, canary_* (t009*, t4060)
#	holes files		hosts_of, hosts_until, event_*, compressed (t1*)
#	histories by hand	hist_*, digest (t7*)
#	a large instance	instance (t3130, t3140)
# Heavy and optional, apart: t/lib-slurm.sh, a private Slurm (t80*), and
# t/lib-pbs.py, an independent reading of PBS's JSON (t1080).

set -u

TEST_NAME=$(basename "$0" .sh)
T_DIR=$(cd "$(dirname "$0")" && pwd)
BF_ROOT=$(cd "$T_DIR/.." && pwd)
PATH="$BF_ROOT/bin:$PATH"
# Debian's python3 (scripts/install-deps; the stand-ins, the independent
# readings and the torch recipe are written for it), first in PATH: a
# python3 found before it (a pyenv shim, as on the CI machine: some twenty
# shell processes per start, 0.3 s instead of 0.03 s, many times that
# under load) would make every stand-in call slow.  By a link in t/trash,
# made once, by rename, so that tests started together may all make it.
if [ -x /usr/bin/python3 ]; then
	_py="$T_DIR/trash/.python3"
	if [ "$(readlink "$_py/python3" 2>/dev/null)" != /usr/bin/python3 ]
	then
		mkdir -p "$_py" && ln -sf /usr/bin/python3 "$_py/python3.$$" &&
			mv -f "$_py/python3.$$" "$_py/python3"
	fi
	PATH="$_py:$PATH"
fi
export PATH BF_ROOT T_DIR
unset BF_SPOOL BF_FAULT
# No site configuration (/etc/bftrainer.yaml): a test names its spool with
# -d or $BF_SPOOL, or meets the built-in one (bf-spool(5), SITE).
BF_CONF=
export BF_CONF
# bf-watch's lines without their time (bf-watch(1), LOGGING), so that a test
# can match them whole; the tests of the log itself unset it.
BF_LOG_STYLE=plain
export BF_LOG_STYLE
LC_ALL=C
export LC_ALL

TRASH="$T_DIR/trash/$TEST_NAME"
rm -rf "$TRASH" "$TRASH.failed"
mkdir -p "$TRASH"
cd "$TRASH" || exit 1

test_count=0
test_failed=0
test_verbose=${TEST_VERBOSE:-0}
case "${1:-}" in -v|--verbose) test_verbose=1 ;; esac

_test_report() {	# status title
	test_count=$((test_count + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $test_count - $2"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $2"
	fi
	if [ "$1" -ne 0 ]; then
		sed 's/^/# /' "$TRASH/.log" >&2
		# For make check's closing digest (scripts/check-digest),
		# which is all a CI log's tail may show of it.
		{ echo "$TEST_NAME $test_count - $2"
		  tail -n 3 "$TRASH/.log" | cut -c 1-150 | sed 's/^/#   /'
		} >>"$T_DIR/trash/$TEST_NAME.failed"
	elif [ "$test_verbose" = 1 ]; then
		sed 's/^/# /' "$TRASH/.log"
	fi
}

test_expect_success() {	# title body
	( eval "$2" ) >"$TRASH/.log" 2>&1 </dev/null
	_test_report $? "$1"
}

# A case that cannot run here is reported as skipped, never as passed.
test_skip() {	# title reason
	test_count=$((test_count + 1))
	echo "ok $test_count # skip $1 ($2)"
}

# The command must fail with an exit status of its own, not die by a signal.
test_must_fail() {
	"$@"
	_tmf_status=$?
	if [ "$_tmf_status" -eq 0 ]; then
		echo "test_must_fail: '$*' succeeded" >&2
		return 1
	elif [ "$_tmf_status" -gt 128 ]; then
		echo "test_must_fail: '$*' died by signal $((_tmf_status - 128))" >&2
		return 1
	fi
	return 0
}

test_expect_code() {	# code command...
	_tec_want=$1
	shift
	"$@"
	_tec_status=$?
	if [ "$_tec_status" -ne "$_tec_want" ]; then
		echo "test_expect_code: '$*' exited $_tec_status, want $_tec_want" >&2
		return 1
	fi
	return 0
}

test_cmp() {	# expect actual
	diff -u "$1" "$2"
}

# Fail with a message unless the file exists and is empty.
test_must_be_empty() {
	if [ -s "$1" ]; then
		echo "'$1' is not empty:" >&2
		cat "$1" >&2
		return 1
	fi
}

# valgrind can check the programs unless it is missing or they were built
# with AddressSanitizer (make SANITIZE=1), which it cannot run; the reason
# is left in test_valgrind_why for test_skip.
test_valgrind_usable() {
	if ! command -v valgrind >/dev/null 2>&1; then
		test_valgrind_why="valgrind is not installed"
		return 1
	fi
	if ldd "$BF_ROOT/bin/bf-submit" 2>/dev/null | grep -q libasan; then
		test_valgrind_why="built with AddressSanitizer (SANITIZE=1), which checks instead"
		return 1
	fi
	return 0
}

# A program under valgrind: any invalid access or leak fails with 99.
vg() {
	valgrind -q --leak-check=full --errors-for-leak-kinds=all \
		--error-exitcode=99 "$@"
}

test_have_root() {
	[ "$(id -u)" -eq 0 ]
}

# A test whose every case acts as another uid: skipped whole, saying so,
# unless it runs as root with setpriv(1).
test_need_root_setpriv() {	# title
	if ! test_have_root || ! command -v setpriv >/dev/null; then
		test_skip "$1" 'needs root and setpriv'
		test_done
	fi
}

# A plan with solver.seconds, the one field two solves may differ in,
# masked.
mask_seconds() {	# [file...]
	sed 's/seconds: [0-9.]*/seconds: S/' "$@"
}

# For a test in which another uid runs the programs or a job script, or
# reaches the spool: the checkout may be under a directory only its owner
# may enter (root's home is 0700), so the programs (bin/bf-*) and the test
# job and worker (t/data/apply/job.sh, worker.sh) are copied to a new directory in /tmp that
# anyone may enter, PATH, J and W name the copies, and the scratch directory
# moves there too (TRASH).  The copies are the very files built, and the
# test asserts what it asserted before.  The directory is removed when
# every case passed, and kept (its path printed) when one failed.
test_public_trash() {
	PUBLIC=$(mktemp -d /tmp/bf-"$TEST_NAME".XXXXXX) || exit 1
	chmod 755 "$PUBLIC" && mkdir -m 755 "$PUBLIC/bin" "$PUBLIC/trash" &&
	for _p in "$BF_ROOT"/bin/bf-*; do
		case $_p in *.c) continue ;; esac
		cp -p "$_p" "$PUBLIC/bin/" || exit 1
	done &&
	cp -p "$T_DIR/data/apply/job.sh" "$PUBLIC/job.sh" &&
	cp -p "$T_DIR/data/apply/worker.sh" "$PUBLIC/worker.sh" &&
	chmod -R go+rX "$PUBLIC" || exit 1
	PATH="$PUBLIC/bin:$PATH"
	J="$PUBLIC/job.sh"
	W="$PUBLIC/worker.sh"
	TRASH="$PUBLIC/trash"
	cd "$TRASH" || exit 1
}

# test_done ends every script: the plan, then the exit status.
test_done() {
	echo "1..$test_count"
	if [ -n "${PUBLIC:-}" ]; then
		# Before its spools go: a test's own EXIT trap (kill_jobs sp)
		# would run after this, from /, and find none of their jobs.
		find "$PUBLIC" -type d -name run -prune 2>/dev/null |
		while read -r _r; do kill_jobs "${_r%/run}"; done
		cd / || exit 1
		if [ "$test_failed" -eq 0 ]; then
			rm -rf "$PUBLIC"
		else
			echo "# scratch directory kept: $TRASH"
		fi
	fi
	[ "$test_failed" -eq 0 ]
	exit $?
}

# ======== spools and jobs (t0*, t4*, t5*, t7040, t9*)

# Every process a test starts is killed by pid.  The test job and its
# worker (test_public_trash names copies instead):
J="$T_DIR/data/apply/job.sh"
W="$T_DIR/data/apply/worker.sh"

# A command as another user: that uid, its gid the same, no groups.
as() {	# uid command...
	_u=$1
	shift
	setpriv --reuid="$_u" --regid="$_u" --clear-groups "$@"
}

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
	[ -r "/proc/$1/status" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}

# Stops a daemon the test started, by pid: TERM, up to SECS s for it to
# end, then KILL; reaps it when it is this shell's child; fails when /proc
# still shows it running (a zombie is a failure too when it is this
# shell's, which wait has reaped; another's is its parent's to reap).
daemon_kill() {	# who name pid secs
	[ -d "/proc/$3" ] || return 0
	kill "$3" 2>/dev/null
	_dk_n=$(($4 * 10))
	while [ "$_dk_n" -gt 0 ] && alive "$3"; do
		sleep 0.1
		_dk_n=$((_dk_n - 1))
	done
	if [ "$_dk_n" -eq 0 ]; then
		echo "$1: $2 (pid $3) ignored TERM; killing it" >&2
		kill -KILL "$3" 2>/dev/null
	fi
	wait "$3" 2>/dev/null
	_dk_n=10
	while [ "$_dk_n" -gt 0 ] && alive "$3"; do
		sleep 0.1
		_dk_n=$((_dk_n - 1))
	done
	if alive "$3"; then
		echo "$1: $2 (pid $3) left behind:" \
		    "$(grep '^State:' "/proc/$3/status" 2>/dev/null)" >&2
		return 1
	fi
	return 0
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

# Job NAME started once, by its own start lines.  A start returns once the
# pid record is written: the job's shell may print its line an instant
# later, so a missing one is waited for (5 s), a second one is not.
started_once() {	# spool name
	_so_sp=$1 _so_name=$2
	wait_for 5 eval 'test "$(starts "$_so_sp" "$_so_name")" -ge 1'
	_so_n=$(starts "$_so_sp" "$_so_name")
	test "$_so_n" -eq 1 || { echo "$_so_name started $_so_n times"; return 1; }
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
# holds) in watch.pid once it runs.  It runs no bf-profile unless the
# first option is --profile.  The lock's pid must be that of the
# child of this timeout(1): a watcher killed an instant ago may not be
# gone yet, and its pid is still in the lock.
start_watch() {	# spool [--profile] [option...]
	_sp=$1
	shift
	_noprof=--no-profile
	if [ "${1:-}" = --profile ]; then
		_noprof=
		shift
	fi
	rm -f watch.pid
	# A child forked by a watcher killed an instant ago may still hold
	# the lock until it closes it: a few tries.
	for _try in 1 2 3; do
		timeout -s KILL 80 bf-watch -d "$_sp" --allow-root-jobs -g 2 \
			-r 1 --debounce 20 $_noprof "$@" 2>>watch.log &
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

# ======== hostile input (t009*, t4060)

#	bounded CMD...		CMD under a memory bound and a hang detector
#	listing DIR		every entry of a tree with type, mode, size, digest
#	canary_setup		a file of another user holding a secret
#	canary_arm / canary_untouched	it was neither read nor leaked

# Every hostile case runs with at most HOSTILE_VMEM KiB of virtual memory
# (ulimit -v), except when the programs are built with AddressSanitizer
# (make SANITIZE=1), whose shadow memory alone needs terabytes of address
# space; ASan bounds nothing then, and the time bound still holds.
# Found out here, once per script (60 ms): a test body is a subshell, which
# could not keep what a first bounded found out.
HOSTILE_VMEM=524288
HOSTILE_SECONDS=60
if nm "$BF_ROOT/bin/bf-submit" 2>/dev/null | grep -q __asan_init ||
    ldd "$BF_ROOT/bin/bf-submit" 2>/dev/null | grep -q libasan; then
	HOSTILE_VMEM=
	# The files of t/sanitize-leaks.list run their programs with
	# LeakSanitizer's exit check off (its reasons; 60 ms a process here).
	if sed 's/#.*//' "$T_DIR/sanitize-leaks.list" 2>/dev/null |
	    awk 'NF { print $1 }' | grep -qxF "t/$TEST_NAME.sh"; then
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
		export ASAN_OPTIONS
	fi
fi

# The command's own exit status; a command that had to be killed by the
# hang detector fails with 124 and says so.
bounded() {
	(
		if [ -n "$HOSTILE_VMEM" ]; then
			ulimit -v "$HOSTILE_VMEM" || exit 125
		fi
		exec timeout -k 5 "$HOSTILE_SECONDS" "$@"
	)
	_b_rc=$?
	case $_b_rc in
	124|137)
		echo "bounded: '$*' did not end within $HOSTILE_SECONDS s" >&2
		return 124 ;;
	esac
	return $_b_rc
}

# One line per entry below DIR, sorted, lock file aside (it holds the pid
# of its last holder): path, type, mode, and for a regular file its size
# and digest (MD5).  Symbolic links are listed, never followed; FIFOs and
# the like never opened.  A byte of a path that is not printable ASCII, and
# a backslash, are written \ooo (octal), so that one entry is one line.
# One perl process for the whole tree: a process per file (cksum) took
# 3 s a case in t0090 once rejected/ held its 80 reasons.
listing() {	# dir
	perl -MFile::Find -MDigest::MD5 -e '
	my $top = shift;
	my @l;
	find({ no_chdir => 1, wanted => sub {
		my $p = $File::Find::name;
		if ($p eq "$top/lock") { $File::Find::prune = 1; return; }
		my @st = lstat $p or do { warn "listing: $p: $!\n"; return; };
		my $y = -l _ ? "l" : -f _ ? "f" : -d _ ? "d" : -p _ ? "p" :
		    -S _ ? "s" : -c _ ? "c" : -b _ ? "b" : "U";
		(my $e = $p) =~ s/([^\x21-\x5b\x5d-\x7e])/sprintf "\\%03o", ord $1/ge;
		my $line = sprintf "%s %s %o", $e, $y, $st[2] & 07777;
		if ($y eq "f") {
			my $d = "?";
			if (open my $fh, "<", $p) {
				binmode $fh;
				$d = Digest::MD5->new->addfile($fh)->hexdigest;
			} else {
				warn "listing: $p: $!\n";
			}
			$line .= " $st[7] $d";
		}
		push @l, "$line\n";
	} }, $top);
	print sort @l;
	' "$1"
}

# A file of another user, mode 0600, with a secret no program may ever
# print or copy: CANARY_FILE holds CANARY_SECRET, in a text that is a good
# job file, a good progress log line and a good hosts line, so that a
# program that followed a link to it would have every reason to show it.
# Its access time is set far in the past before each case; reading it
# would move it (relatime updates an access time older than the
# modification time), which canary_untouched checks when CANARY_ATIME=1.
CANARY_SECRET=Zq7canarySECRETx
canary_setup() {
	CANARY_DIR=$TRASH/canary.d
	CANARY_FILE=$CANARY_DIR/secret.yaml
	mkdir -p "$CANARY_DIR" &&
	cat >"$CANARY_FILE" <<-EOT &&
	name: $CANARY_SECRET
	command: echo $CANARY_SECRET
	max_nodes: 1
	EOT
	CANARY_OWNER=self
	if test_have_root; then
		chown 65534:65534 "$CANARY_FILE" && chmod 600 "$CANARY_FILE" &&
		CANARY_OWNER=nobody
	fi
	# Does this file system keep access times?
	CANARY_ATIME=0
	touch -a -d 2000-01-01T00:00:00Z "$CANARY_FILE" &&
	cat "$CANARY_FILE" >/dev/null &&
	if [ "$(stat -c %X "$CANARY_FILE")" != 946684800 ]; then
		CANARY_ATIME=1
	fi
	canary_arm
}

canary_arm() {
	touch -a -d 2000-01-01T00:00:00Z "$CANARY_FILE"
}

# Neither read (when access times tell) nor found in the files given or
# anywhere in the trees given (links not followed).
canary_untouched() {	# file-or-dir...
	if [ "$CANARY_ATIME" = 1 ] &&
	    [ "$(stat -c %X "$CANARY_FILE")" != 946684800 ]; then
		echo "the canary was read: $(stat -c %x "$CANARY_FILE")" >&2
		return 1
	fi
	if grep -r -l -F "$CANARY_SECRET" "$@" 2>/dev/null | grep -q .; then
		echo "the secret leaked into:" >&2
		grep -r -l -F "$CANARY_SECRET" "$@" >&2
		return 1
	fi
	return 0
}

# The first line of /etc/shadow, when there is one to look for.
shadow_line() {
	head -n 1 /etc/shadow 2>/dev/null | grep .
}

# ======== holes files (t1*)

#	hosts_of FILE		the node names of a holes file, one a line, sorted
#	hosts_until FILE	"NODE UNTIL" for each node of a holes file, sorted
#				by node, UNTIL 0 when the file gives none
#	event_counts FILE	replays an event stream: "TIME IDLE" per line
#	event_hosts FILE T	the idle set after replaying events up to T
#	hosts_of_each FILE...	"T node" for each DIR/T.yaml, sorted by T, node
#	event_hosts_each FILE TIMES	"T node" for the idle set at each of TIMES
#	compressed FILE...	fails unless every hostlist is fully compressed
#
# The expansion is written here in awk, apart from lib/util/hostlist.c, so that
# the tests check the program against an independent reading.

# expand("p[1-3,05],q7", out) puts the names in out[1..n], returns n
# (one bracket group per item, as bf-holes prints).
HOSTS_AWK='
function expand(expr, out,    n, it, pre, body, r, nr, k, lo, hi, w, x) {
	n = 0
	split("", out)
	while (expr != "") {
		if (!match(expr, /^[^,[]*\[[^]]*\]/) && !match(expr, /^[^,]+/))
			exit 3
		it = substr(expr, 1, RLENGTH)
		expr = substr(expr, RLENGTH + 1)
		sub(/^,/, "", expr)
		if (it !~ /\[/) { out[++n] = it; continue }
		pre = substr(it, 1, index(it, "[") - 1)
		body = substr(it, index(it, "[") + 1)
		sub(/\]$/, "", body)
		nr = split(body, r, ",")
		for (k = 1; k <= nr; k++) {
			if (index(r[k], "-")) {
				lo = substr(r[k], 1, index(r[k], "-") - 1)
				hi = substr(r[k], index(r[k], "-") + 1)
			} else
				lo = hi = r[k]
			w = length(lo)
			for (x = lo + 0; x <= hi + 0; x++)
				out[++n] = sprintf("%s%0" w "d", pre, x)
		}
	}
	return n
}
function apply(line,    f, n, i, out) {
	split(line, f, " ")
	n = expand(substr(f[2], 2), out)
	for (i = 1; i <= n; i++) {
		if (out[i] in idle) { print "joins twice: " out[i] " at " f[1]; exit 1 }
		idle[out[i]] = 1; nidle++
	}
	n = expand(substr(f[3], 2), out)
	for (i = 1; i <= n; i++) {
		if (!(out[i] in idle)) { print "leaves, not idle: " out[i] " at " f[1]; exit 1 }
		delete idle[out[i]]; nidle--
	}
}'

hosts_of() {
	awk "$HOSTS_AWK"'
	/^  - nodes: / { n = expand(substr($0, 12), o); for (i = 1; i <= n; i++) print o[i] }' "$1" | sort
}

# hosts_of for many holes files at once, DIR/T.yaml each: "T node" lines,
# by T (a number) then node, as a loop of hosts_of with sed "s/^/T /"
# over the sorted times writes them; one awk for all the files (t1010 and
# t1020 read 250 to 600 files a loop).
hosts_of_each() {	# file...
	awk "$HOSTS_AWK"'
	FNR == 1 { t = FILENAME; sub(/^.*\//, "", t); sub(/\.yaml$/, "", t) }
	/^  - nodes: / { n = expand(substr($0, 12), o); for (i = 1; i <= n; i++) print t, o[i] }' "$@" |
	    sort -k1,1n -k2,2
}

hosts_until() {
	awk "$HOSTS_AWK"'
	function flush(   i) { for (i = 1; i <= n; i++) print o[i], u; n = 0 }
	/^  - nodes: / { flush(); n = expand(substr($0, 12), o); u = 0; next }
	/^    until: / { u = $2 }
	END { flush() }' "$1" | sort
}

event_counts() {
	awk "$HOSTS_AWK"'{ apply($0); print $1, nidle + 0 }' "$1"
}

event_hosts() {
	awk -v t="$2" "$HOSTS_AWK"'$1 <= t + 0 { apply($0) }
	END { for (h in idle) print h }' "$1" | sort
}

# event_hosts at each time of TIMES (a number a line) in one replay: "T
# node" lines, sorted by T then node, as a loop of event_hosts EVENTS T
# with sed "s/^/T /" over the sorted times writes them.
event_hosts_each() {	# events-file times-file
	sort -n "$2" | awk "$HOSTS_AWK"'
	function report(q,   h) { for (h in idle) print q, h }
	NR == FNR { qs[++nq] = $1; next }
	{ while (qi < nq && qs[qi + 1] + 0 < $1 + 0) report(qs[++qi]); apply($0) }
	END { while (qi < nq) report(qs[++qi]) }' - "$1" | sort -k1,1n -k2,2
}

compressed() {
	awk '/^  - nodes: / {
		s = substr($0, 12)
		while (match(s, /\[[^]]*\]/)) {
			body = substr(s, RSTART + 1, RLENGTH - 2)
			s = substr(s, RSTART + RLENGTH)
			nr = split(body, r, ",")
			prev = -2
			for (k = 1; k <= nr; k++) {
				split(r[k], b, "-")
				lo = b[1] + 0; hi = (2 in b) ? b[2] + 0 : lo
				if (lo <= prev + 1 || hi < lo) { print FILENAME ": not compressed: " body; bad = 1 }
				prev = hi
			}
		}
	} END { exit bad }' "$@"
}

# ======== histories written by hand (t7*)

# Every file is written here with printf and xxhsum, apart from
# lib/history.c, so that the tests check bf-report against an independent
# writing of bf-spool(5)'s History.
#
#	hist_init DIR			an empty history: DIR/objects, DIR/runs
#	hist_job DIR NAME UID MIN "N:RATE ..."
#					a job object (max_nodes 64); RATEs
#					empty: no scaling.  The manifests made
#					after it name it, until hist_drop NAME.
#	hist_enact DIR ENACTED HOSTS STATE PLAN
#		a plan enacted at ENACTED (unix seconds, a fraction allowed):
#		HOSTS the idle nodes ("n1,n2"), STATE the jobs that held
#		nodes before it and PLAN those it gives nodes, both as
#		"a=n1,n2 b=n3" ("b=" for none).  The plan's time is ENACTED's
#		whole seconds.
#	hist_run DIR ENDED NAME OUTCOME [LOGFILE]
#		a run record, with LOGFILE as its progress.log
#	digest FILE			xxh3:HEX of FILE

digest() {
	printf 'xxh3:%s' "$(xxhsum -H3 "$1" 2>/dev/null | sed 's/.* = //')"
}

# Store FILE as an object; its digest in $obj.
store() {	# dir file
	obj=$(digest "$2")
	cp "$2" "$1/objects/${obj#xxh3:}"
}

hist_init() {
	mkdir -p "$1/objects" "$1/runs"
	: >"$1/.jobs"
}

hist_job() {	# dir name uid min "n:rate ..."
	{
		printf 'command: "true"\nmax_nodes: 64\nmin_nodes: %s\n' "$4"
		printf 'name: %s\nowner: {uid: %s}\n' "$2" "$3"
		if [ -n "$5" ]; then
			echo "scaling:"
			for _p in $5; do
				printf '  %s: %s\n' "${_p%%:*}" "${_p#*:}"
			done
		fi
		printf 'submitted: 1\n'
	} >"$1/.job-$2"
	store "$1" "$1/.job-$2"
	grep -v "^$2 " "$1/.jobs" >"$1/.jobs.new"
	echo "$2 $obj" >>"$1/.jobs.new"
	sort "$1/.jobs.new" >"$1/.jobs"
}

hist_drop() {	# dir name
	grep -v "^$2 " "$1/.jobs" >"$1/.jobs.new"
	mv "$1/.jobs.new" "$1/.jobs"
}

# "a=n1,n2 b=" as YAML flow lines: "  a: {nodes: 2, ...}"
_hist_jobs() {	# spec with-was(plan)
	for _j in $1; do
		_n=${_j%%=*} _h=${_j#*=}
		if [ -z "$_h" ]; then _c=0; else
			_c=$(echo "$_h" | tr ',' '\n' | grep -c .)
		fi
		if [ "$2" = plan ]; then
			printf '  %s: {nodes: %s, was: 0' "$_n" "$_c"
			[ "$_c" -gt 0 ] && printf ', hosts: "%s"' "$_h"
			printf '}\n'
		elif [ "$_c" -gt 0 ]; then
			printf '  %s: {nodes: %s, hosts: "%s"}\n' "$_n" "$_c" "$_h"
		fi
	done
}

hist_enact() {	# dir enacted hosts state plan
	_d=$1 _e=$2 _t=${2%%.*}
	{
		printf 'time: %s\nsource: test\n' "$_t"
		if [ -n "$3" ]; then
			printf 'idle:\n  - nodes: "%s"\n' "$3"
		else
			printf 'idle: []\n'
		fi
	} >"$_d/.holes"
	store "$_d" "$_d/.holes"; _holes=$obj
	_hist_jobs "$4" state >"$_d/.sj"
	if [ -s "$_d/.sj" ]; then
		{ printf 'time: %s\njobs:\n' "$_t"; cat "$_d/.sj"; } >"$_d/.state"
	else
		printf 'time: %s\njobs: {}\n' "$_t" >"$_d/.state"
	fi
	store "$_d" "$_d/.state"; _state=$obj
	{
		printf 'time: %s\n' "$_t"
		printf 'inputs: {holes: "%s", jobs: "xxh3:0000000000000000", state: "%s"}\n' \
			"$_holes" "$_state"
		printf 'solver: {name: test, status: optimal, objective: 0, seconds: 0}\n'
		printf 'jobs:\n'
		_hist_jobs "$5" plan
		printf 'free: ""\n'
	} >"$_d/.plan"
	_p=$(digest "$_d/.plan")
	cp "$_d/.plan" "$_d/$_t-${_p#xxh3:}.yaml"
	{
		printf 'plan: "%s"\nenacted: %s\nholes: "%s"\nstate: "%s"\n' \
			"$_p" "$_e" "$_holes" "$_state"
		if [ -s "$_d/.jobs" ]; then
			echo "jobs:"
			sed 's/^\([^ ]*\) \(.*\)$/  \1: "\2"/' "$_d/.jobs"
		else
			echo "jobs: {}"
		fi
		echo "profiles: {}"
	} >"$_d/$_t-${_p#xxh3:}.inputs.yaml"
	hist_last="$_t-${_p#xxh3:}"
}

hist_run() {	# dir ended name outcome [logfile]
	_stem="$2-$3-42"
	_job=$(sed -n "s/^$3 //p" "$1/.jobs")
	{
		printf 'name: %s\noutcome: %s\nended: %s\nnodes: 0\nhosts: ""\n' \
			"$3" "$4" "$2"
		[ -n "$_job" ] && printf 'job: "%s"\n' "$_job"
		printf 'run: "history/runs/%s"\n' "$_stem"
	} >"$1/runs/$_stem.yaml"
	mkdir -p "$1/runs/$_stem"
	[ -n "${5:-}" ] && cp "$5" "$1/runs/$_stem/progress.log"
	return 0
}

# ======== a large instance (t3130, t3140)

# instance J N: an instance large enough for bf-solve to fix columns, from
# the curves in $D (t/data/solve): jobs/, holes.yaml, state.yaml and
# policy.yaml here.  Job i is one of the seven ImageNet models, owned by
# uid 1000 + i % 5, with rescale costs and a weight of its own; 70 % of
# the nodes are held.  The policy caps the five users near their share,
# wants 60 nodes for the first six jobs, and allows J / 25 rescales.
instance() {
	mkdir -p jobs &&
	awk -v J="$1" -v N="$2" -v dir="$D" '
	function slurp(m,    f, line, s) {
		f = dir "/" m ".yaml"; s = ""
		while ((getline line <f) > 0)
			if (line ~ /^  [0-9]+: /) s = s line "\n"
		close(f)
		return s
	}
	BEGIN {
		split("alexnet densenet mnasnet1 mobilenet resnet18 shufflenet vgg16", m, " ")
		for (k = 1; k <= 7; k++) pts[k] = slurp(m[k])
		srand(3140)
		for (i = 0; i < J; i++) {
			f = sprintf("jobs/j%03d.yaml", i)
			printf "name: j%03d\ncommand: x\nmin_nodes: %d\nmax_nodes: 64\n" \
			    "rescale_up: %d\nrescale_down: %d\nweight: %d\n" \
			    "owner: {uid: %d}\nscaling:\n%s", i, 1 + int(rand() * 2),
			    10 + int(rand() * 20), 5 + int(rand() * 15),
			    1 + int(rand() * 3), 1000 + i % 5, pts[1 + i % 7] >f
			close(f)
		}
		printf "time: 1000\nidle:\n  - nodes: n[0001-%04d]\n", N >"holes.yaml"
		printf "time: 990\njobs:\n" >"state.yaml"
		for (k = 1; k <= int(0.7 * N); k++) {
			i = int(rand() * J)
			if (cnt[i] >= 64) continue
			cnt[i]++
			hosts[i] = hosts[i] (cnt[i] > 1 ? "," : "") sprintf("n%04d", k)
		}
		for (i = 0; i < J; i++)
			if (cnt[i] > 0)
				printf "  j%03d: {nodes: %d, hosts: \"%s\"}\n", i, cnt[i], hosts[i] >"state.yaml"
		printf "users:\n" >"policy.yaml"
		for (u = 0; u < 5; u++)
			printf "  %d: {max_nodes: %d}\n", 1000 + u, int(N / 5 * (0.85 + 0.05 * u)) >"policy.yaml"
		printf "groups:\n  first: {jobs: [j000, j001, j002, j003, j004, j005], min_nodes: 60}\n" >"policy.yaml"
		printf "max_rescales: %d\n", int(J / 25) >"policy.yaml"
	}'
}
