#!/bin/sh
# bench/pbs-giveback.sh - how fast a node held in queue bf goes back to a
# main job, on a private OpenPBS 23.06 (t/lib-pbs.sh: four moms on this
# host, queues workq and bf as examples/pbs/bftrainer.qmgr sets them,
# kill_delay 0, preempt_order D).  Prints a table; not a test.  Figures and
# the command: bench/pbs.md.
#
#	bench/pbs-giveback.sh [-r REPEATS]
#
# Three kinds of job hold node n1 in turn, REPEATS times each, interleaved
# (so that the machine's load is shared alike):
#
#   plain   a plain job of queue bf, /bin/sleep 3600
#   pilot   bf-apply's pilot as lib/apply/backend_pbs.c submits it (PILOT_SH,
#           with bf-apply -g 2): it ends at a SIGTERM with no SIGUSR2 first
#   old     the pilot before this change: trap '' TERM; exec sleep infinity
#
# Each time a job of queue workq asking for n1 is submitted (qsub -f, as
# $PBS_USER); the figure is the time from that qsub to the workq job
# running (substate 42, not 41: PBS shows R while it still starts), polled
# every 20 ms.  Then the workq job is deleted and n1 waited free.
# Needs root (the daemons; the jobs are $PBS_USER's), and OpenPBS built by
# scripts/openpbs-build (a first run builds it).
ROOT=$(cd "$(dirname "$0")/.." && pwd)
REPEATS=5
if [ "${1:-}" = -r ]; then
	REPEATS=$2
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "bench/pbs-giveback.sh: needs root (the PBS daemons)" >&2
	exit 69
fi
# As t/lib-pbs.sh does for the tests: reap what the daemons' forks leave.
if [ -z "${BF_SUBREAPER:-}" ] && command -v perl >/dev/null; then
	case $(uname -m) in x86_64) nr=157 ;; aarch64) nr=167 ;; *) nr= ;; esac
	if [ -n "$nr" ]; then
		BF_SUBREAPER=1
		export BF_SUBREAPER
		exec perl -e 'syscall('"$nr"', 36, 1, 0, 0, 0) == 0 or
		    warn "prctl(PR_SET_CHILD_SUBREAPER): $!\n"; exec @ARGV or
		    die "exec: $!\n"' /bin/sh "$0" -r "$REPEATS"
	fi
fi
BF_ROOT=$ROOT T_DIR=$ROOT/t TEST_NAME=pbs-giveback
BF_SUBREAPER=${BF_SUBREAPER:-1}
TRASH=$(mktemp -d /tmp/bf-pbs-giveback.XXXXXX) || exit 73
test_have_root() { [ "$(id -u)" -eq 0 ]; }
. "$ROOT/t/lib-pbs.sh"
pbs_usable || {
	echo "bench/pbs-giveback.sh: no OpenPBS here ($pbs_why)" >&2
	exit 69
}
trap 'rm -rf "$TRASH"; pbs_stop' EXIT
pbs_start >"$TRASH/start.out" 2>&1 || { cat "$TRASH/start.out" >&2; exit 70; }
cd / || exit 1

PILOT="n=0; trap n=1 USR2; trap 'if [ \$n = 1 ]; then n=0; (sleep 5; kill \$\$) & else kill \$!; exit 0; fi' TERM; while :; do sleep 86400 & wait; done"
OLD="trap '' TERM; exec sleep infinity"

now() { date +%s.%N; }
running42() { qstat -f "$1" 2>/dev/null | grep -q "substate = 42"; }
free_n1() { pbsnodes n1 2>/dev/null | grep -q "^ *state = free$"; }

hold() {	# kind: the bf job on n1, running; its id
	case $1 in
	plain) set -- /bin/sleep 3600 ;;
	pilot) set -- /bin/sh -c "$PILOT" ;;
	old) set -- /bin/sh -c "$OLD" ;;
	esac
	_id=$(pbs_as qsub -f -q bf -N hold -l select=1:host=n1 \
	    -l place=exclhost -m n -j oe -o /dev/null -- "$@") || return 1
	pbs_wait 20 running42 "$_id" || return 1
	echo "$_id"
}

measure() {	# kind: seconds from the workq qsub to its job running
	_h=$(hold "$1") || return 1
	sleep 1
	_t0=$(now)
	_m=$(pbs_as qsub -f -q workq -N main -l select=1:host=n1 \
	    -l place=exclhost -m n -j oe -o /dev/null -- /bin/sleep 3600) || return 1
	while ! running42 "$_m"; do
		sleep 0.02
		[ "$(echo "$(now) - $_t0 > 60" | bc)" = 1 ] && return 1
	done
	echo "$(now) - $_t0" | bc
	qdel -Wsuppress_email=1 "$_m" "$_h" 2>/dev/null
	pbs_wait 60 free_n1 || return 1
	pbs_wait 30 sh -c '[ -z "$(qselect)" ]'
}

echo "# OpenPBS $(qstat --version | sed 's/.*= //'), $PBS_NODES moms, started in $PBS_START_SECONDS s; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %s\n' kind "seconds to the workq job running, each run"
for kind in plain pilot old; do
	: >"$TRASH/$kind"
done
i=0
while [ "$i" -lt "$REPEATS" ]; do
	for kind in plain pilot old; do
		s=$(measure $kind) || { echo "bench/pbs-giveback.sh: $kind run $i failed" >&2; exit 70; }
		echo "$s" >>"$TRASH/$kind"
	done
	i=$((i + 1))
done
for kind in plain pilot old; do
	printf '%-6s %s  median %s\n' $kind \
	    "$(awk '{ printf "%.2f ", $1 }' "$TRASH/$kind")" \
	    "$(sort -n "$TRASH/$kind" | awk '{ v[NR] = $1 } END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')"
done
echo "# load after $(cut -d' ' -f1-3 /proc/loadavg)"
