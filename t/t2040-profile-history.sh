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

# a2 (1 node) enacted before its own time; a1 (2 nodes), its enacted time
# bad, counts from its own time 1700000000, after a2: the first report
# gets 1 node, all others 2.
test_expect_success 'a manifest whose enacted time is bad: the plan'"'"'s time, warned' '
	printf "plan: \"xxh3:00000000000000a1\"\nenacted: soon\n" \
		>same/history/1700000000-00000000000000a1.inputs.yaml &&
	printf "plan: \"xxh3:00000000000000a2\"\nenacted: 1699999000.500000\n" \
		>same/history/1700000000-00000000000000a2.inputs.yaml &&
	bf-profile -d same 2>err &&
	echo "bf-profile: history/1700000000-00000000000000a1.inputs.yaml:2: enacted must be a number from 0 to 1e+12, not '"'"'soon'"'"' (the plan'"'"'s own time used)" >expect &&
	test_cmp expect err &&
	grep "^skipped_lines: 0$" same/profiles/u.yaml &&
	grep -E "^  [12]: " same/profiles/u.yaml >actual &&
	grep -E "^  2: " actual && test "$(wc -l <actual)" -eq 1
'

test_expect_success 'a manifest that is not a mapping: the plan'"'"'s time, warned' '
	echo "[1, 2]" >same/history/1700000000-00000000000000a1.inputs.yaml &&
	bf-profile -d same 2>err &&
	echo "bf-profile: history/1700000000-00000000000000a1.inputs.yaml:1: not a manifest (the plan'"'"'s own time used)" >expect &&
	head -n 1 err >actual &&
	test_cmp expect actual
'

test_expect_success 'a plan whose time is not its name'"'"'s is left out' '
	cp p1 same/history/1700000300-00000000000000a5.yaml &&
	bf-profile -d same 2>err &&
	grep "^bf-profile: history/1700000300-00000000000000a5.yaml: time 1700000000 is not the time in its name (left out of the allocation history)$" err &&
	rm same/history/1700000300-00000000000000a5.yaml
'

# u holds 1 node, then a plan that does not name it (0 nodes: its "-"
# reports skipped), then 2 nodes.
test_expect_success 'a plan without the job: 0 nodes between two that give it some' '
	cp -R sp gap && rm -r gap/history && mkdir gap/history &&
	printf "name: v\ncommand: x\nmax_nodes: 8\nrescale_up: 0\n" >v.yaml &&
	bf-solve h1.yaml v.yaml >pv 2>/dev/null &&
	! grep "^  u:" pv &&
	cp p1 gap/history/1700000000-00000000000000b1.yaml &&
	cp pv gap/history/1700000000-00000000000000b2.yaml &&
	cp p2 gap/history/1700000620-00000000000000b3.yaml &&
	for x in 1700000000-00000000000000b1:1700000000.000000 \
	    1700000000-00000000000000b2:1700000650.000000 \
	    1700000620-00000000000000b3:1700000900.000000; do
		printf "plan: \"xxh3:%s\"\nenacted: %s\n" "${x%%-*}" "${x#*:}" \
			>"gap/history/${x%%:*}.inputs.yaml" || return 1
	done &&
	awk "BEGIN {
		t = 1700000000; s = 0
		for (i = 0; i <= 60; i++) { print t, \"-\", s; t += 10; s += 1000 }
		for (t = 1700000700; t <= 1700000800; t += 10) print t, \"-\", s
		t = 1700000950
		for (i = 0; i <= 60; i++) { print t, \"-\", s; t += 10; s += 1900 }
	}" >gap/progress/u.log &&
	bf-profile -d gap 2>err &&
	grep -E "^  [12]: " gap/profiles/u.yaml >actual &&
	printf "  1: 100\n  2: 190\n" >expect &&
	test_cmp expect actual &&
	grep -c "NODES .-. at a time no enacted plan gave the job nodes" err >count &&
	echo 11 >expect && test_cmp expect count
'

# A history that cannot be listed (user nobody, in a spool of its own whose
# history/ is root's, 0711: a directory others may write would not be
# trusted, bf-spool(5) SECURITY): every job
# with a "-" log fails and keeps its profile; the others are profiled.
if test_have_root && command -v setpriv >/dev/null 2>&1; then
	test_expect_success 'history/ unreadable: the jobs that need it fail, 74' '
		cp -R same unread &&
		printf "name: w\ncommand: x\nmax_nodes: 8\nrescale_up: 0\n" >w.yaml &&
		cp unread/jobs/u.yaml unread/jobs/v.yaml &&
		sed -i "s/^name: u$/name: v/" unread/jobs/v.yaml &&
		cp unread/jobs/u.yaml unread/jobs/w.yaml &&
		sed -i "s/^name: u$/name: w/" unread/jobs/w.yaml &&
		cp unread/progress/u.log unread/progress/v.log &&
		awk "{ print \$1, 1, \$3 }" unread/progress/u.log >unread/progress/w.log &&
		echo "kept" >unread/profiles/v.yaml &&
		chmod 711 unread/history &&
		chown 65534 unread unread/profiles unread/tmp &&
		chmod 644 unread/progress/*.log unread/jobs/*.yaml &&
		test_expect_code 74 setpriv --reuid=65534 --regid=65534 \
			--clear-groups bf-profile -d unread 2>err &&
		echo "kept" >expect && test_cmp expect unread/profiles/v.yaml &&
		grep -E "^  1: " unread/profiles/w.yaml &&
		grep -c "^bf-profile: unable to list unread/history: " err >count &&
		echo 2 >expect && test_cmp expect count
	'
else
	test_skip 'history/ unreadable: the jobs that need it fail, 74' \
		'needs root and setpriv to run bf-profile as another user'
fi

test_done
