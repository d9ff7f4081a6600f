#!/bin/sh
# bf-solve --horizon learnt and bf-watch --horizon learnt (bf-solve(1), The
# horizon; bf-spool(5), Lifetimes file): the look-ahead of a decision is
# the mean expected remaining idle time of the free idle nodes, until where
# the holes file gives it, else learnt from the holes files of history/.
# A small history written by hand, the lifetimes file and the horizons
# worked out by hand from it, the plans they make; the holes learnt from
# a replay bf-sim --spool wrote down are bf-sim's own; an update that learns
# only what history gained equals a reading of the whole; a crash before
# the rename; damaged lifetimes, manifests and holes objects, each named
# by file and line (65); bf-watch falling back to the fixed look-ahead.
. "$(dirname "$0")/lib.sh"

H=sp/history

# A plan enacted at TIME whose holes are HOSTS, and its line in the index.
enact() {	# time hosts
	hist_enact $H "$1" "$2" "" "" &&
	echo "$1.000000 $hist_last" >>$H/allocs.idx
}

plan_line() {
	sed -n 's/, seconds: [0-9.]*//; s/, mps: [^}]*}/}/; /^solver:/p' \
		sp/plans/current.yaml
}

test_expect_success 'setup: a history of four holes files, a job holding ten nodes' '
	mkspool sp &&
	hist_init $H &&
	printf "# bftrainer allocation index 1\n" >$H/allocs.idx &&
	enact 1000 "n[21-30]" &&
	enact 1100 "n[01-30]" &&
	enact 1200 "n[11-30]" &&
	enact 1400 "n[21-32]" &&
	s4=$hist_last && echo "$s4" >s4 &&
	cat >sp/holes/current.yaml <<-EOF &&
	time: 1450
	source: test
	idle:
	  - nodes: "n[21-33]"
	  - nodes: n34
	    until: 2450
	EOF
	cat >sp/jobs/a.yaml <<-EOF &&
	name: a
	command: "true"
	min_nodes: 1
	max_nodes: 14
	rescale_up: 30
	rescale_down: 10
	scaling:
	  1: 100
	  14: 1400
	EOF
	printf "time: 1450\njobs:\n  a: {nodes: 10, hosts: \"n[21-30]\"}\n" \
		>sp/state.yaml
'

# 1000: n[21-30] idle since we do not know when (the first file); 1100:
# n[01-20] begin; 1200: n[01-10] end after 100 s; 1400: n[11-20] end
# after 300 s, n[31-32] begin.  20 holes: 10 of 100 s, 10 of 300 s.
test_expect_success 'the default is the fixed 10 s, and learns nothing' '
	bf-solve -d sp &&
	echo "solver: {name: cbc, model: compact, status: optimal, objective: 10000, tfwd: 10}" >expect &&
	plan_line >actual && test_cmp expect actual &&
	grep "^  a: {nodes: 10, was: 10, hosts: \"n\[21-30\]\"}$" sp/plans/current.yaml &&
	test ! -e sp/lifetimes
'

test_expect_success 'learnt: the lifetimes file, worked out by hand' '
	bf-solve -d sp --horizon learnt &&
	s4=$(cat s4) &&
	end=$(wc -c <$H/allocs.idx) &&
	start=$((end - $(tail -n 1 $H/allocs.idx | wc -c))) &&
	cat >expect <<-EOF &&
	# bftrainer lifetimes 1
	index $start $end $s4
	holes 1400 $(digest $H/.holes)
	hole 100 10
	hole 300 10
	idle 1400 n[31-32]
	idle-before 1000 n[21-30]
	EOF
	test_cmp expect sp/lifetimes
'

# Free: n31 and n32 (age 50: 200 - 50 = 150), n33 (not idle in history:
# age 0, the mean 200), n34 (until 2450: 1000 s).  T = 1500 / 4 = 375.
# Held by a: n[21-30], idle since before 1000 (age 450 > 100: fewer than
# 20 holes lasted longer), left out.  A grow of 4 nodes: 375 x 400 > 30 x
# 1000; the objective 375 x 1400 - 30 x 1000 = 495000.
test_expect_success 'learnt: T = 375 s, and the job grows onto every free node' '
	echo "solver: {name: cbc, model: compact, status: optimal, objective: 495000, tfwd: 375, horizon: learnt}" >expect &&
	plan_line >actual && test_cmp expect actual &&
	grep "^  a: {nodes: 14, was: 10, hosts: \"n\[21-34\]\"}$" sp/plans/current.yaml &&
	grep "^free: \"\"$" sp/plans/current.yaml
'

test_expect_success 'nothing new in history: the file is not written again' '
	ls -i sp/lifetimes >before &&
	bf-solve -d sp --horizon learnt &&
	ls -i sp/lifetimes >after && test_cmp before after &&
	find sp/tmp -type f >left && test_must_be_empty left
'

test_expect_success 'the same file named on the command line: the same plan' '
	cp sp/lifetimes life &&
	bf-solve --horizon learnt --lifetimes life -s sp/state.yaml \
		sp/holes/current.yaml sp/jobs/a.yaml >filter.plan &&
	grep "tfwd: 375, horizon: learnt" filter.plan &&
	grep "^  a: {nodes: 14, was: 10, hosts: \"n\[21-34\]\"}$" filter.plan
'

# --horizon-cap: T at most the cap.  A grow of 4 nodes pays when T x 400 >
# 30 x 1000, T > 75: with the cap at 100 it grows, 100 x 1400 - 30000 =
# 110000; at 60 it stays on its 10 nodes, 60 x 1000 = 60000; above the
# learnt 375 the cap changes nothing.  A cap that binds is taken down to
# the millisecond (100.0006: T = 100, not 100.001).
test_expect_success '--horizon-cap: T at most the cap, and the plan it makes' '
	bf-solve --horizon learnt --horizon-cap 100 --lifetimes life \
		-s sp/state.yaml sp/holes/current.yaml sp/jobs/a.yaml >cap100 &&
	grep "objective: 110000, seconds: [0-9.]*, tfwd: 100, horizon: learnt" cap100 &&
	grep "^  a: {nodes: 14, was: 10, hosts: \"n\[21-34\]\"}$" cap100 &&
	bf-solve --horizon learnt --horizon-cap 60 --lifetimes life \
		-s sp/state.yaml sp/holes/current.yaml sp/jobs/a.yaml >cap60 &&
	grep "objective: 60000, seconds: [0-9.]*, tfwd: 60, horizon: learnt" cap60 &&
	grep "^  a: {nodes: 10, was: 10, hosts: \"n\[21-30\]\"}$" cap60 &&
	bf-solve --horizon learnt --horizon-cap 100.0006 --lifetimes life \
		-s sp/state.yaml sp/holes/current.yaml sp/jobs/a.yaml >capms &&
	grep "objective: 110000, seconds: [0-9.]*, tfwd: 100, horizon: learnt" capms &&
	bf-solve --horizon learnt --horizon-cap 400 --lifetimes life \
		-s sp/state.yaml sp/holes/current.yaml sp/jobs/a.yaml >cap400 &&
	grep "objective: 495000, seconds: [0-9.]*, tfwd: 375, horizon: learnt" cap400
'

# 1600 (below): n32 ends after 200 s.
# 1500: n31 ends after 100 s; n[35-36] begin.  21 holes: 11 x 100, 10 x
# 300, mean 4100 / 21.  At 1550, free: n32 (age 150: only 10 longer, left
# out), n35, n36 (age 50: 4100 / 21 - 50) and n37 (age 0: 4100 / 21);
# T = (3 x 4100 / 21 - 100) / 3 = 161.904761..., to the millisecond; the
# objective 161.905 x 1400 - 30 x 1000 = 196667.
test_expect_success 'history grows: only the new line is learnt from' '
	enact 1500 "n[21-30],n32,n[35-36]" &&
	echo "$hist_last" >s5 &&
	cat >sp/holes/current.yaml <<-EOF &&
	time: 1550
	source: test
	idle:
	  - nodes: "n[21-30],n32,n[35-37]"
	EOF
	bf-solve -d sp --horizon learnt &&
	s5=$(cat s5) &&
	end=$(wc -c <$H/allocs.idx) &&
	start=$((end - $(tail -n 1 $H/allocs.idx | wc -c))) &&
	cat >expect <<-EOF &&
	# bftrainer lifetimes 1
	index $start $end $s5
	holes 1500 $(digest $H/.holes)
	hole 100 11
	hole 300 10
	idle 1400 n32
	idle 1500 n[35-36]
	idle-before 1000 n[21-30]
	EOF
	test_cmp expect sp/lifetimes &&
	echo "solver: {name: cbc, model: compact, status: optimal, objective: 196667, tfwd: 161.905, horizon: learnt}" >expect &&
	plan_line >actual && test_cmp expect actual &&
	grep "^  a: {nodes: 14, was: 10, hosts: \"n\[21-30,32,35-37\]\"}$" \
		sp/plans/current.yaml
'

test_expect_success 'learnt again from the whole history: the same file' '
	cp sp/lifetimes incremental &&
	rm sp/lifetimes &&
	bf-solve -d sp --horizon learnt &&
	test_cmp incremental sp/lifetimes
'

test_expect_success 'an index made again: read from its first line, the same table' '
	{ head -n 1 $H/allocs.idx; echo "# made again"; tail -n +2 $H/allocs.idx; } \
		>idx && mv idx $H/allocs.idx &&
	bf-solve -d sp --horizon learnt &&
	sed 1,2d incremental >expect && sed 1,2d sp/lifetimes >actual &&
	test_cmp expect actual &&
	! grep "^index $(sed -n "s/^index //p" incremental)$" sp/lifetimes
'

test_expect_success 'a crash before the rename leaves the file before, and a rerun learns' '
	cp sp/lifetimes before &&
	enact 1600 "n[21-30],n[35-36]" &&
	test_expect_code 137 env BF_FAULT=atomic-before-rename \
		bf-solve -d sp --horizon learnt &&
	test_cmp before sp/lifetimes &&
	bf-solve -d sp --horizon learnt &&
	grep "^holes 1600 " sp/lifetimes &&
	grep "^hole 200 1$" sp/lifetimes
'

test_expect_success 'until only: no history, no lifetimes file' '
	cat >h.yaml <<-EOF &&
	time: 1000
	source: test
	idle:
	  - nodes: "m[1-2]"
	  - nodes: m3
	    until: 1100
	  - nodes: m4
	    until: 1300
	EOF
	bf-solve --horizon learnt h.yaml sp/jobs/a.yaml >p1 &&
	grep "tfwd: 200, horizon: learnt" p1 &&
	bf-solve --horizon learnt --horizon-cap 150.5 h.yaml sp/jobs/a.yaml >p1c &&
	grep "tfwd: 150.5, horizon: learnt" p1c &&
	bf-solve h.yaml sp/jobs/a.yaml >p2 &&
	grep "tfwd: 10}" p2 || grep "tfwd: 10," p2
'

test_expect_success 'too few holes ended: the fallback -T' '
	printf "# bftrainer lifetimes 1\nhole 100 19\n" >few &&
	printf "time: 1000\nsource: test\nidle:\n  - nodes: m1\n" >h2.yaml &&
	bf-solve --horizon learnt --lifetimes few -T 42 h2.yaml sp/jobs/a.yaml >p3 &&
	grep "tfwd: 42, horizon: learnt" p3 &&
	bf-solve --horizon learnt --horizon-cap 30 --lifetimes few -T 42 \
		h2.yaml sp/jobs/a.yaml >p4 &&
	grep "tfwd: 30, horizon: learnt" p4 &&
	bf-solve --horizon learnt --horizon-cap 50 --lifetimes few -T 42 \
		h2.yaml sp/jobs/a.yaml >p5 &&
	grep "tfwd: 42, horizon: learnt" p5
'

# bf-sim --spool records every decision of a replay as bf-apply records
# an enacted plan, with the idle nodes' holes file: the spool's learning
# must find the holes bf-sim's own learnt horizon found (t6060: learn.csv,
# late-jobs.csv, to 300 s: h01..h20 idle from 10 s to 110 s, 20 holes of
# 100 s; w1, w2 idle from 120 s, w3, w4 from 200 s).  Made again at the
# last decision (200 s), b holding w[1-4], none free: over all idle nodes,
# w1, w2 at age 80 (100 - 80 = 20) and w3, w4 at age 0 (100): T = 60, and
# b stays on 4 nodes (10 samples/s a node): 60 x 40 = 2400.
test_expect_success 'a replay written down by bf-sim --spool: the holes bf-sim learnt' '
	S="$T_DIR/data/sim" &&
	bf-sim --idle-trace "$S/learn.csv" --jobs "$S/late-jobs.csv" \
		--curves "$S/curves.csv" --curve-source HAND -o simout \
		--no-plot --to 300 --horizon learnt --spool simsp &&
	grep -x "horizon_holes: 20" simout/summary.yaml &&
	bf-solve -d simsp --horizon learnt &&
	sed 1,3d simsp/lifetimes >actual &&
	printf "hole 100 20\nidle 120 w[1-2]\nidle 200 w[3-4]\n" >expect &&
	test_cmp expect actual &&
	grep "objective: 2400, seconds: [0-9.]*, tfwd: 60, horizon: learnt" \
		simsp/plans/current.yaml
'

# Each damaged file named by file and line, 65 (bf-solve(1), EXIT STATUS).
bad_life() {	# title expected-message lines...
	_title=$1 _msg=$2
	shift 2
	printf "%s\n" "$@" >sp/lifetimes
	test_expect_success "a damaged lifetimes file: $_title" "
		test_expect_code 65 bf-solve -d sp --horizon learnt 2>err &&
		echo \"bf-solve: $_msg\" >expect && test_cmp expect err
	"
}

bad_life 'lines out of order' \
	'lifetimes:3: hole lengths must ascend (remove it: it is learnt again from history/)' \
	'# bftrainer lifetimes 1' 'hole 300 10' 'hole 100 10'
bad_life 'no header' \
	"lifetimes:1: not a lifetimes file (its first line is not '# bftrainer lifetimes 1') (remove it: it is learnt again from history/)" \
	'hole 100 10'
bad_life 'an unknown line' \
	'lifetimes:2: unknown line (index, holes, hole, idle, idle-before) (remove it: it is learnt again from history/)' \
	'# bftrainer lifetimes 1' 'holes-ish 1 2'
bad_life 'a count of 0' \
	'lifetimes:2: hole must be SECONDS COUNT, both whole and above 0 (remove it: it is learnt again from history/)' \
	'# bftrainer lifetimes 1' 'hole 100 0'
bad_life 'a node idle twice' \
	'lifetimes:4: node n2 is idle twice (line 3 too) (remove it: it is learnt again from history/)' \
	'# bftrainer lifetimes 1' 'holes 1000 xxh3:0000000000000001' \
	'idle 900 n[1-2]' 'idle-before 800 n2'
bad_life 'a bad hostlist' \
	"lifetimes:3: idle: bad hostlist 'n[3-1]': range 3-1 runs backwards (remove it: it is learnt again from history/)" \
	'# bftrainer lifetimes 1' 'holes 1000 xxh3:0000000000000001' \
	'idle 900 n[3-1]'

test_expect_success 'a damaged lifetimes file cut short' '
	printf "# bftrainer lifetimes 1\nhole 100 1" >sp/lifetimes &&
	test_expect_code 65 bf-solve -d sp --horizon learnt 2>err &&
	echo "bf-solve: lifetimes:2: cut short: no newline at its end (remove it: it is learnt again from history/)" >expect &&
	test_cmp expect err
'

test_expect_success 'a damaged lifetimes file given with --lifetimes: named as given' '
	printf "# bftrainer lifetimes 1\nhole x 1\n" >bad &&
	test_expect_code 65 bf-solve --horizon learnt --lifetimes bad h.yaml \
		sp/jobs/a.yaml 2>err &&
	echo "bf-solve: bad:2: hole must be SECONDS COUNT, both whole and above 0 (remove it: it is learnt again from history/)" >expect &&
	test_cmp expect err
'

test_expect_success 'a holes object of history that is not its digest' '
	rm sp/lifetimes &&
	obj=$(sed -n "s/^holes: \"xxh3:\(.*\)\"$/\1/p" $H/$(cat s4).inputs.yaml) &&
	cp $H/objects/$obj saved &&
	echo "# changed" >>$H/objects/$obj &&
	test_expect_code 65 bf-solve -d sp --horizon learnt 2>err &&
	echo "bf-solve: history/objects/$obj:1: its bytes are not its name'"'"'s digest" >expect &&
	test_cmp expect err && test ! -e sp/lifetimes &&
	cp saved $H/objects/$obj
'

test_expect_success 'a holes object of history that does not parse' '
	printf "time: soon\nsource: test\nidle: []\n" >$H/.bad &&
	store $H $H/.bad &&
	m=$H/$(cat s5).inputs.yaml && cp $m saved.m &&
	sed "s/^holes: .*/holes: \"$obj\"/" saved.m >$m &&
	test_expect_code 65 bf-solve -d sp --horizon learnt 2>err &&
	grep "^bf-solve: history/objects/${obj#xxh3:}:1: " err &&
	test $(wc -l <err) = 1 &&
	cp saved.m $m
'

test_expect_success 'a manifest of history without its holes' '
	m=$H/$(cat s5).inputs.yaml &&
	grep -v "^holes:" saved.m >$m &&
	test_expect_code 65 bf-solve -d sp --horizon learnt 2>err &&
	echo "bf-solve: history/$(cat s5).inputs.yaml:1: a manifest names its holes" >expect &&
	test_cmp expect err &&
	cp saved.m $m &&
	bf-solve -d sp --horizon learnt && grep "^holes 1600 " sp/lifetimes
'

test_expect_success 'usage: --horizon, --lifetimes (64)' '
	test_expect_code 64 bf-solve --horizon later h.yaml 2>err &&
	grep "^bf-solve: --horizon must be fixed or learnt, not '"'"'later'"'"'$" err &&
	test_expect_code 64 bf-solve --lifetimes life h.yaml 2>err &&
	grep "^bf-solve: --lifetimes is read with --horizon learnt only$" err &&
	test_expect_code 64 bf-solve -d sp --horizon learnt --lifetimes life &&
	test_expect_code 64 bf-watch -d sp --horizon later 2>err &&
	grep "^bf-watch: --horizon must be fixed or learnt, not '"'"'later'"'"'$" err &&
	test_expect_code 64 bf-solve --horizon-cap 60 h.yaml 2>err &&
	grep "^bf-solve: --horizon-cap needs --horizon learnt: -T is the fixed horizon$" err &&
	test_expect_code 64 bf-solve --horizon fixed --horizon-cap 60 h.yaml &&
	test_expect_code 64 bf-solve --horizon learnt --horizon-cap 0 h.yaml 2>err &&
	grep "^bf-solve: --horizon-cap" err &&
	test_expect_code 64 bf-solve --horizon learnt --horizon-cap 60s h.yaml &&
	test_expect_code 64 bf-watch -d sp --horizon-cap 60 2>err &&
	grep "^bf-watch: --horizon-cap needs --horizon learnt: the fixed horizon is 10 s$" err
'

test_expect_success 'bf-watch --horizon learnt: the learnt T' '
	rm -f sp/lifetimes &&
	bf-watch -d sp --once --no-profile --horizon learnt 2>log &&
	grep "tfwd: [0-9.]*, horizon: learnt" sp/plans/current.yaml &&
	test -f sp/lifetimes
'

# bf-audit solves an enacted learnt plan again with its recorded tfwd.
test_expect_success 'bf-audit: an enacted learnt plan made again, identical' '
	f=$(grep -l "horizon: learnt" $H/[0-9]*.yaml | head -n 1) &&
	test -n "$f" &&
	bf-audit -d sp "$(basename "$f")" >out &&
	echo "history/$(basename "$f"): identical" >expect &&
	test_cmp expect out
'

# A new holes file (the same nodes, 1650), decided with the cap at 5 s: the
# learnt T here is above it (the free nodes n35 and up are idle 100 s or
# less), so T is the cap; bf-audit makes the plan again from its tfwd.
test_expect_success 'bf-watch --horizon-cap: the capped T, audited' '
	echo "time: 1650" >sp/holes/.n && sed 1d sp/holes/current.yaml >>sp/holes/.n &&
	mv sp/holes/.n sp/holes/current.yaml &&
	bf-watch -d sp --once --no-profile --horizon learnt --horizon-cap 5 2>log &&
	grep "^time: 1650$" sp/plans/current.yaml &&
	grep "tfwd: 5, horizon: learnt" sp/plans/current.yaml &&
	f=$(grep -l "^time: 1650$" $H/[0-9]*.yaml | head -n 1) &&
	test -n "$f" &&
	bf-audit -d sp "$(basename "$f")" >out &&
	echo "history/$(basename "$f"): identical" >expect &&
	test_cmp expect out
'

test_expect_success 'bf-watch: a damaged lifetimes file, the fixed 10 s, said once' '
	printf "# bftrainer lifetimes 1\nhole 300 1\nhole 100 1\n" >sp/lifetimes &&
	echo "time: 1700" >sp/holes/.n && sed 1d sp/holes/current.yaml >>sp/holes/.n &&
	mv sp/holes/.n sp/holes/current.yaml &&
	bf-watch -d sp --once --no-profile --horizon learnt 2>log &&
	grep -c "^bf-watch: horizon: lifetimes:3: hole lengths must ascend (remove it: it is learnt again from history/); the fixed look-ahead (10 s) until it is learnt again$" log >n &&
	echo 1 >one && test_cmp one n &&
	grep "^time: 1700$" sp/plans/current.yaml &&
	grep "tfwd: 10[,}]" sp/plans/current.yaml &&
	! grep "horizon: learnt" sp/plans/current.yaml
'

test_expect_success 'bf-watch: the same with --horizon-cap 5: the fallback capped too' '
	echo "time: 1750" >sp/holes/.n && sed 1d sp/holes/current.yaml >>sp/holes/.n &&
	mv sp/holes/.n sp/holes/current.yaml &&
	bf-watch -d sp --once --no-profile --horizon learnt --horizon-cap 5 2>log &&
	grep "^bf-watch: horizon: lifetimes:3: hole lengths must ascend (remove it: it is learnt again from history/); the fixed look-ahead (5 s) until it is learnt again$" log &&
	grep "^time: 1750$" sp/plans/current.yaml &&
	grep "tfwd: 5[,}]" sp/plans/current.yaml &&
	! grep "horizon: learnt" sp/plans/current.yaml
'

test_done
