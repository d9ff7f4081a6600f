# t/lib.sh - the shell test harness, after git's t/test-lib.sh.
#
#	. ./lib.sh   (from a test script in t/)
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
# TEST_VERBOSE=1 when it passes.  The plan is printed at the end, never hard-coded.

set -u

TEST_NAME=$(basename "$0" .sh)
T_DIR=$(cd "$(dirname "$0")" && pwd)
BF_ROOT=$(cd "$T_DIR/.." && pwd)
SHARED=$(cd "$BF_ROOT/../shared" 2>/dev/null && pwd || echo "")
PATH="$BF_ROOT/bin:$PATH"
export PATH BF_ROOT T_DIR
unset BF_SPOOL BF_FAULT
LC_ALL=C
export LC_ALL

TRASH="$T_DIR/trash/$TEST_NAME"
rm -rf "$TRASH"
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

test_done() {
	echo "1..$test_count"
	if [ -n "${PUBLIC:-}" ]; then
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
