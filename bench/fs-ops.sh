#!/bin/sh
# bench/fs-ops.sh - what a spool's file operations cost on each file
# system given (bench/fs-ops: a create after replaces, a rename over a
# file, a delivery with its two fsyncs), with the ratio of each to the
# first file system's, the baseline (default: tmpfs, /dev/shm).  Not a
# test.  Figures and the command: bench/watch.md.
#
#	bench/fs-ops.sh				/dev/shm and TMPDIR (/tmp)
#	bench/fs-ops.sh DIR ...			those, the first the baseline
#	N=4000 bench/fs-ops.sh			more operations a phase
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OPS=$ROOT/bench/fs-ops
N=${N:-1000}
[ -x "$OPS" ] || {
	echo "bench/fs-ops.sh: build first (make bench/fs-ops)" >&2
	exit 69
}
[ $# -gt 0 ] || set -- /dev/shm "${TMPDIR:-/tmp}"

# The journal of DIR's file system: "jbd2" when ext4 has one, "none" when
# ext4 has not, "-" for others; and whether it discards online.
journal() {
	src=$(findmnt -n -o SOURCE -T "$1" 2>/dev/null)
	case $(stat -f -c %T "$1") in
	ext2/ext3)
		if ls -d /proc/fs/jbd2/"$(basename "$src")"-* >/dev/null 2>&1
		then echo jbd2; else echo none; fi ;;
	*) echo - ;;
	esac
}
discard() {
	findmnt -n -o OPTIONS -T "$1" | tr , '\n' | grep -qx discard &&
		echo yes || echo no
}

printf '%-12s %-10s %-7s %-7s %-10s %-10s %-10s %-10s %s\n' dir fs journal \
	discard create_us replace_us rename_us deliver_us "ratios to $1"
base=
for d in "$@"; do
	w=$(mktemp -d "$d/fs-ops.XXXXXX") || exit 73
	# shellcheck disable=SC2046	# its four figures, split
	set -- $("$OPS" "$w" "$N")
	rm -rf "$w"
	[ $# -eq 4 ] || exit 70
	# replace_us: a replace's create and rename together.
	rep=$(awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a + b }')
	[ -n "$base" ] || base="$3 $rep $2 $4"
	printf '%-12s %-10s %-7s %-7s %-10s %-10s %-10s %-10s %s\n' "$d" \
		"$(stat -f -c %T "$d")" "$(journal "$d")" "$(discard "$d")" \
		"$3" "$rep" "$2" "$4" "$(echo "$base" | awk -v c="$3" \
		-v r="$rep" -v n="$2" -v v="$4" '{ printf "%.1f %.1f %.1f %.1f",
		c / $1, r / $2, n / $3, v / $4 }')"
done
