#!/bin/sh
# bench/solve.sh - bf-solve's compact model (CBC), dynamic program,
# BFTrainer's per-node model and our tighter per-node model on instances
# built from the BFTrainer ImageNet job set: the first J jobs of
# bftrainer-imagenet-1001.csv with their models' BFTRAINER curves from
# scaling.csv, N nodes, 70 % of them already held.  Prints a table; not a
# test.  Figures and the command: bench/solve.md.
#
#	bench/solve.sh [SIZES]		SIZES like "10x128 20x256" (default: all);
#					JxN+p: the same with a policy (20 users'
#					caps, a group share, max_rescales);
#					JxN+rS: a random policy of seed S
#	REPEAT=3 bench/solve.sh		cbc and dp times: the median of 3 runs
#	PERNODE_MAX=512 bench/solve.sh	per-node runs only up to N nodes
#	TIGHT_MAX=1024 bench/solve.sh	per-node-tight runs only up to N nodes
#					(default: PERNODE_MAX)
#	PERNODE_LIMIT=120		CBC's time limit for both, seconds
#	LIMIT=10			the compact model's (bf-solve -t): the
#					decision's time limit, seconds
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA=${BF_DATA:-$ROOT/../shared/data}
JOBS_CSV=$DATA/jobs/bftrainer-imagenet-1001.csv
CURVES_CSV=$DATA/scaling/scaling.csv
SOLVE=$ROOT/bin/bf-solve
TFWD=${TFWD:-10}
PERNODE_MAX=${PERNODE_MAX:-512}
TIGHT_MAX=${TIGHT_MAX:-$PERNODE_MAX}
PERNODE_LIMIT=${PERNODE_LIMIT:-120}
LIMIT=${LIMIT:-10}
REPEAT=${REPEAT:-1}
SIZES=${*:-10x128 20x256 20x512 50x1024 100x4734 500x10624 1000x10624 1000x10624+p}

[ -r "$JOBS_CSV" ] && [ -r "$CURVES_CSV" ] || {
	echo "bench/solve.sh: needs $JOBS_CSV and $CURVES_CSV (set BF_DATA)" >&2
	exit 69
}
[ -x "$SOLVE" ] || { echo "bench/solve.sh: build first (make)" >&2; exit 69; }
WORK=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT
[ -n "${KEEP:-}" ] && echo "instances in $WORK" >&2

# make_instance J N DIR [POLICY]: job files, holes.yaml and state.yaml in
# DIR; with POLICY (1), job J owned by uid 1000 + J % 20 and DIR/policy.yaml:
# user U capped at N/20 (0.8 + 0.02 (U - 1000)) nodes (0.99 N in all), the
# first J/50 jobs a group of at least 30 nodes each, at most J/25 rescales.
# The instance is the same with and without POLICY but for the owners.
make_instance() {
	mkdir -p "$3/jobs"
	awk -F, -v J="$1" -v N="$2" -v dir="$3" -v pol="${4:-0}" '
	# An admin policy drawn at random from seed pol (>= 2), after the
	# state: U users owning the jobs unevenly (job files rewritten with
	# owners), three in four capped at 0.5 to 1.5 times what they hold
	# plus up to N/U, weights on some users and jobs, one to three groups
	# of random jobs whose min_nodes is 40 to 90 % of what their jobs and
	# their owners caps allow, and a rescale limit of 2 to 12 % of the
	# jobs.
	function random_policy(n, N, dir, seed,   U, u, i, f, g, ng, m, c, r, lim, own, cap, gh, ing, sep) {
		srand(seed)
		U = 5 + int(rand() * 36)
		for (i = 1; i <= n; i++) {
			own[i] = int(U * rand() * rand())
			gh[own[i]] += cnt[i]
		}
		for (i = 1; i <= n; i++) {
			f = dir "/jobs/" name[i] ".yaml"
			printf "owner: {uid: %d}\n", 1000 + own[i] >>f
			close(f)
		}
		f = dir "/policy.yaml"
		printf "users:\n" >f
		for (u = 0; u < U; u++) {
			cap[u] = rand() < 0.75 ? int(gh[u] * (0.5 + rand()) + rand() * N / U) : -1
			sep = ""
			printf "  %d: {", 1000 + u >f
			if (cap[u] >= 0) {
				printf "max_nodes: %d", cap[u] >f
				sep = ", "
			}
			if (cap[u] < 0 || rand() < 0.4)
				printf "%sweight: %s", sep, (rand() < 0.3 ? 0.5 : 1 + int(rand() * 3)) >f
			printf "}\n" >f
		}
		printf "jobs:\n" >f
		for (i = 1; i <= n; i++)
			if (rand() < 0.1)
				printf "  %s: {weight: %s}\n", name[i], 0.5 + int(rand() * 8) / 2 >f
		ng = 1 + int(rand() * 3)
		printf "groups:\n" >f
		for (g = 0; g < ng; g++) {
			m = 3 + int(rand() * (n / 20 > 3 ? n / 20 - 2 : 1))
			printf "  g%d: {jobs: [", g >f
			c = 0; lim = 0
			delete ing
			for (r = 0; r < m; r++) {
				i = 1 + int(rand() * n)
				if (i in ing) continue
				ing[i] = 1
				printf "%s%s", (c++ ? ", " : ""), name[i] >f
				lim += (cap[own[i]] >= 0 && cap[own[i]] < hi[i]) ? cap[own[i]] : hi[i]
			}
			printf "], min_nodes: %d}\n", int(lim * (0.4 + 0.5 * rand())) >f
		}
		printf "max_rescales: %d\n", 1 + int(n * (0.02 + 0.1 * rand())) >f
		close(f)
	}
	FNR == 1 { next }
	FILENAME == ARGV[1] && $5 == "BFTRAINER" {
		m = $1; sub(/-ImageNet$/, "", m)
		pts[m] = pts[m] sprintf("  %d: %s\n", $2, $3); next
	}
	FILENAME == ARGV[2] && n < J {
		n++; name[n] = $1; model[n] = $2; lo[n] = $4; hi[n] = $5
		work[n] = $6; up[n] = $7; down[n] = $8
	}
	END {
		srand(J * 100003 + N)
		for (i = 1; i <= n; i++) {
			f = dir "/jobs/" name[i] ".yaml"
			printf "name: %s\ncommand: train\nmin_nodes: %d\nmax_nodes: %d\n" \
			    "rescale_up: %s\nrescale_down: %s\nsamples: %s\nscaling:\n%s", \
			    name[i], lo[i], hi[i], up[i], down[i], work[i], pts[model[i]] >f
			if (pol == 1)
				printf "owner: {uid: %d}\n", 1000 + i % 20 >f
			close(f)
		}
		if (pol == 1) {
			f = dir "/policy.yaml"
			printf "users:\n" >f
			for (u = 0; u < 20; u++)
				printf "  %d: {max_nodes: %d}\n", 1000 + u,
				    int(N / 20 * (0.8 + 0.02 * u)) >f
			g = int(n / 50); if (g < 1) g = 1
			printf "groups:\n  share: {jobs: [" >f
			for (i = 1; i <= g; i++)
				printf "%s%s", (i > 1 ? ", " : ""), name[i] >f
			printf "], min_nodes: %d}\n", 30 * g >f
			r = int(n / 25); if (r < 1) r = 1
			printf "max_rescales: %d\n", r >f
			close(f)
		}
		# Nodes n00001..: about a third without until, the rest reclaimed
		# within the hour.
		f = dir "/holes.yaml"
		printf "time: 1612915732\nsource: bench\nidle:\n" >f
		for (k = 1; k <= N; k++) {
			printf "  - nodes: n%05d\n", k >f
			if (rand() < 0.66)
				printf "    until: %d\n", 1612915732 + int(rand() * 3600) + 1 >f
		}
		# 70 % of the nodes held, dealt at random to jobs below their max.
		want = int(0.7 * N); held = 0
		for (k = 1; k <= N && held < want; k++) {
			for (t = 0; t < 50; t++) {
				i = 1 + int(rand() * n)
				if (cnt[i] < hi[i]) break
			}
			if (cnt[i] >= hi[i]) continue
			cnt[i]++; hosts[i] = hosts[i] (cnt[i] > 1 ? "," : "") sprintf("n%05d", k)
			held++
		}
		if (pol >= 2)
			random_policy(n, N, dir, pol)
		f = dir "/state.yaml"
		printf "time: 1612915700\njobs:\n" >f
		for (i = 1; i <= n; i++)
			if (cnt[i] > 0)
				printf "  %s: {nodes: %d, hosts: \"%s\"}\n", name[i], cnt[i], hosts[i] >f
	}' "$CURVES_CSV" "$JOBS_CSV"
}

now() { date +%s.%N; }

# run DIR OUT ARGS...: whole-process wall seconds on stdout.
run() {
	_dir=$1 _out=$2
	shift 2
	_t0=$(now)
	"$SOLVE" -T "$TFWD" "$@" -s "$_dir/state.yaml" "$_dir/holes.yaml" "$_dir"/jobs/*.yaml \
		>"$_out" 2>"$_out.err" || echo "bf-solve failed: $(cat "$_out.err")" >&2
	_t1=$(now)
	echo "$_t0 $_t1" | awk '{ printf "%.3f", $2 - $1 }'
}

field() {	# plan key
	sed -n "s/.*[{ ]$2: \([^,}]*\).*/\1/p" "$1" | head -1
}

# pernode DIR MODEL MAX TC: "seconds status ratio" of one per-node model,
# the ratio to the compact model's TC seconds; ">=" when CBC was stopped.
pernode() {
	[ "$N" -le "$3" ] || { echo "- not_run -"; return; }
	_t=$(run "$1" "$1/$2.plan" --model "$2" -t "$PERNODE_LIMIT")
	_s=$(field "$1/$2.plan" status | tr -d '"')
	_o=$(field "$1/$2.plan" objective)
	case $_s in
	optimal) _ge= ;;
	stopped*) _ge=">=" _s=time_limit ;;
	*) _ge="?" _s=failed ;;
	esac
	_s="$_s,$(awk -v a="$_o" -v b="$od" 'BEGIN { d = a - b; if (d < 0) d = -d;
		m = a < 0 ? -a : a; print (d <= 1e-9 * (m > 1 ? m : 1)) ? "=dp" : "!=dp" }')"
	echo "$_t $_s $_ge$(awk -v a="$_t" -v b="$4" 'BEGIN { printf "%.0f", a / b }')"
}

# timed DIR OUT ARGS...: the median whole-process seconds of REPEAT runs.
timed() {
	_i=0 _ts=
	while [ "$_i" -lt "$REPEAT" ]; do
		_ts="$_ts $(run "$@")"
		_i=$((_i + 1))
	done
	echo $_ts | tr ' ' '\n' | sort -n | awk '{ t[NR] = $1 }
		END { printf "%.3f", NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
}

# cbc/dp: the whole process of bf-solve (CBC) against bf-solve --solver dp
# on the same instance (with a policy, the DP runs without it: it takes no
# policy rows, and its optimum is then a bound, "<=dp" when the plan is
# within it).
printf "%-12s %7s %8s %-8s %-5s %6s %7s %6s %8s %-15s %6s %8s %-15s %6s\n" \
	jobsxnodes cbc_s cbc_in_s status =dp dp_s dp_in_s cbc/dp pernode_s \
	pernode_status ratio tight_s tight_status ratio
for size in $SIZES; do
	J=${size%x*} N=${size#*x} P=
	case $N in
	*+p) N=${N%+p} P=1 ;;
	*+r*) P=$((${N#*+r} + 2)) N=${N%+r*} ;;
	esac
	dir=$WORK/$size
	make_instance "$J" "$N" "$dir" "$P"
	if [ -n "$P" ]; then
		tc=$(timed "$dir" "$dir/cbc.plan" -t "$LIMIT" \
			--policy "$dir/policy.yaml")
	else
		tc=$(timed "$dir" "$dir/cbc.plan" -t "$LIMIT")
	fi
	td=$(timed "$dir" "$dir/dp.plan" --solver dp)
	oc=$(field "$dir/cbc.plan" objective)
	od=$(field "$dir/dp.plan" objective)
	same=$(awk -v a="$oc" -v b="$od" -v p="$P" 'BEGIN { d = a - b; if (d < 0) d = -d;
		m = a < 0 ? -a : a; e = 1e-9 * (m > 1 ? m : 1)
		if (p >= 2) print "-"; else if (p) print a <= b + e ? "<=dp" : "NO"; else print d <= e ? "yes" : "NO" }')
	if [ -n "$P" ]; then
		set -- - not_run - - not_run -
	else
		set -- $(pernode "$dir" per-node "$PERNODE_MAX" "$tc") \
			$(pernode "$dir" per-node-tight "$TIGHT_MAX" "$tc")
	fi
	printf "%-12s %7s %8s %-8s %-5s %6s %7s %6s %8s %-15s %6s %8s %-15s %6s\n" \
		"$size" "$tc" "$(field "$dir/cbc.plan" seconds)" \
		"$(field "$dir/cbc.plan" status)" "$same" "$td" \
		"$(field "$dir/dp.plan" seconds)" \
		"$(awk -v a="$tc" -v b="$td" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')" "$@"
done
