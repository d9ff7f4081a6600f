#!/bin/sh
# bf-solve uses bf-profile's measurements: measured rates override declared
# ones and scale those at the counts not measured; with --probe a job being
# profiled may only stop, stay or probe the advised count, by default it is
# measured where the plan puts it and a job with no curve gets the median
# prior; the plan records the profiles it used and how.
. "$(dirname "$0")/lib.sh"

# A progress log: 1 node at 100 samples/s for 600 s, then 2 nodes at 190/s.
make_log() {
	awk 'BEGIN {
		t = 1700000000; s = 0
		for (i = 0; i <= 60; i++) { print t, 1, s; t += 10; s += 1000 }
		t += 20
		for (i = 0; i <= 60; i++) { print t, 2, s; t += 10; s += 1900 }
	}'
}

holes8() {
	printf 'time: 1700002000\nsource: test\nidle:\n  - nodes: n[1-8]\n'
}

test_expect_success 'bf-profile measures the log exactly' '
	printf "name: u\ncommand: x\nmax_nodes: 8\n" >u.yaml &&
	make_log >u.log && mkdir prof &&
	bf-profile -j u.yaml u.log >prof/u.yaml 2>err &&
	sed -n "/^points:/,/^[a-z]/p" prof/u.yaml >points &&
	printf "points:\n  1: 100\n  2: 190\nrescale: {}\n" >expect0 &&
	grep -E "^  [12]: " points >actual &&
	printf "  1: 100\n  2: 190\n" >expect &&
	test_cmp expect actual &&
	grep "^advise: {next_nodes: 4" prof/u.yaml
'

test_expect_success '--probe: a job being profiled goes to its probe count, said in the plan' '
	holes8 >h.yaml &&
	bf-solve --probe --profiles prof h.yaml u.yaml >plan 2>err &&
	grep "^  u: {nodes: 4, was: 0," plan &&
	grep "profiling: may only stop, stay or probe 4 nodes" plan &&
	grep "^solver: {.*, curve: scaled, profiling: probe}" plan
'

test_expect_success 'passive, the default: the advice does not hold the job' '
	bf-solve --profiles prof h.yaml u.yaml >passive 2>err &&
	grep "^  u: {nodes: 8, was: 0," passive &&
	! grep -q "probe" passive &&
	grep "^solver: {.*, curve: scaled, profiling: passive}" passive
'

test_expect_success '--probe: a running job grows to its probe count: the move is not charged' '
	printf "time: 1\njobs:\n  u: {nodes: 2, hosts: \"n[1-2]\"}\n" >s8.yaml &&
	bf-solve --probe -s s8.yaml --profiles prof h.yaml u.yaml >probe 2>/dev/null &&
	grep "^  u: {nodes: 4, was: 2," probe &&
	# The same curve declared, no profile, at most 4 nodes: r(4) = 370
	# along the last slope, and 10 s x (370 - 190) gained is less than
	# 18 s x 190 lost, so the job stays.
	printf "name: u\ncommand: x\nmax_nodes: 4\nrescale_up: 18\nscaling:\n  1: 100\n  2: 190\n" >ucurve.yaml &&
	bf-solve -s s8.yaml h.yaml ucurve.yaml >noprobe 2>/dev/null &&
	grep "^  u: {nodes: 2, was: 2," noprobe
'

test_expect_success 'the plan records the digest of the profiles it used' '
	p=$(xxhsum -H3 prof/u.yaml | sed "s/.* = //") &&
	want=$(printf "u xxh3:%s\n" "$p" | xxhsum -H3 | sed "s/.* = //") &&
	grep "profiles: \"xxh3:$want\"" plan &&
	bf-solve h.yaml u.yaml >plain 2>/dev/null &&
	! grep -q "profiles:" plain
'

test_expect_success 'the probe value follows the fitted law, capped by linear scaling' '
	r1=$(sed -n "s/.*r1: \([0-9.e+-]*\).*/\1/p" prof/u.yaml) &&
	sigma=$(sed -n "s/.*sigma: \([0-9.e+-]*\).*/\1/p" prof/u.yaml) &&
	awk -v r1="$r1" -v s="$sigma" "BEGIN {
		law = r1 * 4 / (1 + s * 3); lin = 190 * 2
		r = law < lin ? law : lin
		printf \"%.6f\n\", 10 * r }" >expect &&
	sed -n "s/.*objective: \([0-9.e+-]*\).*/\1/p" plan | awk "{ printf \"%.6f\n\", \$1 }" >actual &&
	test_cmp expect actual
'

test_expect_success 'measured rates replace declared ones at the counts measured' '
	printf "name: u\ncommand: x\nmax_nodes: 2\nscaling:\n  1: 50\n  2: 60\n" >ud.yaml &&
	printf "time: 1\nsource: test\nidle:\n  - nodes: n[1-2]\n" >h2.yaml &&
	printf "time: 1\njobs:\n  u: {nodes: 2, hosts: \"n[1-2]\"}\n" >s2.yaml &&
	bf-solve -s s2.yaml h2.yaml ud.yaml >declared 2>/dev/null &&
	grep "objective: 600," declared &&
	bf-solve -s s2.yaml --profiles prof h2.yaml ud.yaml >measured 2>/dev/null &&
	grep "objective: 1900," measured &&
	grep "^  u: {nodes: 2, was: 2" measured
'

# prof/u.yaml measured 100 at 1 and 190 at 2.  Declared 60 at 2 is 190 on
# this machine, 3.1667 times as much: so is 120 declared at 4, 380.  Taken
# as declared, 120 at 4 would be worth less than 190 at 2 and the job
# would never grow to its probe (bf-solve once kept it on 2).
test_expect_success 'a declared rate not measured is scaled to the measurements: the probe' '
	printf "name: u\ncommand: x\nmax_nodes: 4\nscaling:\n  1: 50\n  2: 60\n  4: 120\n" >u4.yaml &&
	bf-solve --probe -s s8.yaml --profiles prof h.yaml u4.yaml >scaled 2>/dev/null &&
	grep "^  u: {nodes: 4, was: 2," scaled &&
	grep "objective: 3800," scaled
'

# Measured over declared: 2 at 1 node, 1.5 at 4; at 2 nodes, a third of the
# way, 1.8333: declared 60 is 110, more than the 100 measured at 1.
test_expect_success 'between two measured counts, the ratio interpolated' '
	printf "name: v\ncommand: x\nmax_nodes: 4\nscaling:\n  1: 50\n  2: 60\n  4: 200\n" >v.yaml &&
	mkdir profv && printf "name: v\npoints:\n  1: 100\n  4: 300\n" >profv/v.yaml &&
	bf-solve --profiles profv h2.yaml v.yaml >between 2>/dev/null &&
	grep "^  v: {nodes: 2, was: 0," between &&
	grep "objective: 1100," between
'

# The prior: u measured 100 samples/s at 1 node and 190 at 2 (a profile
# with no law: past 2 nodes its last slope, 90 a node); w declares nothing
# and is not measured, max_nodes 4.  Believed at the median rate per node
# measured, 100, w at 4 nodes (400) is worth more than u's nodes 5 to 8
# (370 to 730): u 4, w 4, 10 x (370 + 400) = 7700.  With --probe (no
# prior) w is at the provisional 1 sample/s per node: u 8 (730), w none.
test_expect_success 'a job with no curve gets the median prior, said in the plan' '
	mkdir profm && printf "name: u\npoints:\n  1: 100\n  2: 190\n" >profm/u.yaml &&
	printf "name: w\ncommand: x\nmax_nodes: 4\n" >w.yaml &&
	bf-solve --profiles profm h.yaml u.yaml w.yaml >prior 2>err &&
	grep "objective: 7700," prior &&
	grep "^  u: {nodes: 4, was: 0," prior &&
	grep "^  w: {nodes: 4, was: 0, .*, note: \"no scaling: the prior, the median rate per node measured, 100 samples/s per node, until bf-profile measures it\"}$" prior &&
	bf-solve --probe --profiles profm h.yaml u.yaml w.yaml >noprior 2>err &&
	grep "objective: 7300," noprior &&
	grep "^  u: {nodes: 8, was: 0," noprior &&
	grep "^  w: {nodes: 0, was: 0, note: \"no scaling: provisional rate of 1 sample/s per node" noprior
'

# Under a policy's max_rate_per_node of 60, the prior of 100 a node is
# valued at 60, and the note says so.
test_expect_success 'the prior under max_rate_per_node: capped, and said capped' '
	printf "max_rate_per_node: 60\n" >cap60.yaml &&
	bf-solve --policy cap60.yaml --profiles profm h.yaml u.yaml w.yaml >capped 2>err &&
	grep "^  w: {.*the median rate per node measured, 60 samples/s per node," capped
'

# x measured only at 2 nodes, 100 samples/s: 50 a node.  The median of 50
# and 100 is their mean, 75; a job with a declared curve gets no prior.
test_expect_success 'the prior: the median of each job at its smallest count measured' '
	cp profm/u.yaml profm/x.yaml && printf "name: x\npoints:\n  2: 100\n" >profm/x.yaml &&
	printf "name: x\ncommand: x\nmax_nodes: 2\n" >x.yaml &&
	printf "name: d\ncommand: x\nmax_nodes: 2\nscaling: {1: 5}\n" >d.yaml &&
	bf-solve --profiles profm h.yaml d.yaml u.yaml w.yaml x.yaml >even 2>err &&
	grep "^  w: {.*the median rate per node measured, 75 samples/s per node," even &&
	! grep "^  d: {.*prior" even &&
	! grep "^  [ux]: {.*prior" even &&
	bf-solve h.yaml w.yaml >none 2>err &&
	grep "^  w: {.*provisional rate of 1 sample/s per node" none
'

# t/data/audit/joined: a plan made by the version before (SOURCES.md), which
# took u's declared 120 at 4 nodes as it is: objective 1200.
OLD=1700002000-811b92e7c5013df7
test_expect_success 'a plan made before curves were scaled: audited as it was made' '
	mkspool old && cp -R "$T_DIR/data/audit/joined/." old/history/ &&
	bf-audit -d old $OLD >out &&
	echo "history/$OLD.yaml: identical" >expect && test_cmp expect out &&
	grep -q "objective: 1200, seconds: [0-9.]*, tfwd: 10, mps: " old/history/$OLD.yaml &&
	! grep -q "curve:" old/history/$OLD.yaml &&
	obj() { sed -n "/^$1:/,/^[a-z]/s/^  u: \"xxh3:\(.*\)\"$/old\/history\/objects\/\1/p" \
		old/history/$OLD.inputs.yaml; } &&
	mkdir profo && cp $(obj profiles) profo/u.yaml &&
	holes=old/history/objects/$(sed -n "s/^holes: \"xxh3:\(.*\)\"$/\1/p" \
		old/history/$OLD.inputs.yaml) &&
	bf-solve --profiles profo $holes $(obj jobs) >now 2>/dev/null &&
	grep "objective: 3800, seconds: [0-9.]*, tfwd: 10, curve: scaled, profiling: passive}" now &&
	grep "^  u: {nodes: 4, was: 0," now
'

# bf-report values the hour u held 4 nodes by the rule each plan was made
# by: joined, the declared 120 samples/s (432,000); with solver.curve:
# scaled, 120 times the measured/declared ratio held from 2 nodes, 190/60
# (380: 1,368,000).  A second plan, an hour later, ends the hour.
# FILE into history DIR as the plan of TIME, named by its digest, with
# MANIFEST's inputs, enacted SECONDS after MANIFEST's plan; its stem in $stem.
place_plan() {	# dir file time manifest seconds
	p=$(digest "$2") && stem=$3-${p#xxh3:} && mv "$2" "$1/$stem.yaml" &&
	e=$(sed -n "s/^enacted: //p" "$4") &&
	sed -e "s/^plan: .*/plan: \"$p\"/" \
	    -e "s/^enacted: .*/enacted: $((${e%%.*} + $5)).${e#*.}/" \
	    "$4" >"$1/$stem.inputs.yaml"
}
second_plan() {	# dir stem: the plan an hour after STEM's, u gone
	sed -e "s/^time: 1700002000\$/time: 1700005600/" \
	    -e "s/objective: 1200,/objective: 0,/" -e "/^jobs:/,\$d" \
	    "$1/$2.yaml" >"$1/.p2" &&
	printf "jobs: {}\nfree: \"n[1-4]\"\n" >>"$1/.p2" &&
	place_plan "$1" "$1/.p2" 1700005600 "$1/$2.inputs.yaml" 3600
}
ideal_of_u() {	# history
	bf-report --history "$1" --csv | awk -F, "\$1 == \"job\" && \$4 == \"u\" { print \$6, \$9 }"
}
test_expect_success 'bf-report values a plan by the rule it was made by' '
	cp -R "$T_DIR/data/audit/joined" rj && second_plan rj $OLD &&
	ideal_of_u rj >actual && echo "4.000000 432000" >expect &&
	test_cmp expect actual &&
	cp -R "$T_DIR/data/audit/joined" rs &&
	sed "s/tfwd: 10, mps:/tfwd: 10, curve: scaled, mps:/" rj/$OLD.yaml >rs/.p1 &&
	rm rs/$OLD.yaml rs/$OLD.inputs.yaml &&
	place_plan rs rs/.p1 1700002000 rj/$OLD.inputs.yaml 0 &&
	second_plan rs $stem &&
	ideal_of_u rs >actual && echo "4.000000 1368000" >expect &&
	test_cmp expect actual
'

test_expect_success 'a plan whose curve is not scaled is bad input naming its line' '
	sed "s/tfwd: 10, curve: scaled/tfwd: 10, curve: joined/" now >bad.yaml &&
	grep -q "curve: joined" bad.yaml &&
	mkspool bp && test_expect_code 65 bf-apply -n -d bp bad.yaml 2>err &&
	echo "bf-apply: bad.yaml:3: solver curve must be scaled, not '\''joined'\''" >expect &&
	test_cmp expect err
'

test_expect_success 'the spool mode reads profiles/NAME.yaml by itself' '
	bf-submit -d sp u.yaml >/dev/null && bf-submit --intake -d sp 2>/dev/null &&
	holes8 >sp/holes/current.yaml && cp prof/u.yaml sp/profiles/u.yaml &&
	bf-solve -d sp 2>err &&
	grep "^  u: {nodes: 8, was: 0," sp/plans/current.yaml &&
	bf-solve --probe -d sp 2>err &&
	grep "^  u: {nodes: 4, was: 0," sp/plans/current.yaml &&
	grep -q "profiles: \"xxh3:" sp/plans/current.yaml
'

# The first plan of SPOOL's history/ that has PATTERN, made again by
# bf-audit: identical.
audit_first() {	# spool pattern
	_f=$(grep -l "$2" "$1"/history/[0-9]*.yaml | head -n 1) &&
	test -n "$_f" && bf-audit -d "$1" "$(basename "$_f")" >out &&
	echo "history/$(basename "$_f"): identical" >expect && test_cmp expect out
}

# bf-watch decides passive by default, with --probe by the advisor; each
# plan enacted records how, and bf-audit makes each again from it.  A new
# profile alone is no decision, passive (it counts at the next one); with
# --probe it is one (the advisor's next count).
test_expect_success 'bf-watch: passive or --probe, recorded and audited' '
	mkspool sw && cp u.yaml w.yaml sw/jobs/ &&
	sed -i "s/^command: x/command: \"true\"/" sw/jobs/u.yaml sw/jobs/w.yaml &&
	holes8 >sw/holes/current.yaml && cp profm/u.yaml sw/profiles/u.yaml &&
	bf-watch -d sw --once --no-profile 2>log &&
	grep "^solver: {.*, profiling: passive" sw/plans/current.yaml &&
	grep "^  w: {nodes: 4, .*the prior" sw/plans/current.yaml &&
	audit_first sw "profiling: passive" &&
	cp sw/plans/current.yaml before &&
	printf "name: u\npoints:\n  1: 100\n  2: 200\n" >sw/profiles/u.yaml &&
	bf-watch -d sw --once --no-profile 2>log &&
	test_cmp before sw/plans/current.yaml &&
	printf "time: 1700002001\nsource: test\nidle:\n  - nodes: n[1-8]\n" >sw/holes/current.yaml &&
	bf-watch -d sw --once --no-profile --probe 2>log &&
	grep "^solver: {.*, profiling: probe" sw/plans/current.yaml &&
	audit_first sw "profiling: probe" &&
	cp sw/plans/current.yaml before &&
	printf "name: u\npoints:\n  1: 100\n  2: 150\n" >sw/profiles/u.yaml &&
	bf-watch -d sw --once --no-profile --probe 2>log &&
	! test_cmp before sw/plans/current.yaml >/dev/null &&
	grep "^solver: {.*, profiling: probe" sw/plans/current.yaml
'

# A passive plan not enacted yet, its profile changed: made again (the
# history keeps the inputs a plan was made from).  u now 1: 100, 2: 200,
# 100 a node; w at the median, 100: 8 nodes at 100, 10 x 800 = 8000.
test_expect_success 'bf-watch: a plan not enacted, a profile changed: made again, audited' '
	mkspool sx && cp sw/jobs/u.yaml sw/jobs/w.yaml sx/jobs/ &&
	holes8 >sx/holes/current.yaml && cp profm/u.yaml sx/profiles/u.yaml &&
	bf-solve -d sx 2>err && grep -q "objective: 7700," sx/plans/current.yaml &&
	printf "name: u\npoints:\n  1: 100\n  2: 200\n" >sx/profiles/u.yaml &&
	test_expect_code 75 bf-apply -d sx 2>err &&
	grep "the plan is stale: profiles changed" err &&
	bf-watch -d sx --once --no-profile 2>log &&
	grep -q "objective: 8000," sx/plans/current.yaml &&
	audit_first sx "objective: 8000,"
'

test_expect_success 'a plan whose profiling is neither probe nor passive is bad input' '
	sed "s/profiling: passive/profiling: active/" now >badp.yaml &&
	grep -q "profiling: active" badp.yaml &&
	test_expect_code 65 bf-apply -n -d bp badp.yaml 2>err &&
	echo "bf-apply: badp.yaml:3: solver profiling must be probe or passive, not '\''active'\''" >expect &&
	test_cmp expect err
'

test_expect_success 'a damaged profile is bad input naming the file' '
	printf "name: u\npoints: [1]\n" >sp/profiles/u.yaml &&
	test_expect_code 65 bf-solve -d sp 2>err &&
	grep "^bf-solve: profiles/u.yaml:" err
'

test_done
