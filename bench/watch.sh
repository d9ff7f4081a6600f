#!/bin/sh
# bench/watch.sh - bf-watch's latency from a new holes file landing in
# holes/ to the new plan on disk and the state written (every action
# taken), with NODES nodes and JOBS running jobs.  Prints a table; not a
# test.  Figures and the command: bench/watch.md.  Beside them, the same
# run's baseline: solve_ms and dp_ms, the whole bf-solve -d on the spool
# as the rounds left it (bf-watch's decision, no plan written), with its
# default solver and with --solver dp, the median of DECIDE_RUNS (9).
# plan_med, plan_p99 and plan_max are the same rounds' milliseconds to
# the plan alone (issue 34's "event -> plan": the decision on disk, before
# its actions); median_ms and the rest, to every action taken as well.
# With KEEP=1 the work directory stays: lat (each round's ms, in order,
# then its ms to the plan),
# rounds, watch.log.
#
#	bench/watch.sh			1,000 nodes, 50 jobs, 200 rounds
#	NODES=N JOBS=J ROUNDS=R bench/watch.sh
#	NODES=10000 JOBS=500 ROUNDS=50 bench/watch.sh	(issue #18's large size)
#	FLOOD=26000 ROUNDS=20 bench/watch.sh
#	FSYNCS=1 bench/watch.sh		(and make bench/fsync-shim.so)
#	FSYNCS=skip bench/watch.sh	(the same, every fsync a no-op)
#
# With FLOOD=N, N files a job file's checks refuse are queued in
# incoming/ (written beside the spool, then moved in with one mv) after
# the jobs started, and the rounds are measured at once, while bf-watch
# works through them (a timeout of 600 s); the table then also says how
# long incoming/ took to empty, from the mv.
# The jobs are "exec sleep" (the local backend's cost, not a job's); each
# round takes back 25 nodes in a row, from the first node of one job, or
# gives them back, so every round changes the plan.  The spool is made in
# TMPDIR (default /tmp): a disk, or tmpfs with TMPDIR=/dev/shm.  bf-watch runs with its defaults but --no-profile (no progress
# logs here) and a root-owned job permission when run as root.
# With FSYNCS=1, bf-watch runs with bench/fsync-shim.so preloaded, which
# its supervisors inherit (their jobs get a clean environment), and two
# more columns say, per measured round, how many fsync(2) calls began
# inside it and the milliseconds they took (medians over the rounds).
# FSYNCS=skip does the same with every fsync(2) a no-op (BF_FSYNC_SKIP):
# the disk's metadata work without its syncs, a measurement only.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NODES=${NODES:-1000}
JOBS=${JOBS:-50}
ROUNDS=${ROUNDS:-200}
PATH=$ROOT/bin:$PATH
LAT=$ROOT/bench/watch-lat

[ -x "$ROOT/bin/bf-watch" ] && [ -x "$LAT" ] || {
	echo "bench/watch.sh: build first (make all bench/watch-lat)" >&2
	exit 69
}
FSYNCS=${FSYNCS:-0}
SHIM=$ROOT/bench/fsync-shim.so
[ "$FSYNCS" = 0 ] || [ -f "$SHIM" ] || {
	echo "bench/watch.sh: FSYNCS=1: build first (make bench/fsync-shim.so)" >&2
	exit 69
}
WORK=$(mktemp -d)
SP=$WORK/sp
[ -n "${KEEP:-}" ] && echo "bench/watch.sh: work in $WORK" >&2
cleanup() {
	[ -n "${WPID:-}" ] && kill -TERM "$WPID" 2>/dev/null
	for f in "$SP"/run/*/pid; do
		[ -f "$f" ] || continue
		flock -n -s "${f%/pid}/lock" true && continue
		kill -KILL -"$(sed -n 's/^pgid: //p' "$f")" 2>/dev/null
	done
	sleep 0.2
	[ -n "${KEEP:-}" ] || rm -rf "$WORK"
}
trap cleanup EXIT

bf-submit -d "$SP" /dev/null 2>/dev/null
max=$((2 * NODES / JOBS))
j=1
while [ "$j" -le "$JOBS" ]; do
	{
		printf 'name: job%03d\ncommand: exec sleep 100000\n' "$j"
		printf 'max_nodes: %d\nrescale_up: 1\nrescale_down: 1\n' "$max"
		echo "scaling:"
		awk -v m="$max" -v j="$j" 'BEGIN {
			for (n = 1; n <= m; n++)
				printf "  %d: %.1f\n", n, (90 + j) * n ^ 0.8 }'
	} >"$SP/incoming/job$j.yaml"
	j=$((j + 1))
done
root=
[ "$(id -u)" -eq 0 ] && root=--allow-root-jobs
# TSLOG=1: each line of bf-watch's log stamped on arrival with
# CLOCK_MONOTONIC in ms (the rounds' clock), through a fifo, so that each
# round's decisions can be told apart (the table's last lines).
log=$WORK/watch.log
if [ -n "${TSLOG:-}" ]; then
	mkfifo "$WORK/log.fifo"
	perl -MTime::HiRes=clock_gettime,CLOCK_MONOTONIC -ne '$| = 1;
	    printf "%.3f %s", clock_gettime(CLOCK_MONOTONIC) * 1000, $_' \
	    <"$WORK/log.fifo" >"$WORK/watch.log" &
	log=$WORK/log.fifo
fi
if [ "$FSYNCS" = 0 ]; then
	bf-watch -d "$SP" --no-profile $root -g 1 2>"$log" &
else
	skip=0
	[ "$FSYNCS" = skip ] && skip=1
	LD_PRELOAD=$SHIM BF_FSYNC_LOG=$WORK/fsync.log BF_FSYNC_SKIP=$skip \
	    bf-watch -d "$SP" --no-profile $root -g 1 2>"$log" &
fi
WPID=$!
# Every job accepted before the first holes file, so that the first
# decision sees them all, however loaded the machine: with some of them
# only (intake stops a pass at its time budget), those got 40 nodes each
# and the rounds that followed grew and shrank them instead of starting
# and stopping jobs, a run of another shape.
i=0
while [ -n "$(ls -A "$SP/incoming")" ] && [ "$i" -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
# The first round starts the jobs: not a latency, dropped below.
"$LAT" "$SP" "$NODES" 1 >/dev/null
FLOOD=${FLOOD:-0}
limit=10
if [ "$FLOOD" -gt 0 ]; then
	mkdir "$WORK/flood"
	awk -v n="$FLOOD" -v d="$WORK/flood" 'BEGIN {
		for (i = 0; i < n; i++) {
			f = sprintf("%s/f%06d.yaml", d, i)
			printf "name: f%06d\nmax_nodes: 0\n", i >f
			close(f)
		} }'
	limit=600
	t0=$(date +%s.%N)
	(cd "$WORK/flood" && find . -name "f*.yaml" -print0 |
	    xargs -0 mv -t "$SP/incoming/")
	(while [ -n "$(ls -A "$SP/incoming")" ]; do sleep 0.2; done
	 echo "$(date +%s.%N) $t0" | awk '{ printf "%.1f\n", $1 - $2 }' \
	    >"$WORK/drained") &
	DRAIN=$!
fi
# bf-watch's own CPU time (user and system, not its children's), in
# clock ticks, around the measured rounds: cpu_ms is its mean per round,
# the round's passes after the plan included.
cpu_ticks() {
	awk '{ print $14 + $15 }' "/proc/$WPID/stat" 2>/dev/null || echo 0
}
cpu0=$(cpu_ticks)
BF_ROUNDS_LOG=$WORK/rounds "$LAT" "$SP" "$NODES" "$ROUNDS" "$limit" \
    2100000000 >"$WORK/lat"
cpu1=$(cpu_ticks)
[ -n "${DRAIN:-}" ] && wait "$DRAIN"
grep -c timeout "$WORK/lat" >"$WORK/timeouts"
grep -v timeout "$WORK/lat" | awk '{ print $1 }' | sort -n >"$WORK/sorted"
grep -v timeout "$WORK/lat" | awk '{ print $2 }' | sort -n >"$WORK/sorted_plan"
n=$(wc -l <"$WORK/sorted")
[ "$n" -gt 0 ] || { echo "bench/watch.sh: no round finished" >&2; exit 70; }
pick() {	# quantile [file]
	awk -v q="$1" -v n="$n" 'NR == (int(q * (n - 1)) + 1) { print; exit }' \
		"${2:-$WORK/sorted}"
}
# FSYNCS=1: the fsyncs that began inside each round (its START and END
# in $WORK/rounds), their count and total time; the medians of both.
fsyncs=
if [ "$FSYNCS" != 0 ]; then
	fsyncs=$(awk '
	    FILENAME == ARGV[1] { s[++r] = $1; e[r] = $2; next }
	    { for (i = 1; i <= r; i++)
		if ($2 >= s[i] && $2 <= e[i]) { c[i]++; t[i] += $3; break } }
	    function median(a, n,   i, j, v, x) {
		for (i = 1; i <= n; i++) v[i] = a[i] + 0
		for (i = 2; i <= n; i++)	# insertion sort: n is small
			for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
				x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
		return v[int((n + 1) / 2)] }
	    END { printf "%d %.2f", median(c, r), median(t, r) }' \
	    "$WORK/rounds" "$WORK/fsync.log" 2>/dev/null) || fsyncs="- -"
fi
# The baseline in the same run: the decision alone, as bf-watch makes it
# from this spool (bf-solve -d: read the inputs, decide, no plan written),
# whole processes, the median of DECIDE_RUNS, with the default solver and
# with --solver dp.
DECIDE_RUNS=${DECIDE_RUNS:-9}
decide_ms() {
	_i=0
	while [ "$_i" -lt "$DECIDE_RUNS" ]; do
		_t0=$(date +%s%N)
		bf-solve -d "$SP" "$@" >/dev/null 2>&1
		_t1=$(date +%s%N)
		echo $(((_t1 - _t0) / 1000))
		_i=$((_i + 1))
	done | sort -n | awk '{ t[NR] = $1 }
	    END { printf "%.1f", t[int((NR + 1) / 2)] / 1000 }'
}
solve_ms=$(decide_ms)
dp_ms=$(decide_ms --solver dp)
printf '%-10s %-8s %-6s %-7s %-10s %-10s %-10s %-9s %-7s %-9s %-8s %-8s %-8s %-9s %-9s %s' \
	spool nodes jobs rounds median_ms p99_ms max_ms timeouts flood \
	drained_s solve_ms dp_ms cpu_ms plan_med plan_p99 plan_max
[ -n "$fsyncs" ] && printf ' %-7s %s' fsyncs fsync_ms
echo
cpu_width=
[ -n "$fsyncs" ] && cpu_width=-7
printf "%-10s %-8s %-6s %-7s %-10s %-10s %-10s %-9s %-7s %-9s %-8s %-8s %-8s %-9s %-9s %${cpu_width}s" \
	"$(stat -f -c %T "$WORK")" "$NODES" "$JOBS" "$n" \
	"$(pick 0.5)" "$(pick 0.99)" "$(tail -n 1 "$WORK/sorted")" \
	"$(cat "$WORK/timeouts")" "$FLOOD" \
	"$(cat "$WORK/drained" 2>/dev/null || echo -)" "$solve_ms" "$dp_ms" \
	"$(awk -v a="$cpu0" -v b="$cpu1" -v n="$ROUNDS" \
	    -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", \
	    (b - a) * 1000 / hz / n }')" \
	"$(pick 0.5 "$WORK/sorted_plan")" "$(pick 0.99 "$WORK/sorted_plan")" \
	"$(tail -n 1 "$WORK/sorted_plan")"
# shellcheck disable=SC2086
[ -n "$fsyncs" ] && printf ' %-7s %s' $fsyncs
echo
# TSLOG=1: the rounds by what their decisions did (a decision's line is
# the round's that began last before it): with a job started or not; per kind, the rounds, the median and maximum ms, and the median of
# the decisions' own "solve" seconds in ms.
if [ -n "${TSLOG:-}" ]; then
	awk 'FILENAME == ARGV[1] { s[++r] = $1; e[r] = $2; next }
	    FILENAME == ARGV[2] { lat[++l] = $1; next }
	    / decision: / { i = 0	# the round last begun: its line may
		while (i < r && s[i + 1] <= $1) i++	# come after its end
		if (i == 0) next
		st[i] += gsub(/ start job/, "&")
		x = $0; if (sub(/.* solve /, "", x)) sv[i] += x * 1000
		nd[i]++ }
	    END {
		for (i = 1; i <= r; i++) {
			k = st[i] > 0 ? "starts" : "no_start"
			n[k]++; v[k, n[k]] = lat[i]; w[k, n[k]] = sv[i]
			d[k] += nd[i] }
		printf "%-9s %-7s %-10s %-10s %-9s %s\n", "round", "rounds",
		    "median_ms", "max_ms", "solve_ms", "decisions"
		for (k in n) {
			m = n[k]
			for (i = 1; i <= m; i++) { a[i] = v[k, i]; b[i] = w[k, i] }
			for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			for (i = 2; i <= m; i++) for (j = i; j > 1 && b[j - 1] > b[j]; j--) {
				t = b[j]; b[j] = b[j - 1]; b[j - 1] = t }
			printf "%-9s %-7d %-10.1f %-10.1f %-9.1f %d\n", k, m,
			    a[int((m + 1) / 2)], a[m], b[int((m + 1) / 2)], d[k] } }' \
	    "$WORK/rounds" "$WORK/lat" "$WORK/watch.log"
fi
