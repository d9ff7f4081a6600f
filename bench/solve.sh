#!/bin/sh
# bench/solve.sh - bf-solve's compact model (CBC), dynamic program,
# BFTrainer's per-node model and our tighter per-node model on instances
# built from the BFTrainer ImageNet job set: the first J jobs of
# bftrainer-imagenet-1001.csv with their models' BFTRAINER curves from
# scaling.csv, N nodes, 70 % of them already held.  Prints a table; not a
# test.  Figures and the command: bench/solve.md.
#
#	bench/solve.sh [SIZES]		SIZES like "10x128 20x256" (default: all)
#	PERNODE_MAX=512 bench/solve.sh	per-node runs only up to N nodes
#	TIGHT_MAX=1024 bench/solve.sh	per-node-tight runs only up to N nodes
#					(default: PERNODE_MAX)
#	PERNODE_LIMIT=120		CBC's time limit for both, seconds
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
SIZES=${*:-10x128 20x256 20x512 50x1024 100x4734}

[ -r "$JOBS_CSV" ] && [ -r "$CURVES_CSV" ] || {
	echo "bench/solve.sh: needs $JOBS_CSV and $CURVES_CSV (set BF_DATA)" >&2
	exit 69
}
[ -x "$SOLVE" ] || { echo "bench/solve.sh: build first (make)" >&2; exit 69; }
WORK=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT
[ -n "${KEEP:-}" ] && echo "instances in $WORK" >&2

# make_instance J N DIR: job files, holes.yaml and state.yaml in DIR.
make_instance() {
	mkdir -p "$3/jobs"
	awk -F, -v J="$1" -v N="$2" -v dir="$3" '
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

printf "%-9s %7s %8s %-8s %-4s %6s %7s %8s %-15s %6s %8s %-15s %6s\n" \
	jobsxnodes cbc_s cbc_in_s optimal =dp dp_s dp_in_s pernode_s \
	pernode_status ratio tight_s tight_status ratio
for size in $SIZES; do
	J=${size%x*} N=${size#*x}
	dir=$WORK/$size
	make_instance "$J" "$N" "$dir"
	tc=$(run "$dir" "$dir/cbc.plan")
	td=$(run "$dir" "$dir/dp.plan" --solver dp)
	oc=$(field "$dir/cbc.plan" objective)
	od=$(field "$dir/dp.plan" objective)
	same=$(awk -v a="$oc" -v b="$od" 'BEGIN { d = a - b; if (d < 0) d = -d;
		m = a < 0 ? -a : a; print (d <= 1e-9 * (m > 1 ? m : 1)) ? "yes" : "NO" }')
	set -- $(pernode "$dir" per-node "$PERNODE_MAX" "$tc") \
		$(pernode "$dir" per-node-tight "$TIGHT_MAX" "$tc")
	printf "%-9s %7s %8s %-8s %-4s %6s %7s %8s %-15s %6s %8s %-15s %6s\n" \
		"$size" "$tc" "$(field "$dir/cbc.plan" seconds)" \
		"$(field "$dir/cbc.plan" status)" "$same" "$td" \
		"$(field "$dir/dp.plan" seconds)" "$@"
done
