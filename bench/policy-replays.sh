#!/bin/sh
# bench/policy-replays.sh - random admin policies on bench/jpa.sh's
# replays (issue 34, item 1): are the decisions still proven optimal,
# and how long do they take, beside the same replay without a policy.
#
#	bench/policy-replays.sh [DATA_DIR]	(default ../shared/data)
#
# bench/jpa.sh's three workloads and window (the Summit trace, the 72
# hours from BFTrainer's starting point, milp, T_fwd 10 s): imagenet (10
# jobs at once), sweeps (50) and contested (150 on 512 nodes), each under
# bench/jpa.sh's mode oracle (POLICY_MODE online-passive, bf-solve's live
# default, or none, another), once without a policy and
# once per seed in POLICY_SEEDS (default "1 2 3 4") with the random policy
# of that seed, drawn as bench/solve.sh's JxN+rS are but scaled to a
# replay, where the jobs come and go:
#   - 5 to 40 users owning the jobs unevenly (an owner column added to a
#     copy of the jobs CSV, uids 1000 up);
#   - three in four users capped at 0.25 to 1.25 times the nodes their
#     share of the jobs would hold with every slot running at its mean
#     max_nodes, plus 1;
#   - weights on some users and on a tenth of the jobs;
#   - one to three groups, each of 2 to 5 % of the jobs, whose min_nodes
#     is 40 to 90 % of what their share of the slots would hold at max
#     (bf-solve lowers it to what the group's present jobs can reach);
#   - a rescale limit of 2 to 12 % of the slots, at least 1.
# The draws are mawk's (Debian's awk): another awk draws other policies.
# Prints per workload and seed the decisions, their median, p99 and
# maximum seconds, how many were not proven optimal and how many had no
# plan (the policy's rows could not all be met: bf-watch's give-back plan,
# bf-sim(1)), samples per idle node-hour, and the maximum of the same
# replay without a policy.  Figures: bench/solve.md.  Results in
# bench/out/policy-replays (or $POLICY_OUT); POLICY_WORKLOADS a subset;
# POLICY_HOURS a shorter window (a reduced run: say so); POLICY_BIN
# another bf-sim; POLICY_NICE the nice level (default 10).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA=${1:-$ROOT/../shared/data}
BIN=${POLICY_BIN:-$ROOT/bin/bf-sim}
WORKLOADS=${POLICY_WORKLOADS:-imagenet sweeps contested}
SEEDS=${POLICY_SEEDS:-1 2 3 4}
HOURS=${POLICY_HOURS:-72}
case ${POLICY_MODE:-oracle} in
oracle)	PROFILE="--profile oracle" ;;
online-passive) PROFILE="--profile online --passive" ;;
none)	PROFILE="--profile none" ;;
*)	echo "bench/policy-replays.sh: POLICY_MODE oracle, online-passive or none" >&2
	exit 64 ;;
esac
TRACE=$DATA/traces/Summit-idle-nodes-2021-02-10_24.transitions.csv.gz
OUT=${POLICY_OUT:-$ROOT/bench/out/policy-replays}
FROM=2021-02-10T20:21:15Z
TO=$(date -u -d "$FROM + $HOURS hours" +%Y-%m-%dT%H:%M:%SZ)

if [ ! -r "$TRACE" ]; then
	echo "bench/policy-replays.sh: $TRACE not found; skipped" >&2
	exit 0
fi
[ -x "$BIN" ] || { echo "bench/policy-replays.sh: build first (make)" >&2; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT" || exit 1

# draw JOBS_CSV SLOTS SEED: OUT/w-SEED-jobs.csv (with owners) and
# OUT/w-SEED-policy.yaml
draw() {
	awk -F, -v OFS=, -v M="$2" -v seed="$3" -v jobs_out="$4" \
	    -v pol_out="$5" '
	NR == 1 { print $0, "owner" >jobs_out; next }
	{ n++; row[n] = $0; name[n] = $1; hi[n] = $5; sumhi += $5 }
	END {
		srand(seed)
		U = 5 + int(rand() * 36)
		for (i = 1; i <= n; i++) {
			own[i] = int(U * rand() * rand())
			cnt[own[i]]++
			print row[i], 1000 + own[i] >jobs_out
		}
		mean = sumhi / n
		printf "users:\n" >pol_out
		for (u = 0; u < U; u++) {
			cap[u] = rand() < 0.75 ? 1 + int(cnt[u] / n * M * mean * (0.25 + rand())) : -1
			sep = ""
			printf "  %d: {", 1000 + u >pol_out
			if (cap[u] >= 0) {
				printf "max_nodes: %d", cap[u] >pol_out
				sep = ", "
			}
			if (cap[u] < 0 || rand() < 0.4)
				printf "%sweight: %s", sep, (rand() < 0.3 ? 0.5 : 1 + int(rand() * 3)) >pol_out
			printf "}\n" >pol_out
		}
		nw = 0	# "jobs:" only with a job under it: empty is no mapping
		for (i = 1; i <= n; i++)
			if (rand() < 0.1)
				printf "%s  %s: {weight: %s}\n", (nw++ ? "" : "jobs:\n"), name[i], 0.5 + int(rand() * 8) / 2 >pol_out
		ng = 1 + int(rand() * 3)
		printf "groups:\n" >pol_out
		for (g = 0; g < ng; g++) {
			m = int(n * (0.02 + 0.03 * rand()))
			if (m < 1) m = 1
			printf "  g%d: {jobs: [", g >pol_out
			c = 0
			delete ing
			for (r = 0; r < m; r++) {
				i = 1 + int(rand() * n)
				if (i in ing) continue
				ing[i] = 1
				printf "%s%s", (c++ ? ", " : ""), name[i] >pol_out
			}
			printf "], min_nodes: %d}\n", 1 + int(c / n * M * mean * (0.4 + 0.5 * rand())) >pol_out
		}
		printf "max_rescales: %d\n", 1 + int(M * (0.02 + 0.1 * rand())) >pol_out
	}' "$1"
}

run() {	# name jobs curves slots option...
	_name=$1 _jobs=$2 _curves=$3 _max=$4
	shift 4
	nice -n "${POLICY_NICE:-10}" "$BIN" --idle-trace "$TRACE" \
	    --epoch 2021-02-10T00:08:52Z --from "$FROM" --to "$TO" \
	    --jobs "$_jobs" --curves "$_curves" --max-jobs "$_max" -T 10 \
	    $PROFILE -o "$OUT/$_name" --no-plot "$@" </dev/null ||
	    exit 1
}

val() {	# dir key [sub]
	if [ $# = 3 ]; then
		sed -n "/^$2:/,/^[^ ]/s/^  $3: //p" "$OUT/$1/summary.yaml"
	else
		sed -n "s/^$2: //p" "$OUT/$1/summary.yaml"
	fi
}

echo "| workload | policy | decisions | median s | p99 s | max s | not optimal | no plan | samples / idle node-hour | max s without |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for w in $WORKLOADS; do
	curves=$ROOT/examples/sim/bftrainer-curves.csv
	set --
	case $w in
	imagenet) jobs=$ROOT/examples/sim/bftrainer-imagenet-1001.csv; max=10 ;;
	sweeps) jobs=$ROOT/examples/sim/malletrain-jobs.csv; max=50 ;;
	contested)
		jobs=$ROOT/examples/sim/contested-jobs.csv; max=150
		curves=$ROOT/examples/sim/contested-curves.csv
		set -- --nodes 512 ;;
	*)	echo "bench/policy-replays.sh: no workload $w" >&2; exit 1 ;;
	esac
	run "$w-none" "$jobs" "$curves" "$max" "$@"
	base=$(val "$w-none" decision_seconds max)
	printf '| %s | none | %s | %s | %s | %s | - | - | %s | %s |\n' "$w" \
	    "$(val "$w-none" events)" \
	    "$(val "$w-none" decision_seconds median)" \
	    "$(val "$w-none" decision_seconds p99)" "$base" \
	    "$(val "$w-none" samples_per_idle_node_hour)" "$base"
	for s in $SEEDS; do
		draw "$jobs" "$max" "$s" "$OUT/$w-r$s-jobs.csv" \
		    "$OUT/$w-r$s-policy.yaml"
		run "$w-r$s" "$OUT/$w-r$s-jobs.csv" "$curves" "$max" "$@" \
		    --admin-policy "$OUT/$w-r$s-policy.yaml"
		printf '| %s | r%s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
		    "$w" "$s" "$(val "$w-r$s" events)" \
		    "$(val "$w-r$s" decision_seconds median)" \
		    "$(val "$w-r$s" decision_seconds p99)" \
		    "$(val "$w-r$s" decision_seconds max)" \
		    "$(val "$w-r$s" decisions_not_optimal)" \
		    "$(val "$w-r$s" decisions_no_plan)" \
		    "$(val "$w-r$s" samples_per_idle_node_hour)" "$base"
	done
done
