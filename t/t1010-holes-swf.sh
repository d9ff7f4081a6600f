#!/bin/sh
# bf-holes --swf: node usage rebuilt from a real job log (an excerpt of the
# ALCF Theta 2022 log), checked at many times against a replay written
# here in awk, apart from lib/swf.c; header rules; every malformed line.
. "$(dirname "$0")/lib.sh"

LOG="$T_DIR/data/holes/theta-2022-head300.swf"

# The machine and its jobs as the issue defines them: "start id line nodes
# end" of every job that ran, nodes from processors when MaxNodes and
# MaxProcs differ; then the machine size (widened by a larger job).
awk_jobs() {	# swf
	awk '
	/^;/ { if ($2 == "MaxNodes:") mn = $3; if ($2 == "MaxProcs:") mp = $3
	       if ($2 == "UnixStartTime:") u = $3; next }
	NF == 18 { line[++n] = NR; for (i = 1; i <= 18; i++) f[n, i] = $i }
	END {
		N = mn ? mn : mp
		for (k = 1; k <= n; k++) {
			p = f[k, 5] > 0 ? f[k, 5] : f[k, 8]
			if (f[k, 2] < 0 || f[k, 3] < 0 || f[k, 4] <= 0 || p <= 0) continue
			if (mn && mp && mn != mp) p = int((p * mn + mp - 1) / mp)
			if (p > N) N = p
			s = u + f[k, 2] + f[k, 3]
			print s, f[k, 1], line[k], p, s + f[k, 4]
		}
		print "N", N > "machine"
	}' "$1" | sort -k1,1n -k2,2n -k3,3n
}

# First fit in start order, ends before starts, jobs short of nodes get
# freed nodes first; prints "T node" for every node idle at each query time.
awk_idle() {	# swf times...
	swf=$1; shift
	awk_jobs "$swf" | awk '{ print $1, 1, NR, $4; print $5, 0, NR, $4 }' |
	sort -k1,1n -k2,2n -k3,3n >ticks
	N=$(awk '{ print $2 }' machine)
	printf '%s\n' "$@" | sort -n >queries
	awk -v N="$N" -v W=4 '
	function refill(   k, kept, j) {
		kept = 0
		for (k = 1; k <= nd; k++) {
			j = def[k]; take(j)
			if (have[j] < want[j]) def[++kept] = j
		}
		nd = kept; ended = 0
	}
	function take(j,   x) {
		for (x = 1; x <= N && have[j] < want[j]; x++)
			if (free[x]) { free[x] = 0; held[j, ++have[j]] = x }
	}
	function report(q,   x) {
		if (ended) refill()
		for (x = 1; x <= N; x++) if (free[x]) printf "%d nid%0" W "d\n", q, x
	}
	FILENAME == "queries" { qs[++nq] = $1; next }
	{
		while (qi < nq && qs[qi + 1] < $1) report(qs[++qi])
		if ($1 != last && ended) refill()
		last = $1
		j = $3
		if ($2 == 1) {
			if (ended) refill()
			want[j] = $4; have[j] = 0; take(j)
			if (have[j] < want[j]) def[++nd] = j
		} else {
			for (k = 1; k <= have[j]; k++) free[held[j, k]] = 1
			for (k = 1; k <= nd; k++) if (def[k] == j) {
				for (; k < nd; k++) def[k] = def[k + 1]
				nd--; break
			}
			ended = 1
		}
	}
	BEGIN { for (x = 1; x <= N; x++) free[x] = 1 }
	END { while (qi < nq) report(qs[++qi]) }' queries ticks
}

# Query times: every 20000 s over the excerpt, plus the start and end second
# of every sixth job and the second before each.
times_of() {	# swf
	awk_jobs "$1" | awk '
	NR == 1 { lo = $1 } { if ($5 > hi) hi = $5 }
	NR % 6 == 1 { print $1 - 1; print $1; print $5 - 1; print $5 }
	END { for (t = lo - 5000; t <= hi + 5000; t += 20000) print t }' |
	sort -n | uniq
}

check_times() {	# swf
	times_of "$1" >times &&
	awk_idle "$1" $(cat times) >want.all &&
	rm -rf h && mkdir h &&
	for t in $(cat times); do
		bf-holes --swf "$1" --at "$t" >h/$t.yaml || return 1
	done &&
	hosts_of_each $(sed "s|.*|h/&.yaml|" times) >have.all &&
	compressed h/*.yaml &&
	test_cmp want.all have.all
}

test_expect_success 'idle nodes at starts, ends and every 20000 s match the awk replay' '
	check_times "$LOG" &&
	test $(wc -l <times) -gt 200 &&
	test $(awk "{ print \$1 }" have.all | uniq | wc -l) -gt 150
'

test_expect_success 'the holes file: time, source, one compressed hostlist' '
	bf-holes --swf "$LOG" --at 1641100000 >actual &&
	cat >expect <<-EOT &&
	time: 1641100000
	source: "swf:$LOG"
	idle:
	  - nodes: nid[1665-1792,2945-4360]
	EOT
	test_cmp expect actual
'

test_expect_success 'ISO 8601 times, with and without Z, equal unix seconds' '
	bf-holes --swf "$LOG" --at 1641100000 >a &&
	bf-holes --swf "$LOG" --at 2022-01-02T05:06:40Z >b &&
	bf-holes --swf "$LOG" --at 2022-01-02T05:06:40 >c &&
	test_cmp a b && test_cmp a c
'

test_expect_success 'unsorted rows give the same answer as sorted ones' '
	{ grep "^;" "$LOG"; grep -v "^;" "$LOG" | sort -k4,4n -k1,1nr; } >shuffled.swf &&
	! cmp -s "$LOG" shuffled.swf &&
	for t in 1641061236 1641100000 1641150000 1641200000 1641300000; do
		bf-holes --swf "$LOG" --at $t >a.out && sed 1,2d a.out >a &&
		bf-holes --swf shuffled.swf --at $t >b.out && sed 1,2d b.out >b &&
		test_cmp a b || exit 1
	done
'

test_expect_success 'a gzip-compressed log reads the same, from a file or stdin' '
	gzip -n -c "$LOG" >log.swf.gz &&
	bf-holes --swf "$LOG" --at 1641150000 >a.out && sed 1,2d a.out >a &&
	bf-holes --swf log.swf.gz --at 1641150000 >b.out && sed 1,2d b.out >b &&
	bf-holes --swf - --at 1641150000 <log.swf.gz >c.out && sed 1,2d c.out >c &&
	test_cmp a b && test_cmp a c
'

test_expect_success 'processors count 4 to a node when MaxProcs is 4 x MaxNodes' '
	sed "s/^; MaxNodes: 4360/; MaxNodes: 1090/" "$LOG" >procs.swf &&
	check_times procs.swf &&
	grep "^N 1090" machine
'

test_expect_success 'a machine too small for the log: jobs wait for freed nodes' '
	sed "s/^; MaxNodes: 4360/; MaxNodes: 1500/; s/^; MaxProcs: 4360/; MaxProcs: 1500/" \
		"$LOG" >small.swf &&
	check_times small.swf
'

test_expect_success 'a job larger than the machine widens it, with a warning' '
	sed "s/^; MaxNodes: 4360/; MaxNodes: 512/; s/^; MaxProcs: 4360/; MaxProcs: 512/" \
		"$LOG" >narrow.swf &&
	bf-holes --swf narrow.swf --at 1641000000 >out 2>err &&
	first=$(awk "!/^;/ && \$5 > 512 { print NR; exit }" narrow.swf) &&
	widest=$(awk "!/^;/ && \$5 > m { m = \$5 } END { print m }" narrow.swf) &&
	echo "bf-holes: narrow.swf:$first: a job is larger than the machine'"'"'s 512 nodes: the machine is widened to $widest" >expect &&
	grep -v "jobs started while" err >err1 &&
	test_cmp expect err1 &&
	hosts_of out | wc -l >n && echo "$widest" >expect && test_cmp expect n
'

test_expect_success 'UnixStartTime offsets relative times' '
	{ echo "; UnixStartTime: 1600000000"; echo "; MaxNodes: 8";
	  echo "1 0 10 100 3 -1 -1 3 100 -1 1 -1 -1 -1 -1 -1 -1 -1";
	  echo "2 5 0 50 2 -1 -1 2 100 -1 1 -1 -1 -1 -1 -1 -1 -1"; } >rel.swf &&
	bf-holes --swf rel.swf --at 1600000020 >out &&
	grep "^  - nodes: nid\[0006-0008\]$" out &&
	bf-holes --swf rel.swf --at 1600000055 >out &&
	grep "^  - nodes: nid\[0001-0002,0006-0008\]$" out &&
	bf-holes --swf rel.swf --at 1600000110 >out &&
	grep "^  - nodes: nid\[0001-0008\]$" out
'

test_expect_success 'jobs that never ran, unknown fields and zero length are left out' '
	{ echo "; MaxNodes: 8";
	  echo "1 0 10 0 3 -1 -1 3 100 -1 5 -1 -1 -1 -1 -1 -1 -1";
	  echo "2 0 -1 50 3 -1 -1 3 100 -1 5 -1 -1 -1 -1 -1 -1 -1";
	  echo "3 0 0 -1 3 -1 -1 3 100 -1 5 -1 -1 -1 -1 -1 -1 -1";
	  echo "4 -1 0 40 3 -1 -1 3 100 -1 1 -1 -1 -1 -1 -1 -1 -1";
	  echo "5 0 0 40 -1 -1 -1 -1 100 -1 1 -1 -1 -1 -1 -1 -1 -1";
	  echo "6 0 0 40 -1 -1 -1 2 100 -1 1 -1 -1 -1 -1 -1 -1 -1"; } >skip.swf &&
	bf-holes --swf skip.swf --at 20 >out &&
	grep "^  - nodes: nid\[0003-0008\]$" out
'

test_expect_success 'a full machine prints an empty idle list' '
	{ echo "; MaxNodes: 2"; echo "1 0 0 40 2 -1 -1 2 100 -1 1 -1 -1 -1 -1 -1 -1 -1"; } >full.swf &&
	bf-holes --swf full.swf --at 10 >out &&
	printf "time: 10\nsource: \"swf:full.swf\"\nidle: []\n" >expect &&
	test_cmp expect out
'

# Each malformed line is reported with its line number; exit 65.
bad_line() {	# title line-3-replacement message
	bad_text=$2 bad_msg=$3
	test_expect_success "malformed: $1" '
		awk -v l="$bad_text" "NR == 3 { print l; next } { print }" "$LOG" >bad.swf &&
		test_expect_code 65 bf-holes --swf bad.swf --at 1641100000 >out 2>err &&
		test_must_be_empty out &&
		echo "bf-holes: bad.swf:3: $bad_msg" >expect &&
		test_cmp expect err
	'
}
bad_line 'too few fields' '1 2 3' '3 fields, a job line has 18'
bad_line 'too many fields' '1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19' 'more than 18 fields'
bad_line 'a word for the run time' '1 1641021254 52645 long 128 -1 -1 128 10800 -1 0 -1 -1 -1 -1 -1 -1 0' \
	"field 4 (run time) must be a whole number from -1 to 1099511627776, not 'long'"
bad_line 'a fraction for the size' '1 1641021254 52645 10 12.5 -1 -1 128 10800 -1 0 -1 -1 -1 -1 -1 -1 0' \
	"field 5 (allocated procs) must be a whole number from -1 to 1099511627776, not '12.5'"
bad_line 'a word in an unused field' '1 1641021254 52645 10 128 -1 -1 128 10800 -1 0 -1 -1 -1 -1 x -1 0' \
	"field 16 (partition) is not a number: 'x'"
bad_line 'a bad MaxNodes header' '; MaxNodes: many' "bad MaxNodes value ' many'"
bad_line 'a zero MaxProcs header' '; MaxProcs: 0' "bad MaxProcs value ' 0'"

test_expect_success 'an empty file is bad input' '
	: >empty.swf &&
	test_expect_code 65 bf-holes --swf empty.swf --at 0 2>err &&
	echo "bf-holes: empty.swf: empty file, not a job log" >expect &&
	test_cmp expect err
'

test_expect_success 'a missing file exits 66' '
	test_expect_code 66 bf-holes --swf nothere.swf --at 0 2>err &&
	grep "^bf-holes: nothere.swf: " err
'

test_expect_success 'a corrupt gzip file is bad input' '
	gzip -n -c "$LOG" | head -c 3000 >cut.swf.gz &&
	test_expect_code 65 bf-holes --swf cut.swf.gz --at 0 2>err &&
	grep "^bf-holes: cut.swf.gz:[0-9]*: corrupt compressed data" err
'

test_expect_success '-V prints the version, -h the usage' '
	bf-holes -V >out && grep -E "^bf-holes [0-9]+\.[0-9]+\.[0-9]+$" out &&
	bf-holes -h >out && grep "^usage: bf-holes " out
'

test_expect_success 'usage errors exit 64' '
	test_expect_code 64 bf-holes --swf "$LOG" 2>/dev/null &&
	test_expect_code 64 bf-holes --swf "$LOG" --at yesterday 2>/dev/null &&
	test_expect_code 64 bf-holes --swf "$LOG" --at 2022-02-30T00:00:00 2>/dev/null &&
	test_expect_code 64 bf-holes --swf "$LOG" --idle-trace x --at 0 2>/dev/null &&
	test_expect_code 64 bf-holes --at 0 2>/dev/null &&
	test_expect_code 64 bf-holes --swf "$LOG" --at 0 extra 2>/dev/null &&
	test_expect_code 64 bf-holes --events --swf "$LOG" --from 5 2>/dev/null &&
	test_expect_code 64 bf-holes --events --swf "$LOG" --from 5 --to 4 2>/dev/null &&
	test_expect_code 64 bf-holes --swf "$LOG" --epoch 5 --at 0 2>/dev/null &&
	test_expect_code 64 bf-holes --swf "$LOG" --own bf --at 0 2>/dev/null &&
	test_expect_code 64 bf-holes --slurm --at 0 2>/dev/null &&
	test_expect_code 64 bf-holes --swf "$LOG" --sinfo true --at 0 2>err &&
	echo "bf-holes: --sinfo and --squeue go with --slurm" >expect &&
	test_cmp expect err
'

test_done
