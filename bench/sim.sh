#!/bin/sh
# bench/sim.sh - bf-sim on BFTrainer's experiment: the Summit idle-node trace,
# all 4,734 nodes, the 1,001 ImageNet jobs, at most 10 at once, T_fwd 10 s.
#
#	bench/sim.sh [DATA_DIR]		(default ../shared/data)
#
# Replays from BFTrainer's starting point (the trace's 1,000th event,
# 2021-02-10T20:21:15Z) until every job has finished, under milp, dp,
# equal-share and greedy; the same over a fixed 72 hours (the same idle
# node-hours for all), and milp with --profile online over those 72 hours;
# then per-node (time limit 10 s a decision) against
# milp on one day of the first 256 nodes, where per-node is affordable.
# Prints one table per setup (bf-sim --compare) and each run's wall time.
# Results and plots stay in bench/out/sim (or $SIM_OUT).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA=${1:-$ROOT/../shared/data}
BIN=$ROOT/bin/bf-sim
TRACE=$DATA/traces/Summit-idle-nodes-2021-02-10_24.transitions.csv.gz
JOBS=$DATA/jobs/bftrainer-imagenet-1001.csv
CURVES=$DATA/scaling/scaling.csv
OUT=${SIM_OUT:-$ROOT/bench/out/sim}

for f in "$TRACE" "$JOBS" "$CURVES"; do
	if [ ! -r "$f" ]; then
		echo "bench/sim.sh: $f not found; skipped" >&2
		exit 0
	fi
done
[ -x "$BIN" ] || { echo "bench/sim.sh: build first (make)" >&2; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT" || exit 1

run() {	# name option...
	_name=$1
	shift
	_t0=$(date +%s.%N)
	"$BIN" --idle-trace "$TRACE" --epoch 2021-02-10T00:08:52Z \
		--from 2021-02-10T20:21:15Z --jobs "$JOBS" --curves "$CURVES" \
		--curve-source BFTRAINER --max-jobs 10 -T 10 \
		-o "$OUT/$_name" "$@" </dev/null || exit 1
	_t1=$(date +%s.%N)
	printf '%-22s %8.1f s wall\n' "$_name" \
		"$(echo "$_t1 - $_t0" | bc)"
}

echo "== whole Summit trace, 4,734 nodes, 1,001 jobs (until all finish)"
for p in milp dp equal-share greedy; do
	run "all-$p" --policy "$p"
done
(cd "$OUT" && "$BIN" --compare all-milp all-dp all-equal-share all-greedy)
echo
echo "== the same, the first 72 hours only (every policy still has work)"
for p in milp dp equal-share greedy; do
	run "72h-$p" --policy "$p" --to 2021-02-13T20:21:15Z
done
(cd "$OUT" && "$BIN" --compare 72h-milp 72h-dp 72h-equal-share 72h-greedy)
echo
echo "== the first 72 hours, milp: online profiling against the oracle curves"
run "72h-milp-online" --policy milp --profile online --to 2021-02-13T20:21:15Z
(cd "$OUT" && "$BIN" --compare 72h-milp 72h-milp-online)
echo
echo "== one day, first 256 nodes: per-node (CBC, 10 s limit) against milp"
for p in milp per-node; do
	run "256-$p" --policy "$p" -t 10 --nodes 256 \
		--to 2021-02-11T20:21:15Z
done
(cd "$OUT" && "$BIN" --compare 256-milp 256-per-node)
echo; echo "Results and plots in $OUT"
