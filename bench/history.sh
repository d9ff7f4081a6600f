#!/bin/sh
# bench/history.sh - bf-profile -d against a long allocation history.
#
#	bench/history.sh [PLANS]	(default 20000)
#
# A spool with 10 jobs and PLANS enacted plans in history/ (one every
# 30 s, as a daemon deciding twice a minute leaves in a week), each with
# its manifest and enacted time.  Every plan gives the 10 jobs one of
# three allocations, made by bf-solve, in turn for ten plans each (plans
# that repeat an allocation still count: they are read).  Times
# bf-profile -d (wall clock, date +%s%N around /usr/bin/time), best of 3,
# with peak RSS:
#   - every log with explicit NODES: history is not read;
#   - one log (j00, one report per plan) with NODES "-": history is read
#     once, for all ten jobs;
#   - the same through history/allocs.idx, the index bf-apply appends
#     to (written here as bf-apply writes it), and the ratio to the
#     reading of every plan (the way before the index: the baseline);
#   - a job that reported over the last 100 plans only, with the index;
#   - the same with history/ empty: profiling alone.
# BASELINE_BIN=/path/to/older/bf-profile adds its figures for both
# cases, and the ratio for the "-" one, against an older build.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$ROOT/bin
PLANS=${1:-20000}
[ -x "$BIN/bf-profile" ] || { echo "bench/history.sh: build first (make)" >&2; exit 1; }
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
SP=$TMP/sp

"$BIN/bf-submit" -d "$SP" /dev/null 2>/dev/null
for i in 0 1 2 3 4 5 6 7 8 9; do
	printf 'name: j0%s\ncommand: "true"\nmax_nodes: 8\nscaling:\n  1: 100\n  2: 190\n  4: 350\n  8: 600\n' \
	    "$i" >"j0$i.yaml"
done
"$BIN/bf-submit" -d "$SP" j0*.yaml >/dev/null &&
    "$BIN/bf-submit" --intake -d "$SP" 2>/dev/null || exit 1

# Three allocations of the ten jobs: 20, 40 and 80 idle nodes.
for n in 20 40 80; do
	printf 'time: 1700000000\nsource: bench\nidle:\n  - nodes: "n[001-%03d]"\n' \
	    "$n" >"h$n.yaml"
	"$BIN/bf-solve" "h$n.yaml" "$SP"/jobs/*.yaml >"p$n" 2>/dev/null ||
	    { echo "bench/history.sh: bf-solve failed" >&2; exit 1; }
done

# PLANS plans, one every 30 s, cycling through the three; enacted 2 s
# after their time.
awk -v plans="$PLANS" -v dir="$SP/history" -v idx="$TMP/allocs.idx" '
function load(f, a,   line, n) { n = 0; while ((getline line <f) > 0) a[++n] = line; close(f); return n }
function counts(a, n,   l, s, name, k) {	# " NAME=K", jobs with nodes
	s = ""
	for (l = 1; l <= n; l++)
		if (a[l] ~ /^  [^ ]*: \{nodes: [1-9]/) {
			name = a[l]; sub(/^  /, "", name); sub(/:.*/, "", name)
			k = a[l]; sub(/.*\{nodes: /, "", k); sub(/,.*/, "", k)
			s = s " " name "=" k
		}
	return s
}
BEGIN {
	na = load("p20", A); nb = load("p40", B); nc = load("p80", C)
	JA = counts(A, na); JB = counts(B, nb); JC = counts(C, nc)
	print "# bftrainer allocation index 1" >idx
	for (i = 0; i < plans; i++) {
		t = 1700000000 + 30 * i
		stem = sprintf("%d-%016x", t, i)
		f = dir "/" stem ".yaml"
		k = int(i / 10) % 3
		n = k == 0 ? na : k == 1 ? nb : nc
		for (l = 1; l <= n; l++) {
			line = k == 0 ? A[l] : k == 1 ? B[l] : C[l]
			if (l == 1) line = "time: " t
			print line >f
		}
		close(f)
		m = dir "/" stem ".inputs.yaml"
		printf "plan: \"xxh3:%016x\"\nenacted: %d.000000\n", i, t + 2 >m
		close(m)
		# Its line in the index, as bf-apply appends it (bf-spool(5)).
		printf "%d.000000 %s%s\n", t + 2, stem, k == 0 ? JA : k == 1 ? JB : JC >idx
	}
}' || exit 1

# j00 reports once per plan, 10 s after it was enacted; the others report
# explicit node counts.
awk -v plans="$PLANS" 'BEGIN {
	for (i = 0; i < plans; i++) printf "%d - %d\n", 1700000012 + 30 * i, 1000 * i
}' >dash.log
for i in 1 2 3 4 5 6 7 8 9; do
	printf '1700000000 1 0\n1700000100 1 10000\n1700000200 1 20000\n' \
	    >"$SP/progress/j0$i.log"
done
printf '1700000000 1 0\n1700000100 1 10000\n1700000200 1 20000\n' >plain.log

best() {	# label bin spool
	_b=""
	for _i in 1 2 3; do
		_t0=$(date +%s%N)
		/usr/bin/time -f "%M" -o time "$2" -d "$3" 2>err >/dev/null ||
		    { cat err >&2; exit 1; }
		_t1=$(date +%s%N)
		_r="$(awk -v a="$_t0" -v b="$_t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }') $(tail -n 1 time)"
		if [ -z "$_b" ] || [ "$(echo "$_r $_b" | awk '{ print ($1 < $3) }')" = 1 ]; then
			_b=$_r
		fi
	done
	set -- "$1" $_b
	printf '%-52s %7s s %7s MB\n' "$1" "$2" \
	    "$(awk -v k="$3" 'BEGIN { printf "%.1f", k / 1024 }')"
	echo "$2" >"last.s"
}

echo "bf-profile -d on $(uname -m), $(nproc) cores; $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "$PLANS plans in history/ ($(du -sm "$SP/history" | cut -f1) MB), 10 jobs"
cp plain.log "$SP/progress/j00.log"
best "explicit NODES in every log" "$BIN/bf-profile" "$SP"
if [ -n "${BASELINE_BIN:-}" ]; then
	best "BASELINE_BIN, explicit NODES" "$BASELINE_BIN" "$SP"
fi
cp dash.log "$SP/progress/j00.log"
best "j00's $PLANS reports with NODES \"-\", no index" "$BIN/bf-profile" "$SP"
full=$(cat last.s)
cp "$SP/profiles/j00.yaml" full.yaml
cp "$TMP/allocs.idx" "$SP/history/allocs.idx"
best "the same, history/allocs.idx" "$BIN/bf-profile" "$SP"
with=$(cat last.s)
sed -n '/^points:/,/^[a-z]/p' "$SP/profiles/j00.yaml" | sed 's/^/    /'
cmp -s full.yaml "$SP/profiles/j00.yaml" && echo "    the same profile either way" ||
    echo "    PROFILES DIFFER"
# A job of the last 100 plans only: its log is short, the history not.
awk -v plans="$PLANS" 'BEGIN {
	for (i = plans - 100; i < plans; i++) printf "%d - %d\n", 1700000012 + 30 * i, 1000 * i
}' >"$SP/progress/j00.log"
best "j00 reporting over the last 100 plans, index" "$BIN/bf-profile" "$SP"
recent=$(cat last.s)
cp dash.log "$SP/progress/j00.log"
mv "$SP/history" hist.saved && mkdir "$SP/history"
best "the same, history/ empty (baseline)" "$BIN/bf-profile" "$SP"
without=$(cat last.s)
rm -r "$SP/history" && mv hist.saved "$SP/history"
awk -v a="$with" -v f="$full" -v b="$without" 'BEGIN {
	printf "reading the history, index: %.3f s, %.2f us a plan\n", a - b, (a - b) * 1e6 / '"$PLANS"'
	printf "reading the history, every plan (the old way, the baseline): %.3f s, %.1f us a plan\n", f - b, (f - b) * 1e6 / '"$PLANS"'
	if (f > 0) printf "ratio index / every plan: %.3f\n", a / f }'
if [ -n "${BASELINE_BIN:-}" ]; then
	best "BASELINE_BIN, NODES \"-\"" "$BASELINE_BIN" "$SP"
	awk -v a="$with" -v b="$(cat last.s)" 'BEGIN {
		printf "ratio this build / BASELINE_BIN: %.2f\n", a / b }'
fi
