#!/bin/sh
# bf-holes under valgrind, every source and the error paths: no invalid
# access, no leak.
. "$(dirname "$0")/lib.sh"

if ! test_valgrind_usable; then
	test_skip 'bf-holes under valgrind' "$test_valgrind_why"
	test_done
fi

D="$T_DIR/data"

test_expect_success 'swf at one time and as a stream, into a spool' '
	vg bf-holes --swf "$D/holes/theta-2022-head300.swf" --at 1641100000 >/dev/null &&
	vg bf-holes -d sp --swf "$D/holes/theta-2022-head300.swf" --at 1641100000 &&
	vg bf-holes -d sp --swf "$D/holes/theta-2022-head300.swf" --at 1641100001 &&
	vg bf-holes --events --from 1641000000 --to 1641400000 \
		--swf "$D/holes/theta-2022-head300.swf" >/dev/null
'

test_expect_success 'a trace at one time and as a stream, gzipped' '
	gzip -n -c "$D/holes/summit-c37-b29.csv" >tr.csv.gz &&
	vg bf-holes --idle-trace tr.csv.gz --at 600000 >/dev/null &&
	vg bf-holes --events --from 0 --to 99999999 --idle-trace tr.csv.gz >/dev/null
'

test_expect_success 'slurm output' '
	TZ=UTC vg bf-holes --slurm --sinfo "cat $D/slurm/sinfo-a.txt" \
		--squeue "cat $D/slurm/squeue-a.txt" >/dev/null
'

test_expect_success 'pbs output: none usable, one usable, a reservation unknown' '
	TZ=America/Chicago vg bf-holes --pbs --pbsnodes "cat $D/pbs/pbsnodes-polaris.json" \
		--qstat "cat $D/pbs/qstat-imperial.json" --pbs-rstat true >out &&
	grep "^idle: \[\]$" out &&
	sed "/\"resv\":/d" "$D/pbs/pbsnodes-polaris.json" >nores.json &&
	TZ=America/Chicago vg bf-holes -d sp --pbs --pbsnodes "cat nores.json" \
		--qstat "cat $D/pbs/qstat-imperial.json" --pbs-rstat true &&
	grep "^  - nodes: x3006c0s13b1n0$" sp/holes/current.yaml
'

test_expect_success 'pbs errors exit cleanly: cut JSON, a failing command' '
	vg bf-holes --pbs --pbsnodes "cat $D/pbs/pbsnodes-polaris.excerpt.txt" \
		--qstat true --pbs-rstat true 2>/dev/null; test $? -eq 65 &&
	vg bf-holes --pbs --pbsnodes "cat $D/pbs/pbsnodes-polaris.json" \
		--qstat "head -c 2000 $D/pbs/qstat-imperial.json" --pbs-rstat true \
		2>/dev/null; test $? -eq 65 &&
	vg bf-holes --pbs --pbsnodes "cat $D/pbs/pbsnodes-polaris.json" \
		--qstat false --pbs-rstat true 2>/dev/null; test $? -eq 75
'

test_expect_success 'errors exit cleanly: bad line, missing file, bad slurm line' '
	printf "; MaxNodes: 4\n1 2 3\n" >bad.swf &&
	vg bf-holes --swf bad.swf --at 0 2>/dev/null; test $? -eq 65 &&
	vg bf-holes --idle-trace nothere --at 0 2>/dev/null; test $? -eq 66 &&
	printf "t_s,node,idle\n0,a,0\n5,a,x\n" >bad.csv &&
	vg bf-holes --idle-trace bad.csv --at 9 2>/dev/null; test $? -eq 65 &&
	vg bf-holes --slurm --sinfo "echo n1" --squeue true 2>/dev/null; test $? -eq 65
'

test_done
