#!/bin/sh
# Progress lines with NODES "-" take the node count from the plans enacted
# in history/: the count of the last plan at or before the report.
. "$(dirname "$0")/lib.sh"

# 1 node at 100 samples/s from 1700000000, 2 nodes at 190/s from 1700000620,
# every report with NODES "-"; one report before any plan.
make_log() {
	awk 'BEGIN {
		print 1699999990, "-", 0
		t = 1700000000; s = 0
		for (i = 0; i <= 60; i++) { print t, "-", s; t += 10; s += 1000 }
		t += 20
		for (i = 0; i <= 60; i++) { print t, "-", s; t += 10; s += 1900 }
	}'
}

test_expect_success 'a history of two enacted plans, made by bf-solve' '
	printf "name: u\ncommand: x\nmax_nodes: 8\nrescale_up: 0\n" >u.yaml &&
	bf-submit -d sp u.yaml >/dev/null && bf-submit --intake -d sp 2>/dev/null &&
	printf "time: 1700000000\nsource: test\nidle:\n  - nodes: n1\n" >h1.yaml &&
	bf-solve h1.yaml sp/jobs/u.yaml >p1 2>/dev/null &&
	grep "^  u: {nodes: 1, was: 0" p1 &&
	printf "time: 1700000620\nsource: test\nidle:\n  - nodes: n[1-2]\n" >h2.yaml &&
	printf "time: 1700000000\njobs:\n  u: {nodes: 1, hosts: n1}\n" >s1.yaml &&
	bf-solve -s s1.yaml h2.yaml sp/jobs/u.yaml >p2 2>/dev/null &&
	grep "^  u: {nodes: 2, was: 1" p2 &&
	cp p1 sp/history/1700000000-00000000000000a1.yaml &&
	cp p2 sp/history/1700000620-00000000000000a2.yaml &&
	printf "not a plan\n" >sp/history/1700000001-00000000000000a3.inputs.yaml
'

test_expect_success 'bf-profile -d resolves NODES "-" from the history' '
	make_log >sp/progress/u.log &&
	bf-profile -d sp 2>err &&
	grep -E "^  [12]: " sp/profiles/u.yaml >actual &&
	printf "  1: 100\n  2: 190\n" >expect &&
	test_cmp expect actual &&
	echo "bf-profile: progress/u.log:1: NODES '"'-'"' at a time no enacted plan gave the job nodes, skipped" >expect &&
	test_cmp expect err &&
	grep "^skipped_lines: 1$" sp/profiles/u.yaml
'

test_expect_success 'without a spool the same lines are skipped, saying why' '
	bf-profile -j u.yaml sp/progress/u.log >out 2>err &&
	head -1 err >first &&
	echo "bf-profile: sp/progress/u.log:1: NODES '"'-'"' needs the allocation history (bf-profile -d SPOOL reads history/), skipped" >expect &&
	test_cmp expect first &&
	grep "^skipped_lines: 123$" out
'

test_expect_success 'a damaged plan in history/ is left out with a warning' '
	printf "time: [\n" >sp/history/1700000700-00000000000000a4.yaml &&
	bf-profile -d sp 2>err &&
	grep "^bf-profile: history/1700000700-00000000000000a4.yaml:.*(left out of the allocation history)$" err &&
	grep -E "^  2: 190$" sp/profiles/u.yaml
'

test_expect_success 'a log without NODES "-" reads no history' '
	cp -R sp nodash &&
	awk "{ print \$1, (\$2 == \"-\" ? 1 : \$2), \$3 }" sp/progress/u.log \
		>nodash/progress/u.log &&
	bf-profile -d nodash 2>err &&
	test_must_be_empty err &&
	grep -E "^  1: " nodash/profiles/u.yaml
'

# In a running spool the holes stay the same while the idle nodes do, and
# so does the time of every plan made from them: plans that share a time
# count in the order bf-apply enacted them (the manifest's "enacted"),
# whatever their names.  Here the later plan has the smaller name.
test_expect_success 'plans with one time count in the order they were enacted' '
	cp -R sp same && rm -r same/history && mkdir same/history &&
	sed "s/^time: .*/time: 1700000000/" h2.yaml >h2same.yaml &&
	bf-solve -s s1.yaml h2same.yaml sp/jobs/u.yaml >p2same 2>/dev/null &&
	grep "^time: 1700000000$" p2same &&
	grep "^  u: {nodes: 2, was: 1" p2same &&
	cp p2same same/history/1700000000-00000000000000a1.yaml &&
	cp p1 same/history/1700000000-00000000000000a2.yaml &&
	printf "plan: \"xxh3:00000000000000a1\"\nenacted: 1700000620.250000\n" \
		>same/history/1700000000-00000000000000a1.inputs.yaml &&
	printf "plan: \"xxh3:00000000000000a2\"\nenacted: 1700000000.500000\n" \
		>same/history/1700000000-00000000000000a2.inputs.yaml &&
	bf-profile -d same 2>err &&
	grep -E "^  [12]: " same/profiles/u.yaml >actual &&
	printf "  1: 100\n  2: 190\n" >expect &&
	test_cmp expect actual &&
	bf-audit -d same --log >log &&
	sed "s/ objective [^:]*:/:/" log >actual &&
	printf "%s\n" "1700000000-00000000000000a2: u 0->1" \
		"1700000000-00000000000000a1: u 0->2" >expect &&
	test_cmp expect actual
'

test_expect_success 'a manifest whose enacted time is bad: the plan'"'"'s time, warned' '
	printf "plan: \"xxh3:00000000000000a1\"\nenacted: soon\n" \
		>same/history/1700000000-00000000000000a1.inputs.yaml &&
	bf-profile -d same 2>err &&
	echo "bf-profile: history/1700000000-00000000000000a1.inputs.yaml:2: enacted must be a number from 0 to 1e+12, not '"'"'soon'"'"' (the plan'"'"'s own time used)" >expect &&
	head -n 1 err >actual &&
	test_cmp expect actual
'

test_done
