#!/bin/sh
# bench/jpa.sh - MalleTrain's claim measured: online profiling with the
# advisor's probes against no information and the oracle, in bf-sim.
#
#	bench/jpa.sh [DATA_DIR]		(default ../shared/data)
#
# The Summit idle-node trace (DATA_DIR/traces, as bench/sim.sh), all 4,734
# nodes, the 72 hours from BFTrainer's starting point (2021-02-10T20:21:15Z),
# milp, T_fwd 10 s.  Three workloads:
#   imagenet  BFTrainer's 1,001 ImageNet jobs (examples/sim), 10 at once;
#   sweeps    examples/sim/malletrain-jobs.csv (examples/sim/malletrain.py,
#             seed 19): 4,780 short trials of 244 hyper-parameter sweeps,
#             40 % of them with a declared curve, wrong for 25 %; 50 at once.
#   contested examples/sim/contested-jobs.csv (malletrain.py, seed 35, on
#             examples/sim/contested-curves.csv: eleven real curves of
#             differing rates and scalability, 40 % declared, wrong for
#             26 %), 150 at once on the first 512 nodes of the trace
#             only: more demand than idle nodes at every decision (issue
#             35; on 2,048 nodes, 50 at once, the oracle gained 0.8 %
#             over no information in 72 hours, here 25 %).
# Each under --profile oracle, online, online --no-probe, online
# --probe-contested, online --share-fits, online --voi, online --voi
# --no-probe and none.  Prints bf-sim --compare per workload, then per
# workload samples per idle node-hour and jobs finished, online over none
# beside MalleTrain's 22.3 %, and each against the oracle, then each
# run's CPU seconds, the replay's own (bf-sim --no-plot) apart from its
# plots' (gnuplot plot.gp, run after it), each mode's over the oracle's
# (issue 35, item 3: online within 2x; a time depends on the machine,
# the figures do not).  Results in bench/out/jpa (or $JPA_OUT);
# JPA_BIN names another bf-sim (a copy, so the tree may be rebuilt
# meanwhile); JPA_WORKLOADS a subset, in this order; JPA_HOURS a shorter
# window (a reduced run: say so beside its figures); JPA_NICE the nice
# level (default 10); JPA_MODES a subset of the modes (oracle online
# online-no-probe online-passive online-probe-contested online-shared
# online-voi online-voi-no-probe none), in this order; JPA_EXTRA options appended to
# every bf-sim run (e.g. JPA_EXTRA='--horizon learnt'); JPA_DRAW=K another
# draw of the same three workloads (default 0, the files above): the K-th
# window of JPA_HOURS after this one (K x 72 hours later by default, at
# most 3 on the 14.9 days of the trace), the ImageNet jobs submitted that
# much later, the sweeps and contested sets made again by malletrain.py
# with seeds 19 + 100 K and 35 + 100 K, starting with the window (their
# jobs.csv in the output; bench/jpa-draws.sh runs several).  online --probe-contested probes only where nodes
# are contested; online --voi is issue 35's advisor (bf-sim(1)): an
# honest prior, passive measurement, probes by value of information;
# --voi --no-probe the same without its probes.  online-passive
# (--passive, not in the default list) is the live default of bf-solve
# and bf-watch: passive measurement, the median prior, a new measurement
# no decision by itself (bf-solve(1), Profiles).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA=${1:-$ROOT/../shared/data}
BIN=${JPA_BIN:-$ROOT/bin/bf-sim}
WORKLOADS=${JPA_WORKLOADS:-imagenet sweeps contested}
HOURS=${JPA_HOURS:-72}
DRAW=${JPA_DRAW:-0}
SHIFT=$((DRAW * HOURS * 3600))	# seconds after BFTrainer's starting point
FROM=$(date -u -d "2021-02-10T20:21:15Z + $SHIFT seconds" +%Y-%m-%dT%H:%M:%SZ)
TO=$(date -u -d "$FROM + $HOURS hours" +%Y-%m-%dT%H:%M:%SZ)
MODES=${JPA_MODES:-oracle online online-no-probe online-probe-contested online-shared online-voi online-voi-no-probe none}
EXTRA=${JPA_EXTRA:-}
TRACE=$DATA/traces/Summit-idle-nodes-2021-02-10_24.transitions.csv.gz
CURVES=$ROOT/examples/sim/bftrainer-curves.csv
OUT=${JPA_OUT:-$ROOT/bench/out/jpa}

if [ ! -r "$TRACE" ]; then
	echo "bench/jpa.sh: $TRACE not found; skipped" >&2
	exit 0
fi
[ -x "$BIN" ] || { echo "bench/jpa.sh: build first (make)" >&2; exit 1; }
# the trace ends 1,289,437 s after its t=0; BFTrainer's start is 72,743 s
if [ $((72743 + SHIFT + HOURS * 3600)) -gt 1289437 ]; then
	echo "bench/jpa.sh: draw $DRAW of $HOURS hours ends after the trace" >&2
	exit 1
fi
rm -rf "$OUT"
mkdir -p "$OUT" || exit 1

jobset() {	# workload: the job set of this draw
	if [ "$DRAW" = 0 ]; then
		case $1 in
		imagenet) echo "$ROOT/examples/sim/bftrainer-imagenet-1001.csv" ;;
		sweeps) echo "$ROOT/examples/sim/malletrain-jobs.csv" ;;
		contested) echo "$ROOT/examples/sim/contested-jobs.csv" ;;
		esac
		return
	fi
	_f=$OUT/$1-jobs.csv
	case $1 in
	imagenet)
		awk -F, -v OFS=, -v s=$SHIFT 'NR > 1 { $3 += s } 1' \
		    "$ROOT/examples/sim/bftrainer-imagenet-1001.csv" >"$_f" ;;
	sweeps)
		python3 "$ROOT/examples/sim/malletrain.py" --seed $((19 + 100 * DRAW)) \
		    --hours $HOURS --start $((72743 + SHIFT)) "$CURVES" >"$_f" ;;
	contested)
		python3 "$ROOT/examples/sim/malletrain.py" --seed $((35 + 100 * DRAW)) \
		    --hours $HOURS --start $((72743 + SHIFT)) \
		    "$ROOT/examples/sim/contested-curves.csv" >"$_f" ;;
	esac || exit 1
	echo "$_f"
}

run() {	# name jobs max-jobs option...
	_name=$1 _jobs=$2 _max=$3 _curves=$CURVES
	shift 3
	case $_jobs in
	*contested*) _curves=$ROOT/examples/sim/contested-curves.csv ;;
	esac
	_t0=$(date +%s.%N)
	nice -n "${JPA_NICE:-10}" /usr/bin/time -f '%U %S' -o "$OUT/$_name.cpu" \
		"$BIN" --idle-trace "$TRACE" --epoch 2021-02-10T00:08:52Z \
		--from "$FROM" --to "$TO" \
		--jobs "$_jobs" --curves "$_curves" --max-jobs "$_max" -T 10 \
		-o "$OUT/$_name" --no-plot "$@" $EXTRA </dev/null || exit 1
	# the plots bf-sim would have drawn, timed apart from the replay
	echo "0 0" >"$OUT/$_name.plotcpu"
	if command -v gnuplot >/dev/null 2>&1; then
		(cd "$OUT/$_name" && nice -n "${JPA_NICE:-10}" /usr/bin/time \
		    -f '%U %S' -o ../"$_name.plotcpu" gnuplot plot.gp) ||
		    exit 1
	fi
	_t1=$(date +%s.%N)
	printf '%-30s %8.1f s wall %8.1f s cpu %8.1f s plots\n' "$_name" \
	    "$(echo "$_t1 - $_t0" | bc)" "$(cpu "$_name")" \
	    "$(cpu "$_name" plotcpu)" | tee -a "$OUT/wall.txt"
}

cpu() {	# name [plotcpu]: user + system seconds of the replay (or its plots)
	awk '{ printf "%.2f", $1 + $2 }' "$OUT/$1.${2:-cpu}"
}

val() {	# dir key
	sed -n "s/^$2: //p" "$OUT/$1/summary.yaml"
}

for w in $WORKLOADS; do
	case $w in
	imagenet)
		jobs=$(jobset imagenet) || exit 1
		max=10
		set -- ;;
	sweeps)
		jobs=$(jobset sweeps) || exit 1
		max=50
		set -- ;;
	contested)
		jobs=$(jobset contested) || exit 1
		max=150
		set -- --nodes 512 ;;
	*)	echo "bench/jpa.sh: no workload $w" >&2; exit 1 ;;
	esac
	echo "== $w: $(basename "$jobs"), at most $max at once, $HOURS hours from $FROM $*"
	names=
	for m in $MODES; do
		case $m in
		oracle)	o="--profile oracle" ;;
		online)	o="--profile online" ;;
		online-no-probe) o="--profile online --no-probe" ;;
		online-passive) o="--profile online --passive" ;;
		online-probe-contested) o="--profile online --probe-contested" ;;
		online-shared) o="--profile online --share-fits" ;;
		online-voi) o="--profile online --voi" ;;
		online-voi-no-probe) o="--profile online --voi --no-probe" ;;
		none)	o="--profile none" ;;
		*)	echo "bench/jpa.sh: no mode $m" >&2; exit 1 ;;
		esac
		run "$w-$m" "$jobs" $max $o "$@"
		names="$names $w-$m"
	done
	(cd "$OUT" && "$BIN" --compare $names)
	echo
done

echo "== samples per idle node-hour (jobs finished); online over no information beside MalleTrain's +22.3 %"
echo
header() {	# the tables' header: a column per mode, then "$@"
	printf '| workload |'
	for m in $MODES "$@"; do printf ' %s |' "$m"; done
	printf '\n| --- |'
	for m in $MODES "$@"; do printf ' ---: |'; done
	echo
}
header
for w in $WORKLOADS; do
	printf '| %s |' $w
	for m in $MODES; do
		printf ' %.0f (%s) |' "$(val $w-$m samples_per_idle_node_hour)" \
		    "$(val $w-$m jobs_finished)"
	done
	echo
done
echo
echo "| workload | mode | over none | MalleTrain | against the oracle | of the oracle's gain over none |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
for w in $WORKLOADS; do
	o=$(val $w-oracle samples_per_idle_node_hour)
	n=$(val $w-none samples_per_idle_node_hour)
	for m in $MODES; do
		[ $m = none ] && continue
		p=$(val $w-$m samples_per_idle_node_hour)
		# a share of a gain only where the oracle gains
		if [ "$(echo "$o > $n" | bc)" = 1 ]; then
			g=$(printf '%.0f %%' "$(echo "($p - $n) / ($o - $n) * 100" |
			    bc -l)")
		else
			g=-
		fi
		printf '| %s | %s | %+.1f %% | +22.3 %% | %+.1f %% | %s |\n' $w $m \
		    "$(echo "($p / $n - 1) * 100" | bc -l)" \
		    "$(echo "($p / $o - 1) * 100" | bc -l)" "$g"
	done
done
echo
ratio() {	# workload mode: its replay's CPU over the oracle's
	if [ -r "$OUT/$1-$2.cpu" ] && [ -r "$OUT/$1-oracle.cpu" ]; then
		printf '%.2f' "$(echo "$(cpu $1-$2) / $(cpu $1-oracle)" | bc -l)"
	else
		printf -- -
	fi
}
echo "== CPU seconds of each replay, bf-sim's own (user + system, --no-plot), then each mode's over the oracle's (issue 35: online within 2x)"
echo
ratios=
for m in $MODES; do
	case $m in oracle) ;; *) ratios="$ratios $m" ;; esac
done
header $(for m in $ratios; do echo "$m/oracle"; done)
for w in $WORKLOADS; do
	printf '| %s |' $w
	for m in $MODES; do
		printf ' %s |' "$(cpu $w-$m)"
	done
	for m in $ratios; do
		printf ' %s |' "$(ratio $w $m)"
	done
	echo
done
echo
echo "== CPU seconds of each replay's plots (gnuplot plot.gp, user + system)"
echo
header
for w in $WORKLOADS; do
	printf '| %s |' $w
	for m in $MODES; do
		printf ' %s |' "$(cpu $w-$m plotcpu)"
	done
	echo
done
echo; echo "Results and plots in $OUT"
