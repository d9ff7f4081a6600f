#!/bin/sh
# bench/holes.sh - bf-holes on the real traces: wall time and peak RSS.
#
#	bench/holes.sh [TRACES_DIR]	(default ../shared/data/traces)
#
# Prints one row per case; each time is the best of 3 runs.  Also checks
# the Summit event stream against the trace's own idle-count file (the
# count after each event must match), so the figures are for a right answer.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA=${1:-$ROOT/../shared/data/traces}
BIN=$ROOT/bin/bf-holes
THETA=$DATA/ALCF-Theta-2022.swf.gz
SUMMIT=$DATA/Summit-idle-nodes-2021-02-10_24.transitions.csv.gz
COUNTS=$DATA/Summit-idle-nodes-2021-02-10_24.idle_count.csv
EPOCH=2021-02-10T00:08:52

if [ ! -r "$THETA" ] || [ ! -r "$SUMMIT" ]; then
	echo "bench/holes.sh: traces not found in $DATA; skipped" >&2
	exit 0
fi
[ -x "$BIN" ] || { echo "bench/holes.sh: build first (make)" >&2; exit 1; }
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT

# best of 3: "seconds maxrss_kB"
measure() {
	best=""
	for i in 1 2 3; do
		/usr/bin/time -f "%e %M" -o "$TMP/time" "$@" >"$TMP/out" 2>"$TMP/err" ||
			{ cat "$TMP/err" >&2; echo "FAILED: $*" >&2; exit 1; }
		r=$(cat "$TMP/time")
		if [ -z "$best" ] || [ "$(echo "$r $best" | awk '{ print ($1 < $3) }')" = 1 ]; then
			best=$r
		fi
	done
	echo "$best"
}

row() {	# label target command...
	label=$1 target=$2; shift 2
	set -- $(measure "$@")
	printf '%-48s %6s s %9s MB  (target < %s s)  %s\n' "$label" "$1" \
		"$(awk -v k="$2" 'BEGIN { printf "%.1f", k / 1024 }')" "$target" \
		"$(wc -l <"$TMP/out") lines"
}

echo "bf-holes on $(uname -m), $(nproc) cores; $(date -u +%Y-%m-%dT%H:%M:%SZ)"
row "Theta 2022 SWF (23,911 jobs) at one time" 0.5 \
	"$BIN" --swf "$THETA" --at 2022-12-15T00:00:00Z
row "Theta 2022 SWF event stream, whole year" 5 \
	"$BIN" --events --swf "$THETA" --from 2022-01-01T00:00:00Z --to 2023-01-01T00:00:00Z
row "Summit trace (846,856 transitions) at one time" 1 \
	"$BIN" --idle-trace "$SUMMIT" --epoch $EPOCH --at 2021-02-24T22:19:29Z
row "Summit trace full event stream" 3 \
	"$BIN" --events --idle-trace "$SUMMIT" --epoch $EPOCH --from 2021-02-10T00:08:52Z --to 2021-02-25T00:00:00Z

# The stream's running count after each event against idle_count.csv.
"$BIN" --events --idle-trace "$SUMMIT" --from 0 --to 99999999 >"$TMP/ev" || exit 1
awk '
function count(s,    n, it, body, r, nr, k, a) {
	n = 0
	while (s != "") {
		if (!match(s, /^[^,[]*\[[^]]*\]/) && !match(s, /^[^,]+/)) exit 3
		it = substr(s, 1, RLENGTH); s = substr(s, RLENGTH + 1); sub(/^,/, "", s)
		if (it !~ /\[/) { n++; continue }
		body = substr(it, index(it, "[") + 1); sub(/\]$/, "", body)
		nr = split(body, r, ",")
		for (k = 1; k <= nr; k++)
			if (split(r[k], a, "-") == 2) n += a[2] - a[1] + 1; else n++
	}
	return n
}
FILENAME == ARGV[1] { c += count(substr($2, 2)) - count(substr($3, 2)); got[$1] = c; next }
FNR > 1 { split($0, f, ","); want++; if (!(f[1] in got) || got[f[1]] != f[2]) bad++ }
END {
	printf "check: %d events in idle_count.csv, %d differ from the stream\n", want, bad
	exit bad > 0
}' "$TMP/ev" "$COUNTS"
