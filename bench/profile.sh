#!/bin/sh
# bench/profile.sh - bf-profile on a 1,000,000-line progress log.
#
#	bench/profile.sh [LINES]	(default 1000000)
#
# The log is resnet18 (the BFTrainer curve) reporting every ~10 s with
# 3 % noise, 5 % of the lines lost, a bad line every 10,000, and a rescale
# (18 s up, 12 s down) every ~2,000 reports over 1..64 nodes.  Prints the
# wall time and peak RSS (best of 3) and checks the profile it timed.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$ROOT/bin/bf-profile
LINES=${1:-1000000}
[ -x "$BIN" ] || { echo "bench/profile.sh: build first (make)" >&2; exit 1; }
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT

awk -v lines="$LINES" 'BEGIN {
	srand(5); split("1 2 4 8 16 32 64", counts, " ")
	split("5218.8 10582.5 20436.0 39584.0 78023.8 144762.5 262723.0", rates, " ")
	t = 1612915732; s = 0; k = 1; n = 0; it = 0
	while (n < lines) {
		if (++it % 2000 == 0) {
			printf "%d %d %.0f\n", t, counts[k], s; n++
			nk = k + (rand() < 0.5 ? -1 : 1); if (nk < 1) nk = 2; if (nk > 7) nk = 6
			t += nk > k ? 18 : 12; k = nk
		}
		dt = 9 + 2 * rand(); t += dt
		s += rates[k] * dt * (1 + 0.03 * (rand() + rand() + rand() - 1.5) * 2)
		if (it % 10000 == 5000) { print "garbage"; n++ }
		if (rand() >= 0.05) { printf "%d %d %.0f\n", t, counts[k], s; n++ }
	}
}' >"$TMP/big.log"

best=""
for i in 1 2 3; do
	/usr/bin/time -f "%e %M" -o "$TMP/time" "$BIN" "$TMP/big.log" \
	    >"$TMP/profile" 2>"$TMP/err" || { cat "$TMP/err" >&2; exit 1; }
	r=$(cat "$TMP/time")
	if [ -z "$best" ] || [ "$(echo "$r $best" | awk '{ print ($1 < $3) }')" = 1 ]; then
		best=$r
	fi
done
set -- $best
echo "bf-profile on $(uname -m), $(nproc) cores; $(date -u +%Y-%m-%dT%H:%M:%SZ)"
printf '%-44s %6s s %7s MB  (target < 1 s)\n' \
	"$(wc -l <"$TMP/big.log") lines, $(($(wc -c <"$TMP/big.log") / 1048576)) MB" "$1" \
	"$(awk -v k="$2" 'BEGIN { printf "%.1f", k / 1024 }')"
echo "profile (bad lines warned: $(wc -l <"$TMP/err")):"
sed 's/^/  /' "$TMP/profile"
