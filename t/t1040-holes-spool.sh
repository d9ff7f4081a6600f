#!/bin/sh
# bf-holes -d SPOOL: holes/current.yaml is written atomically and only when
# the set of nodes or their until changed, not for a new time alone.
. "$(dirname "$0")/lib.sh"

LOG="$T_DIR/data/holes/theta-2022-head300.swf"

test_expect_success 'the first run creates holes/current.yaml, as on stdout' '
	bf-holes --swf "$LOG" --at 1641100000 >expect &&
	bf-holes -d sp --swf "$LOG" --at 1641100000 >out &&
	test_must_be_empty out &&
	test_cmp expect sp/holes/current.yaml &&
	stat -c %a sp/holes/current.yaml >mode && echo 644 >want && test_cmp want mode &&
	find sp/tmp -type f >left && test_must_be_empty left
'

test_expect_success 'the same nodes at a later time leave the file alone' '
	ls -i sp/holes/current.yaml >before &&
	bf-holes --swf "$LOG" --at 1641100001 >a.out && sed 1d a.out >a &&
	sed 1d sp/holes/current.yaml >b && test_cmp a b &&
	bf-holes -d sp --swf "$LOG" --at 1641100001 &&
	grep "^time: 1641100000$" sp/holes/current.yaml &&
	ls -i sp/holes/current.yaml >after && test_cmp before after
'

test_expect_success 'a change of nodes replaces it' '
	bf-holes -d sp --swf "$LOG" --at 1641200000 &&
	bf-holes --swf "$LOG" --at 1641200000 >expect &&
	test_cmp expect sp/holes/current.yaml
'

test_expect_success 'a damaged current.yaml is replaced, with a warning' '
	echo "time: [" >sp/holes/current.yaml &&
	bf-holes -d sp --swf "$LOG" --at 1641200000 2>err &&
	test_cmp expect sp/holes/current.yaml &&
	grep "^bf-holes: holes/current.yaml:.*; replacing it$" err
'

test_expect_success 'unknown keys of a holes file: ten warned about, the rest counted' '
	keys=$(i=1; while [ $i -le 12 ]; do printf ", k%d: 1" $i; i=$((i + 1)); done) &&
	printf "time: 5\nsource: t\nidle:\n- {nodes: n1%s}\n" "$keys" >sp/holes/current.yaml &&
	bf-holes -d sp --swf "$LOG" --at 1641200000 2>err &&
	test_cmp expect sp/holes/current.yaml &&
	i=1 && while [ $i -le 10 ]; do
		echo "bf-holes: holes/current.yaml:4: unknown key '"'k\$i'"' ignored"
		i=$((i + 1)); done >want &&
	echo "bf-holes: holes/current.yaml: 2 more unknown keys ignored" >>want &&
	test_cmp want err
'

test_expect_success 'BF_SPOOL alone does not redirect stdout output' '
	BF_SPOOL=sp2 bf-holes --swf "$LOG" --at 1641200000 >out &&
	test_cmp expect out && test ! -e sp2
'

test_done
