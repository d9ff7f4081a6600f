#!/bin/sh
# bench/horizon.sh - bf-solve -d's time with the fixed look-ahead and with
# --horizon learnt (issue 35 item 2, in the live decision): on t3130's
# instances (t/lib.sh instance: J jobs of the seven ImageNet curves, N
# nodes, 70 % held, no policy here) with a history of P plans written by
# hand, each a holes file in which 2 % of the nodes changed (left or came
# back) since the one before, 10 s apart, and its line in allocs.idx.
# Prints, per size, the median wall time of REPEAT runs of: the fixed
# horizon (10 s); fixed at the T learnt (the same model as learnt's, so
# that the difference is the horizon's own cost: a longer look-ahead
# makes another model, which may take CBC longer); learnt with
# SPOOL/lifetimes up to date (nothing new); learnt
# after one more plan in history (the update reads one manifest and one
# holes file, and writes the file again); and once, learnt from the whole
# history (no lifetimes file); with the T chosen and the file's size.
# Not a test.  Figures and the command: bench/lifetimes.md.
#
#	bench/horizon.sh [SIZES]	SIZES like "50x1024" (default 50x1024
#					100x4734)
#	PLANS=500 REPEAT=5 bench/horizon.sh
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SOLVE=$ROOT/bin/bf-solve
PLANS=${PLANS:-500}
REPEAT=${REPEAT:-5}
SIZES=${*:-50x1024 100x4734}
D=$ROOT/t/data/solve
[ -x "$SOLVE" ] || { echo "bench/horizon.sh: build first (make)" >&2; exit 69; }
command -v xxhsum >/dev/null || { echo "bench/horizon.sh: needs xxhsum" >&2; exit 69; }
# The history writers and the instance of the tests (t/lib.sh).
eval "$(sed -n '/^digest() {/,/^}/p;/^store() {/,/^}/p;/^hist_init() {/,/^}/p;/^_hist_jobs() {/,/^}/p;/^hist_enact() {/,/^}/p;/^instance() {/,/^}/p' "$ROOT/t/lib.sh")"
WORK=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT

ms() {	# command...: its wall time in milliseconds
	_t0=$(date +%s%N)
	"$@" >/dev/null 2>&1 || { echo "bench/horizon.sh: $* failed" >&2; exit 70; }
	_t1=$(date +%s%N)
	echo $(((_t1 - _t0) / 1000))
}

median() {	# numbers (microseconds) -> milliseconds, 3 decimals
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.1f", m / 1000 }'
}

# hosts N STEP: the idle nodes of plan STEP, a seeded walk (2 % flip).
walk() {	# N P -> lines "TIME HOSTS"
	awk -v N="$1" -v P="$2" 'BEGIN {
		srand(35)
		for (i = 1; i <= N; i++) idle[i] = rand() < 0.8
		for (s = 0; s <= P; s++) {
			if (s > 0)
				for (k = 0; k < N / 50; k++) {
					i = 1 + int(rand() * N)
					idle[i] = !idle[i]
				}
			h = ""
			for (i = 1; i <= N; i++)
				if (idle[i]) h = h (h == "" ? "" : ",") sprintf("n%04d", i)
			printf "%d %s\n", 1000 - 10 * (P + 1 - s), h
		}
	}'
}

printf '%-10s %6s %9s %9s %9s %9s %11s %11s %10s %8s\n' size plans fixed \
	"-T T" learnt "+1 plan" "whole hist" "T (s)" "file (B)" "holes"
for size in $SIZES; do
	J=${size%x*} N=${size#*x}
	dir=$WORK/$size
	mkdir -p "$dir" && cd "$dir" || exit 70
	instance "$J" "$N"
	mkdir -p sp && "$ROOT/bin/bf-submit" -d sp /dev/null 2>/dev/null
	cp holes.yaml sp/holes/current.yaml && cp state.yaml sp/state.yaml &&
	cp jobs/*.yaml sp/jobs/ || exit 70
	H=sp/history
	hist_init $H
	printf '# bftrainer allocation index 1\n' >$H/allocs.idx
	walk "$N" "$PLANS" >walk.txt
	head -n "$PLANS" walk.txt | while read -r t h; do
		hist_enact $H "$t" "$h" "" "" &&
		echo "$t.000000 $hist_last" >>$H/allocs.idx
	done
	"$SOLVE" -d sp --horizon learnt || exit 70	# the file, from the whole
	T0=$(sed -n 's/.*tfwd: \([0-9.]*\), horizon.*/\1/p' sp/plans/current.yaml)
	f= x= l= a= w=
	for r in $(seq "$REPEAT"); do
		f="$f $(ms "$SOLVE" -d sp)"
		x="$x $(ms "$SOLVE" -d sp -T "$T0")"
		l="$l $(ms "$SOLVE" -d sp --horizon learnt)"
	done
	# one more plan each time: the last of the walk, then back and forth
	for r in $(seq "$REPEAT"); do
		t=$((990 + r - REPEAT)) h=$(tail -n 1 walk.txt | cut -d' ' -f2)
		[ $((r % 2)) = 0 ] && h=$(sed -n "${PLANS}p" walk.txt | cut -d' ' -f2)
		hist_enact $H "$t" "$h" "" "" &&
		echo "$t.000000 $hist_last" >>$H/allocs.idx
		a="$a $(ms "$SOLVE" -d sp --horizon learnt)"
	done
	rm sp/lifetimes
	w=$(ms "$SOLVE" -d sp --horizon learnt)
	T=$(sed -n 's/.*tfwd: \([0-9.]*\), horizon.*/\1/p' sp/plans/current.yaml)
	holes=$(awk '$1 == "hole" { n += $3 } END { print n + 0 }' sp/lifetimes)
	printf '%-10s %6s %9s %9s %9s %9s %11.1f %11s %10s %8s\n' "$size" \
		"$PLANS" "$(median $f)" "$(median $x)" "$(median $l)" "$(median $a)" \
		"$(echo "$w" | awk '{ print $1 / 1000 }')" "$T" \
		"$(wc -c <sp/lifetimes)" "$holes"
done
