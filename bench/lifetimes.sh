#!/bin/sh
# bench/lifetimes.sh - issue 35 item 2, hole lifetimes, in bf-sim: the
# decision's look-ahead fixed (T_fwd 10 s, BFTrainer's), learnt from the
# holes the replay has seen end, and clairvoyant (the trace's true remaining
# idle times, the ceiling), each also with grows placed on the free nodes
# expected to last longest (--place longest).
#
#	bench/lifetimes.sh [DATA_DIR]		(default ../shared/data)
#
# Four windows of 72 hours, milp, oracle curves, -T 10 (the fixed mode's
# horizon and the others' fallback):
#   summit-uncontested  the Summit trace (as bench/jpa.sh), all 4,734 nodes,
#                       BFTrainer's 1,001 ImageNet jobs, 10 at once, from
#                       BFTrainer's starting point 2021-02-10T20:21:15Z
#   summit-contested    the same window, examples/sim/contested-jobs.csv on
#                       its eleven curves, 50 at once, the first 2,048
#                       nodes only (bench/jpa.sh's contested workload)
#   theta-uncontested   the ALCF Theta 2022 SWF log, all nodes, from
#                       THETA_FROM (2022-03-01T00:00:00Z, the jobs' t=0),
#                       the ImageNet jobs, 10 at once
#   theta-contested     the same window, the contested jobs, 50 at once on
#                       the first THETA_NODES (1,024) nodes
# Prints each window's bf-sim --compare, then samples per idle node-hour per
# mode beside fixed, the ratios to fixed, and the share of the clairvoyant
# gain over fixed that learnt captures ((learnt - fixed) / (clairvoyant -
# fixed), "-" where clairvoyant does not gain), and each run's CPU seconds.
# SUMMIT_FROM moves the Summit windows (the jobs' submit times stay
# counted from the trace's t=0: a later window starts with every job not
# yet run queued) and THETA_FROM the Theta ones, for windows the caps
# were not chosen on.  Results in bench/out/lifetimes (or $LIFE_OUT);
# LIFE_BIN names another bf-sim (a copy, so the tree may be rebuilt
# meanwhile); LIFE_WINDOWS a subset; LIFE_HOURS a shorter window (a
# reduced run: say so beside its figures); LIFE_NICE the nice level
# (default 19); LIFE_CAP=S runs the modes other than fixed with
# --horizon-cap S (bf-sim(1), Horizons).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA=${1:-$ROOT/../shared/data}
BIN=${LIFE_BIN:-$ROOT/bin/bf-sim}
WINDOWS=${LIFE_WINDOWS:-summit-uncontested summit-contested theta-uncontested theta-contested}
HOURS=${LIFE_HOURS:-72}
SUMMIT=$DATA/traces/Summit-idle-nodes-2021-02-10_24.transitions.csv.gz
THETA=$DATA/traces/ALCF-Theta-2022.swf.gz
THETA_FROM=${THETA_FROM:-2022-03-01T00:00:00Z}
THETA_NODES=${THETA_NODES:-1024}
SUMMIT_FROM=${SUMMIT_FROM:-2021-02-10T20:21:15Z}
OUT=${LIFE_OUT:-$ROOT/bench/out/lifetimes}
MODES="fixed learnt clairvoyant learnt-longest clairvoyant-longest"
CAP=${LIFE_CAP:+ --horizon-cap $LIFE_CAP}

for f in "$SUMMIT" "$THETA"; do
	if [ ! -r "$f" ]; then
		echo "bench/lifetimes.sh: $f not found; skipped" >&2
		exit 0
	fi
done
[ -x "$BIN" ] || { echo "bench/lifetimes.sh: build first (make)" >&2; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT" || exit 1

after() {	# ISO time, hours
	date -u -d "$1 + $2 hours" +%Y-%m-%dT%H:%M:%SZ
}

run() {	# name option...
	_name=$1
	shift
	nice -n "${LIFE_NICE:-19}" /usr/bin/time -f '%U %S' \
	    -o "$OUT/$_name.cpu" "$BIN" -T 10 --policy milp --no-plot \
	    -o "$OUT/$_name" "$@" </dev/null || exit 1
	printf '%-40s %8.1f s cpu\n' "$_name" "$(cpu "$_name")" |
	    tee -a "$OUT/cpu.txt"
}

cpu() {	# name: user + system seconds
	awk '{ printf "%.1f", $1 + $2 }' "$OUT/$1.cpu"
}

val() {	# dir key
	sed -n "s/^$2: //p" "$OUT/$1/summary.yaml"
}

sub() {	# dir key subkey: a value of a mapping of summary.yaml
	sed -n "/^$2:\$/,/^[^ ]/s/^  $3: //p" "$OUT/$1/summary.yaml"
}

full() {	# dir: the share of decisions that left no idle node free
	awk -F, 'NR > 1 { n++; if ($4 == $3) f++ } END { printf "%.2f", f / n }' \
	    "$OUT/$1/steps.csv"
}

mode_opts() {	# mode
	case $1 in
	fixed)			echo "--horizon fixed" ;;
	learnt)			echo "--horizon learnt$CAP" ;;
	clairvoyant)		echo "--horizon clairvoyant$CAP" ;;
	learnt-longest)		echo "--horizon learnt --place longest$CAP" ;;
	clairvoyant-longest)	echo "--horizon clairvoyant --place longest$CAP" ;;
	esac
}

SIM_CURVES=$ROOT/examples/sim/bftrainer-curves.csv
IMAGENET=$ROOT/examples/sim/bftrainer-imagenet-1001.csv
CONTESTED=$ROOT/examples/sim/contested-jobs.csv
CONTESTED_CURVES=$ROOT/examples/sim/contested-curves.csv
STO=$(after "$SUMMIT_FROM" "$HOURS")
TTO=$(after "$THETA_FROM" "$HOURS")

for w in $WINDOWS; do
	case $w in
	summit-uncontested)
		set -- --idle-trace "$SUMMIT" --epoch 2021-02-10T00:08:52Z \
		    --from "$SUMMIT_FROM" --to "$STO" --jobs "$IMAGENET" \
		    --curves "$SIM_CURVES" --max-jobs 10 ;;
	summit-contested)
		set -- --idle-trace "$SUMMIT" --epoch 2021-02-10T00:08:52Z \
		    --from "$SUMMIT_FROM" --to "$STO" --jobs "$CONTESTED" \
		    --curves "$CONTESTED_CURVES" --max-jobs 50 --nodes 2048 ;;
	theta-uncontested)
		set -- --swf "$THETA" --epoch "$THETA_FROM" \
		    --from "$THETA_FROM" --to "$TTO" --jobs "$IMAGENET" \
		    --curves "$SIM_CURVES" --max-jobs 10 ;;
	theta-contested)
		set -- --swf "$THETA" --epoch "$THETA_FROM" \
		    --from "$THETA_FROM" --to "$TTO" --jobs "$CONTESTED" \
		    --curves "$CONTESTED_CURVES" --max-jobs 50 \
		    --nodes "$THETA_NODES" ;;
	*)	echo "bench/lifetimes.sh: no window $w" >&2; exit 1 ;;
	esac
	echo "== $w, $HOURS hours: $*"
	for m in $MODES; do
		# shellcheck disable=SC2046
		run "$w-$m" "$@" $(mode_opts $m)
	done
	(cd "$OUT" && "$BIN" --compare $(for m in $MODES; do
	    printf '%s ' "$w-$m"; done))
	echo
done

echo "== samples per idle node-hour (jobs finished), each mode beside fixed T_fwd 10 s;"
echo "== contention: the share of fixed's decisions after which no idle node was free"
echo
echo "| window | idle node-hours | contention | fixed | learnt | clairvoyant | learnt, longest | clairvoyant, longest |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for w in $WINDOWS; do
	printf '| %s | %s | %s |' $w "$(val $w-fixed idle_node_hours)" \
	    "$(full $w-fixed)"
	for m in $MODES; do
		printf ' %.0f (%s) |' "$(val $w-$m samples_per_idle_node_hour)" \
		    "$(val $w-$m jobs_finished)"
	done
	echo
done
echo
echo "| window | placement | learnt / fixed | clairvoyant / fixed | learnt's share of the clairvoyant gain |"
echo "| --- | --- | ---: | ---: | ---: |"
for w in $WINDOWS; do
	f=$(val $w-fixed samples_per_idle_node_hour)
	for p in lowest longest; do
		l=$w-learnt c=$w-clairvoyant
		[ $p = longest ] && l=$l-longest c=$c-longest
		lv=$(val $l samples_per_idle_node_hour)
		cv=$(val $c samples_per_idle_node_hour)
		if [ "$(echo "$cv > $f" | bc)" = 1 ]; then
			g=$(printf '%.0f %%' "$(echo "($lv - $f) / ($cv - $f) * 100" |
			    bc -l)")
		else
			g=-
		fi
		printf '| %s | %s | %.4f | %.4f | %s |\n' $w $p \
		    "$(echo "$lv / $f" | bc -l)" "$(echo "$cv / $f" | bc -l)" "$g"
	done
done
echo
echo "== the horizons: mean and median seconds over the decisions; learnt's decisions at -T for want of ended holes, and the holes it learnt from"
echo
echo "| window | mode | mean | median | fallbacks | holes | rescales | rescale loss / done |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for w in $WINDOWS; do
	for m in $MODES; do
		printf '| %s | %s | %s | %s | %s | %s | %s | %.4f |\n' $w $m \
		    "$(sub $w-$m horizon_seconds mean)" \
		    "$(sub $w-$m horizon_seconds median)" \
		    "$(val $w-$m horizon_fallbacks)" \
		    "$(val $w-$m horizon_holes)" "$(val $w-$m rescales)" \
		    "$(echo "$(val $w-$m rescale_loss_samples) / $(val $w-$m samples_done)" | bc -l)"
	done
done
echo
echo "== CPU seconds of each replay (user + system)"
echo
echo "| window | fixed | learnt | clairvoyant | learnt, longest | clairvoyant, longest |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for w in $WINDOWS; do
	printf '| %s |' $w
	for m in $MODES; do
		printf ' %s |' "$(cpu $w-$m)"
	done
	echo
done
echo; echo "Results in $OUT"
