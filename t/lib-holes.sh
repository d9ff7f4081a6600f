# t/lib-holes.sh - helpers for the bf-holes tests (t1*), sourced after lib.sh.
#
#	hosts_of FILE		the node names of a holes file, one a line, sorted
#	hosts_until FILE	"NODE UNTIL" for each node of a holes file, sorted
#				by node, UNTIL 0 when the file gives none
#	event_counts FILE	replays an event stream: "TIME IDLE" per line
#	event_hosts FILE T	the idle set after replaying events up to T
#	compressed FILE		fails unless every hostlist is fully compressed
#
# The expansion is written here in awk, apart from lib/hostlist.c, so that
# the tests check the program against an independent reading.

# expand("p[1-3,05],q7", out) puts the names in out[1..n], returns n
# (one bracket group per item, as bf-holes prints).
HOSTS_AWK='
function expand(expr, out,    n, it, pre, body, r, nr, k, lo, hi, w, x) {
	n = 0
	split("", out)
	while (expr != "") {
		if (!match(expr, /^[^,[]*\[[^]]*\]/) && !match(expr, /^[^,]+/))
			exit 3
		it = substr(expr, 1, RLENGTH)
		expr = substr(expr, RLENGTH + 1)
		sub(/^,/, "", expr)
		if (it !~ /\[/) { out[++n] = it; continue }
		pre = substr(it, 1, index(it, "[") - 1)
		body = substr(it, index(it, "[") + 1)
		sub(/\]$/, "", body)
		nr = split(body, r, ",")
		for (k = 1; k <= nr; k++) {
			if (index(r[k], "-")) {
				lo = substr(r[k], 1, index(r[k], "-") - 1)
				hi = substr(r[k], index(r[k], "-") + 1)
			} else
				lo = hi = r[k]
			w = length(lo)
			for (x = lo + 0; x <= hi + 0; x++)
				out[++n] = sprintf("%s%0" w "d", pre, x)
		}
	}
	return n
}
function apply(line,    f, n, i, out) {
	split(line, f, " ")
	n = expand(substr(f[2], 2), out)
	for (i = 1; i <= n; i++) {
		if (out[i] in idle) { print "joins twice: " out[i] " at " f[1]; exit 1 }
		idle[out[i]] = 1; nidle++
	}
	n = expand(substr(f[3], 2), out)
	for (i = 1; i <= n; i++) {
		if (!(out[i] in idle)) { print "leaves, not idle: " out[i] " at " f[1]; exit 1 }
		delete idle[out[i]]; nidle--
	}
}'

hosts_of() {
	awk "$HOSTS_AWK"'
	/^  - nodes: / { n = expand(substr($0, 12), o); for (i = 1; i <= n; i++) print o[i] }' "$1" | sort
}

hosts_until() {
	awk "$HOSTS_AWK"'
	function flush(   i) { for (i = 1; i <= n; i++) print o[i], u; n = 0 }
	/^  - nodes: / { flush(); n = expand(substr($0, 12), o); u = 0; next }
	/^    until: / { u = $2 }
	END { flush() }' "$1" | sort
}

event_counts() {
	awk "$HOSTS_AWK"'{ apply($0); print $1, nidle + 0 }' "$1"
}

event_hosts() {
	awk -v t="$2" "$HOSTS_AWK"'$1 <= t + 0 { apply($0) }
	END { for (h in idle) print h }' "$1" | sort
}

compressed() {
	awk '/^  - nodes: / {
		s = substr($0, 12)
		while (match(s, /\[[^]]*\]/)) {
			body = substr(s, RSTART + 1, RLENGTH - 2)
			s = substr(s, RSTART + RLENGTH)
			nr = split(body, r, ",")
			prev = -2
			for (k = 1; k <= nr; k++) {
				split(r[k], b, "-")
				lo = b[1] + 0; hi = (2 in b) ? b[2] + 0 : lo
				if (lo <= prev + 1 || hi < lo) { print "not compressed: " body; bad = 1 }
				prev = hi
			}
		}
	} END { exit bad }' "$1"
}
