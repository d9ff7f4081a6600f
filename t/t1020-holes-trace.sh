#!/bin/sh
# bf-holes --idle-trace: the idle set of a real Summit trace excerpt at many
# times, checked against awk over the same file; --epoch; gzip; errors.
. "$(dirname "$0")/lib.sh"

TRACE="$T_DIR/data/holes/summit-c37-b29.csv"
EPOCH=1612915732	# 2021-02-10T00:08:52Z, the trace's t=0

# "T node" for every node idle at each query time (relative seconds).
awk_idle() {	# trace times...
	tr=$1; shift
	printf '%s\n' "$@" | sort -n >queries
	awk -F, '
	function report(q,   n) { for (n in idle) if (idle[n]) print q, n }
	FILENAME == "queries" { qs[++nq] = $1; next }
	FNR == 1 { next }
	{
		while (qi < nq && qs[qi + 1] < $1) report(qs[++qi])
		idle[$2] = $3
	}
	END { while (qi < nq) report(qs[++qi]) }' queries "$tr" | sort -k1,1n -k2,2
}

times_of() {	# trace
	awk -F, 'NR > 1 && NR % 9 == 0 { print $1 - 1; print $1; print $1 + 1 }
	END { for (t = 0; t <= 1300000; t += 50000) print t }' "$1" | sort -n | uniq
}

check_times() {	# trace epoch
	times_of "$1" >times &&
	awk_idle "$1" $(cat times) >want.all &&
	rm -rf h && mkdir h &&
	for t in $(cat times); do
		bf-holes --idle-trace "$1" --epoch "$2" --at $(($2 + t)) >h/$t.yaml || return 1
	done &&
	hosts_of_each $(sed "s|.*|h/&.yaml|" times) >have.all &&
	compressed h/*.yaml &&
	test_cmp want.all have.all
}

test_expect_success 'idle nodes at many times match awk over the trace' '
	check_times "$TRACE" $EPOCH &&
	test $(wc -l <times) -gt 250 &&
	test $(awk "{ print \$1 }" have.all | uniq | wc -l) -gt 150
'

test_expect_success 'the holes file: source, time, compressed hostlist' '
	bf-holes --idle-trace "$TRACE" --epoch 2021-02-10T00:08:52Z --at 2021-02-10T11:55:32Z >actual &&
	cat >expect <<-EOT &&
	time: 1612958132
	source: "idle-trace:$TRACE"
	idle:
	  - nodes: b29n[03-18]
	EOT
	test_cmp expect actual
'

test_expect_success 'without --epoch t_s are unix seconds' '
	bf-holes --idle-trace "$TRACE" --at 85868 >a.out && sed 1d a.out >a &&
	bf-holes --idle-trace "$TRACE" --epoch $EPOCH --at $((EPOCH + 85868)) >b.out &&
	sed 1d b.out >b &&
	test_cmp a b && grep "^time: 85868$" a.out
'

test_expect_success 'before t=0 nothing is known idle; after the end the last state holds' '
	bf-holes --idle-trace "$TRACE" --epoch $EPOCH --at $((EPOCH - 1)) >out &&
	grep "^idle: \[\]$" out &&
	last=$(awk -F, "NR > 1 { t = \$1 } END { print t }" "$TRACE") &&
	awk_idle "$TRACE" $last | sed "s/^[0-9]* //" >want &&
	bf-holes --idle-trace "$TRACE" --at 99999999 >out &&
	hosts_of out >have && test_cmp want have
'

test_expect_success 'a gzip-compressed trace reads the same, from a file or stdin' '
	gzip -n -c "$TRACE" >tr.csv.gz &&
	bf-holes --idle-trace "$TRACE" --at 600000 >a.out && sed 1,2d a.out >a &&
	bf-holes --idle-trace tr.csv.gz --at 600000 >b.out && sed 1,2d b.out >b &&
	bf-holes --idle-trace - --at 600000 <tr.csv.gz >c.out && sed 1,2d c.out >c &&
	test_cmp a b && test_cmp a c
'

test_expect_success 'rows of one second in any order; the last row of a node counts' '
	printf "t_s,node,idle\n0,n2,0\n0,n1,0\n5,n2,1\n5,n1,1\n5,n2,0\n9,n1,0\n" >tiny.csv &&
	bf-holes --idle-trace tiny.csv --at 5 >out &&
	grep "^  - nodes: n1$" out &&
	bf-holes --idle-trace tiny.csv --at 9 >out &&
	grep "^idle: \[\]$" out
'

bad_row() {	# title line-3 message
	bad_text=$2 bad_msg=$3
	test_expect_success "malformed: $1" '
		awk -v l="$bad_text" "NR == 3 { print l; next } { print }" "$TRACE" >bad.csv &&
		test_expect_code 65 bf-holes --idle-trace bad.csv --at 900000 >out 2>err &&
		test_must_be_empty out &&
		echo "bf-holes: bad.csv:3: $bad_msg" >expect &&
		test_cmp expect err
	'
}
bad_row 'two fields' '0,b29n02' 'a row has three fields: t_s,node,idle'
bad_row 'four fields' '0,b29n02,0,1' 'a row has three fields: t_s,node,idle'
bad_row 'a fractional time' '0.5,b29n02,0' "t_s must be a whole number of seconds from 0 to 1099511627776, not '0.5'"
bad_row 'a negative time' '-3,b29n02,0' "t_s must be a whole number of seconds from 0 to 1099511627776, not '-3'"
bad_row 'an idle value of 2' '0,b29n02,2' "idle must be 0 or 1, not '2'"
bad_row 'a bad node name' '0,b29 n02,0' "bad node name 'b29 n02'"
bad_row 'an empty node name' '0,,0' "bad node name ''"

test_expect_success 'malformed: time going backwards, late in the file' '
	awk "NR == 2000 { print \"5,b29n01,1\" } { print }" "$TRACE" >back.csv &&
	test_expect_code 65 bf-holes --idle-trace back.csv --at 99999999 2>err &&
	prev=$(sed -n 1999p "$TRACE" | cut -d, -f1) &&
	echo "bf-holes: back.csv:2000: time 5 is before the previous row'"'"'s $prev; rows must be in time order" >expect &&
	test_cmp expect err
'

test_expect_success 'malformed: a missing header' '
	sed 1d "$TRACE" >nohead.csv &&
	test_expect_code 65 bf-holes --idle-trace nohead.csv --at 0 2>err &&
	echo "bf-holes: nohead.csv:1: the first line must be the header t_s,node,idle" >expect &&
	test_cmp expect err
'

test_expect_success 'an empty file is bad input, a missing one 66' '
	: >empty.csv &&
	test_expect_code 65 bf-holes --idle-trace empty.csv --at 0 2>err &&
	echo "bf-holes: empty.csv: empty file, not a trace" >expect &&
	test_cmp expect err &&
	test_expect_code 66 bf-holes --idle-trace nothere.csv --at 0 2>err &&
	echo "bf-holes: nothere.csv: No such file or directory" >expect &&
	test_cmp expect err
'

test_done
