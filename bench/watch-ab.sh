#!/bin/sh
# bench/watch-ab.sh - bench/watch.sh for two builds, interleaved, with
# the ratio: BASE's and this checkout's, run as A B B A, N times, each
# after IDLE seconds of rest, so that a machine whose speed drifts while
# it works (a shared VM's) slows both alike.  Prints each run's line of
# bench/watch.sh (FSYNCS=1), then each build's median of its runs'
# medians and the ratio of this one's to BASE's.  Not a test.
#
#	bench/watch-ab.sh BASE			N=2, IDLE=0, bench/watch.sh's
#						defaults (ROUNDS, TMPDIR, ...)
#	IDLE=25 ROUNDS=40 N=3 bench/watch-ab.sh /tmp/base
#
# BASE is another checkout, built with `make all bench/watch-lat
# bench/fsync-shim.so` (git worktree add /tmp/base REV).  Without BASE
# (make bench) it says so and runs nothing.  Figures: bench/watch.md.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then	# make bench: nothing to compare with
	echo "bench/watch-ab.sh: no BASE checkout given; nothing run" >&2
	exit 0
fi
if [ $# -ne 1 ] || [ ! -x "$1/bench/watch.sh" ]; then
	echo "usage: bench/watch-ab.sh BASE (a built checkout)" >&2
	exit 64
fi
BASE=$(cd "$1" && pwd)
N=${N:-2}
IDLE=${IDLE:-0}
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
run() {		# label dir
	sleep "$IDLE"
	line=$(cd "$2" && FSYNCS=1 bench/watch.sh 2>&1 | tail -n 1)
	printf '%-5s %s\n' "$1" "$line" | tee -a "$OUT"
}
i=0
while [ "$i" -lt "$N" ]; do
	run base "$BASE"
	run new "$ROOT"
	run new "$ROOT"
	run base "$BASE"
	i=$((i + 1))
done
awk '
	{ v[$1, ++n[$1]] = $6 }
	function median(k,   m, i, j, a, x) {
		m = n[k]
		for (i = 1; i <= m; i++) a[i] = v[k, i] + 0
		for (i = 2; i <= m; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				x = a[j]; a[j] = a[j - 1]; a[j - 1] = x }
		return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
	}
	END {
		b = median("base"); w = median("new")
		printf "base median of medians %.2f ms (%d runs)\n", b, n["base"]
		printf "new  median of medians %.2f ms (%d runs)\n", w, n["new"]
		printf "new/base %.2f\n", w / b
	}' "$OUT"
