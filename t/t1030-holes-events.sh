#!/bin/sh
# bf-holes --events: the change stream between two times, replayed here in
# awk, equals the idle sets of --at and the counts of awk over the logs.
. "$(dirname "$0")/lib.sh"

LOG="$T_DIR/data/holes/theta-2022-head300.swf"
TRACE="$T_DIR/data/holes/summit-c37-b29.csv"

test_expect_success 'trace: one line per second with a net change, counts as awk' '
	bf-holes --events --from 0 --to 99999999 --idle-trace "$TRACE" >ev &&
	event_counts ev >have &&
	awk -F, "
	NR == 1 { next }
	\$1 != t && NR > 2 { emit() }
	{ t = \$1; idle[\$2] = \$3 }
	END { emit() }
	function emit(   k, n, key) {
		n = 0; key = \"\"
		for (k in idle) if (idle[k]) { n++; key = key \" \" k }
		if (!started) { print 0, n; started = 1 }
		else if (n != last || key != lastkey) print t, n
		last = n; lastkey = key
	}" "$TRACE" >want &&
	test_cmp want have &&
	test $(wc -l <have) -gt 100
'

test_expect_success 'trace: the first line is the idle set at --from, as joins' '
	bf-holes --events --from 600000 --to 700000 --idle-trace "$TRACE" >ev &&
	head -1 ev | grep "^600000 +[^ ]* -$" &&
	bf-holes --idle-trace "$TRACE" --at 600000 >at &&
	hosts_of at >want && event_hosts ev 600000 >have && test_cmp want have &&
	awk "NR > 1 && (\$1 <= 600000 || \$1 > 700000) { exit 1 }" ev
'

test_expect_success 'trace: replaying the stream gives --at at every tenth event' '
	bf-holes --events --from 0 --to 99999999 --idle-trace "$TRACE" >ev &&
	awk "NR % 10 == 2 { print \$1 }" ev >times &&
	mkdir h && for t in $(cat times); do
		bf-holes --idle-trace "$TRACE" --at $t >h/$t.yaml || exit 1
	done &&
	hosts_of_each h/*.yaml >want && event_hosts_each ev times >have &&
	test_cmp want have
'

test_expect_success 'swf: every count equals machine size minus running demand' '
	bf-holes --events --from 1641000000 --to 1642000000 --swf "$LOG" >ev &&
	event_counts ev >have &&
	awk "!/^;/ { print \$2 + \$3, \$5; print \$2 + \$3 + \$4, -\$5 }" "$LOG" |
	sort -k1,1n -k2,2n | awk -v N=4360 "
		\$1 > 1642000000 { exit }
		\$1 != t && NR > 1 { emit() }
		{ t = \$1; used += \$2 }
		END { emit() }
		function emit(   n) {
			if (t < 1641000000) return
			n = N - used; if (n < 0) n = 0
			if (n != last) print t, n
			last = n
		}" >want.tail &&
	{ echo "1641000000 4360"; cat want.tail; } >want &&
	test_cmp want have
'

test_expect_success 'swf: replaying the stream gives --at at every fifth event' '
	bf-holes --events --from 1641000000 --to 1642000000 --swf "$LOG" >ev &&
	awk "NR % 5 == 2 { print \$1 }" ev >times &&
	mkdir h5 && for t in $(cat times); do
		bf-holes --swf "$LOG" --at $t >h5/$t.yaml || exit 1
	done &&
	hosts_of_each h5/*.yaml >want && event_hosts_each ev times >have &&
	test_cmp want have
'

test_expect_success 'an empty window gives the one start line' '
	bf-holes --events --from 5 --to 5 --idle-trace "$TRACE" >ev &&
	echo "5 + -" >expect && test_cmp expect ev
'

test_expect_success '--events with -d is a usage error' '
	test_expect_code 64 bf-holes -d sp --events --from 0 --to 1 --swf "$LOG" 2>err &&
	test ! -e sp
'

test_done
