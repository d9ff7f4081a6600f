#!/bin/sh
# bf-sim --profile online: the advisor's probes, the waived cost of the
# probe move, measurement events; --voi's prior and value-of-information
# probes; --passive (bf-solve's live default); --profile none; their
# option errors.
# Every expected step is worked out in the comments, not copied from a run.
. "$(dirname "$0")/lib.sh"

D="$T_DIR/data/sim"
HEAD=name,model,submit_s,min_nodes,max_nodes,samples,rescale_up_s,rescale_down_s

sim() {	# jobs dir [option...]
	_jobs=$1 _dir=$2
	shift 2
	bf-sim --idle-trace "$D/eight.csv" --jobs "$_jobs" \
		--curves "$D/probe-curves.csv" -o "$_dir" --no-plot "$@"
}

# Job a: curve lin (10 samples/s a node), 1..4 nodes, no rescale cost;
# 8 nodes idle throughout; reports every 10 s without noise, so the log is
# exact: 100 samples per report at 1 node, 200 at 2, 400 at 4.
#   0 s: nothing measured, the advisor's count is min_nodes = 1, and the
#        choices are 0 or 1 (provisional rate 1/s a node): 1 node.
#  40 s: reports 10..40; the first is warm-up, 20, 30, 40 are three: the
#        point 1: 10; one count: probe 2; believed linear, r(2) = 20:
#        2 nodes (200 against 100 staying).  Done 400.
#  80 s: reports 50..80 at 2; 50 is the segment's first: 60, 70, 80 give
#        2: 20; efficiency (20/2)/(10/1) = 1 >= 0.8, 2 < 4: probe 4; the
#        law of two counts (sigma 0) gives r(4) = 40: 4 nodes.  Done 1200.
# 120 s: 100, 110, 120 give 4: 40; 4 is max_nodes: no probe; a change
#        (a new count), so a decision: stays at 4.  Done 2800.
# Three probe moves (0 -> 1, 1 -> 2, 2 -> 4).
test_expect_success 'probes: 1, 2, 4 nodes, each once measured' '
	{ echo "$HEAD"; echo a,lin,0,1,4,1000000,0,0; } >a.csv &&
	sim a.csv on --to 130 --profile online --noise 0 &&
	cat >expect <<-\EOF &&
	0.000,start,1
	40.000,measure,2
	80.000,measure,4
	120.000,measure,4
	EOF
	tail -n +2 on/steps.csv | cut -d, -f1,2,4 >actual &&
	test_cmp expect actual &&
	tail -n +2 on/steps.csv | cut -d, -f7 >actual &&
	printf "0\n400\n1200\n2800\n" >expect &&
	test_cmp expect actual &&
	grep -x "profile: online" on/summary.yaml &&
	grep -x "profile_probes: 3" on/summary.yaml &&
	grep -x "profile_report_interval: 10" on/summary.yaml &&
	grep -x "profile_noise: 0" on/summary.yaml
'

# The rescale costs the fit measured: the two grows, at 40 and 80 s (on the
# report grid), cost nothing declared and measure 0 (at 2 nodes 60, 70,
# 80 s: t - (S - 400) / 20 = 40, the change), two observations.
test_expect_success 'fits.csv: the measured points beside the true rates' '
	head -1 on/fits.csv >actual &&
	echo "t,name,job,nodes,measured,true,rescale_up,up_obs,rescale_down,down_obs" >expect &&
	test_cmp expect actual &&
	grep "^120.000," on/fits.csv | sort -u >actual &&
	cat >expect <<-\EOF &&
	120.000,a,1,1,10.000,10.000,0.00,2,0.00,0
	120.000,a,1,2,20.000,20.000,0.00,2,0.00,0
	120.000,a,1,4,40.000,40.000,0.00,2,0.00,0
	EOF
	test_cmp expect actual &&
	! grep "^[0-3][0-9]\.000," on/fits.csv
'

# A job reports the commit a rescale's stop makes, as examples/torch does,
# and not when a node is taken back (a killed peer: the last commit
# stands).  a: lin, 1..4, rescale_up 20 s, rescale_down 10 s, --passive,
# no noise; one node at 0 s, three more at 45 s, n4 taken back at 125 s.
#  45 s: a grows 1 -> 4 (believed linear through 1: 10: 400 - 20 x 10 >
#        100); its commit report: 45 1 450.  The debt 20 x 10 = 200 is
#        repaid at 40/s by 50 s: 50: 450, 60: 850, 70: 1250 ...
#        Steady from 45 + 20: t - (S - 450) / 40 = 50, so up 5.00 (20 x
#        10 / 40); from the report at 40 (400) it would read 8.75.
# 125 s: n4 taken back: 4 -> 3, debt 10 x 40 = 400, repaid at 30/s in
#        13.33 s; no report at 125.  From the report at 120 (3250):
#        S = 3450 + 30 (t - 138.33), steady from 130: t - (S - 3250) / 30
#        = 131.67, down 11.67; a report at 125 (3450) would read 13.33.
test_expect_success 'a rescale is reported at its commit, a node taken back is not' '
	printf "t_s,node,idle\n0,n1,1\n45,n2,1\n45,n3,1\n45,n4,1\n125,n4,0\n" >grow.csv &&
	{ echo "$HEAD"; echo a,lin,0,1,4,1000000,20,10; } >c.csv &&
	bf-sim --idle-trace grow.csv --jobs c.csv --no-plot \
		--curves "$D/probe-curves.csv" -o commit --to 170 \
		--noise 0 --profile online --passive &&
	tail -n +2 commit/steps.csv | cut -d, -f1,2,7,9 >actual &&
	printf "0.000,start,0,1\n45.000,trace,450,4\n125.000,trace,3450,3\n" >expect &&
	test_cmp expect actual &&
	grep "^150.000,a,1,4," commit/fits.csv >actual &&
	echo "150.000,a,1,4,40.000,40.000,5.00,1,0.00,0" >expect &&
	test_cmp expect actual &&
	grep "^160.000,a,1,3," commit/fits.csv >actual &&
	echo "160.000,a,1,3,30.000,30.000,5.00,1,11.67,1" >expect &&
	test_cmp expect actual
'

# The same with n5 idle at 125 s and T 100: the decision at 125 s gives
# the node back (3 -> 4: 4000 - 20 x 30 > 3000).  The job was hit at
# that event, so that grow makes no commit report either: its log stays
# at 4 nodes, shows no rescale after 45 s, and the fits after 100 s (the
# count no longer young, the next refit 300 s later) never come: the last
# row is 100 s, one grow observed.  A report at 125 s at 3 nodes would
# have made a segment, an observation 3 -> 4 and fits up to 180 s.
test_expect_success 'a decision at the event that took a node back: no commit report' '
	printf "125,n5,1\n" | cat grow.csv - >back.csv &&
	bf-sim --idle-trace back.csv --jobs c.csv --no-plot -T 100 \
		--curves "$D/probe-curves.csv" -o back --to 200 \
		--noise 0 --profile online --passive &&
	tail -n +2 back/steps.csv | cut -d, -f1,2,7,9 >actual &&
	printf "0.000,start,0,1\n45.000,trace,450,4\n125.000,trace,3450,4\n" >expect &&
	test_cmp expect actual &&
	tail -1 back/fits.csv >actual &&
	echo "100.000,a,1,4,40.000,40.000,5.00,1,0.00,0" >expect &&
	test_cmp expect actual
'

# Without probes the provisional curve (1/s a node, linear) gives a all 4
# at once; at 40 s, 20, 30, 40 measure 4: 40, a new count: a decision,
# which keeps 4 (linear through the one point).
test_expect_success '--no-probe: straight to max_nodes, measured there' '
	sim a.csv np --to 130 --profile online --noise 0 --no-probe &&
	cat >expect <<-\EOF &&
	0.000,start,4
	40.000,measure,4
	EOF
	tail -n +2 np/steps.csv | cut -d, -f1,2,4 >actual &&
	test_cmp expect actual &&
	grep -x "profile: online-no-probe" np/summary.yaml &&
	grep -x "profile_probes: 0" np/summary.yaml
'

# --probe-contested: a alone on 8 idle nodes wants at most 4, so nodes are
# never contested and it runs as with --no-probe (straight to 4, no probe
# move).  On the first 3 nodes only, its 4 are more than the 3 idle: the
# probes as above, 0 -> 1 and, at 40 s, 1 -> 2; at 80 s the probe, 4, is
# out of reach, which lifts the restriction (bf-solve), and the law of
# two counts (sigma 0) values 3 at 30 against 20 staying: 3 nodes; at
# 120 s 100, 110, 120 measure 3: 30, a new count, a decision: stay.
test_expect_success '--probe-contested: no probe while uncontested, the probes when contested' '
	sim a.csv pc --to 130 --profile online --noise 0 --probe-contested &&
	cat >expect <<-\EOF &&
	0.000,start,4
	40.000,measure,4
	EOF
	tail -n +2 pc/steps.csv | cut -d, -f1,2,4 >actual &&
	test_cmp expect actual &&
	grep -x "profile: online-probe-contested" pc/summary.yaml &&
	grep -x "profile_probes: 0" pc/summary.yaml &&
	sim a.csv pc3 --to 130 --profile online --noise 0 --probe-contested \
		--nodes 3 &&
	cat >expect <<-\EOF &&
	0.000,start,1
	40.000,measure,2
	80.000,measure,3
	120.000,measure,3
	EOF
	tail -n +2 pc3/steps.csv | cut -d, -f1,2,4 >actual &&
	test_cmp expect actual &&
	grep -x "profile_probes: 2" pc3/summary.yaml
'

# Job b: as a but rescale_up 20 s, max 2.  At 40 s (1: 10 measured,
# probe 2) growing is worth 10 x 20 - 20 x 10 = 0 if charged, less than
# the 100 of staying: only the waiver makes it grow.  The replay charges
# the debt all the same: 20 s x r(1) = 200 samples, repaid at 20/s by
# 50 s.  Reports 50: 400, 60: 600 ...; the warm-up ends at 40 + 20 s, so
# 60, 70, 80 give 2: 20 at 80 s; (20/2)/(10/1) = 1 but 2 is max_nodes
# and (1 + 2) / 2 is not between: no probe, a change, a decision (stay).
# At 130 s: ideal 400 + 20 x 90 = 2200, done 2200 - 200 = 2000.
test_expect_success 'the probe move is not charged in the decision, only in the replay' '
	{ echo "$HEAD"; echo b,lin,0,1,2,1000000,20,10; } >b.csv &&
	sim b.csv wv --to 130 --profile online --noise 0 &&
	cat >expect <<-\EOF &&
	0.000,start,1
	40.000,measure,2
	80.000,measure,2
	EOF
	tail -n +2 wv/steps.csv | cut -d, -f1,2,4 >actual &&
	test_cmp expect actual &&
	grep -x "samples_ideal: 2200" wv/summary.yaml &&
	grep -x "samples_done: 2000" wv/summary.yaml &&
	grep -x "rescale_loss_samples: 200" wv/summary.yaml
'

# One node for two jobs, both 1..2 nodes.  a runs on lin (10/s) and
# declares nothing; w runs on slow (5/s) and declares lin: a wrong guess.
# The oracle gives the node to a (10 > 5); with no information a is seen
# at the provisional 1/s and w at its declared 10/s: w gets it.
test_expect_success '--profile none: the declared curve, else the provisional one' '
	printf "t_s,node,idle\n0,n1,1\n" >one.csv &&
	{ echo "$HEAD,declared"; echo a,lin,0,1,2,1000000,0,0,;
	  echo w,slow,0,1,2,1000000,0,0,lin; } >aw.csv &&
	bf-sim --idle-trace one.csv --jobs aw.csv --no-plot \
		--curves "$D/probe-curves.csv" -o or --to 100 &&
	bf-sim --idle-trace one.csv --jobs aw.csv --no-plot \
		--curves "$D/probe-curves.csv" -o no --to 100 --profile none &&
	echo "0.000,start,1,0" >expect &&
	tail -n +2 or/steps.csv | cut -d, -f1,2,9,10 >actual &&
	test_cmp expect actual &&
	echo "0.000,start,0,1" >expect &&
	tail -n +2 no/steps.csv | cut -d, -f1,2,9,10 >actual &&
	test_cmp expect actual &&
	grep -x "profile: none" no/summary.yaml &&
	grep -x "samples_done: 1000" or/summary.yaml &&
	grep -x "samples_done: 500" no/summary.yaml &&
	test ! -e no/fits.csv
'

# With noise the reports differ from the truth but repeat exactly.
test_expect_success 'noise: seeded per job, the same run twice' '
	sim a.csv n1 --to 130 --profile online --noise 0.05 &&
	sim a.csv n2 --to 130 --profile online --noise 0.05 &&
	test_cmp n1/fits.csv n2/fits.csv &&
	! test_cmp on/fits.csv n1/fits.csv >/dev/null
'

# --share-fits.  a (lin, 2,800 samples) and b (lin), one slot.  a runs as
# above and finishes at 80 + (2800 - 1200) / 40 = 120 s, its last fit at
# 110 s (4 nodes needs the reports 100, 110, 120): 1: 10, 2: 20.  b is
# admitted at 120 s.  Shared, it starts from those two points, which the
# advisor counts: efficiency 1, 2 < 4: probe 4, worth 10 x 40 (the line
# through the last two points): 4 nodes.  Its own reports 140, 150, 160
# measure 4: 40, a third count at max_nodes: no probe, a decision at 160.
# Not shared, b climbs as a did: 1 at 120, 2 at 160, 4 at 200, and 240.
test_expect_success '--share-fits: a job starts from its model sibling'"'"'s points' '
	{ echo "$HEAD"; echo a,lin,0,1,4,2800,0,0; echo b,lin,0,1,4,1000000,0,0; } >ab.csv &&
	sim ab.csv sh --to 250 --profile online --noise 0 --max-jobs 1 \
		--share-fits &&
	cat >expect <<-\EOF &&
	0.000,start,1
	40.000,measure,2
	80.000,measure,4
	120.000,finish,4
	160.000,measure,4
	EOF
	tail -n +2 sh/steps.csv | cut -d, -f1,2,9 >actual &&
	test_cmp expect actual &&
	grep -x "profile: online-shared" sh/summary.yaml &&
	sim ab.csv us --to 250 --profile online --noise 0 --max-jobs 1 &&
	cat >expect <<-\EOF &&
	0.000,start,1
	40.000,measure,2
	80.000,measure,4
	120.000,finish,1
	160.000,measure,2
	200.000,measure,4
	240.000,measure,4
	EOF
	tail -n +2 us/steps.csv | cut -d, -f1,2,9 >actual &&
	test_cmp expect actual
'

# --voi.  Job a alone on 8 nodes, as above: nothing measured anywhere, its
# prior is the provisional curve, linear: 4 nodes at once (uncontested,
# no probe).  At 40 s the reports 20, 30, 40 measure 4: 40, but a count
# measured is no event under --voi: the one step is the start.
test_expect_success '--voi: passive, the measurement waits for a decision' '
	sim a.csv voi --to 130 --profile online --noise 0 --voi &&
	echo "0.000,start,4" >expect &&
	tail -n +2 voi/steps.csv | cut -d, -f1,2,4 >actual &&
	test_cmp expect actual &&
	echo "a,1,4,40.000,40.000" >expect &&
	tail -n +2 voi/fits.csv | cut -d, -f2-6 | sort -u >actual &&
	test_cmp expect actual &&
	tail -n +2 voi/fits.csv | head -1 | grep "^40.000," &&
	grep -x "profile: online-voi" voi/summary.yaml &&
	grep -x "profile_probes: 0" voi/summary.yaml
'

# The site's prior.  One node, three jobs of 1 node: a (lin, declares
# lin, 500 samples), w (slow, declares slow: 5/s), c (slow, declares
# nothing).  At 0 s a (10) beats w (5) and c (provisional 1).  a is
# measured at 40 s (1: 10) and ends at 50 s.  Then c's prior is the line
# at the median rate per node measured so far, a's 10: c (10) beats w
# (5) and gets the node, where --no-probe still sees c at 1/s and gives
# it to w.  c then measures 1: 5 at 90 s.
test_expect_success '--voi: a job declaring nothing starts at the site'"'"'s median rate' '
	printf "t_s,node,idle\n0,n1,1\n" >one.csv &&
	{ echo "$HEAD,declared"; echo a,lin,0,1,1,500,0,0,lin;
	  echo w,slow,0,1,1,1000000,0,0,slow;
	  echo c,slow,0,1,1,1000000,0,0,; } >awc.csv &&
	bf-sim --idle-trace one.csv --jobs awc.csv --no-plot --max-jobs 3 \
		--curves "$D/probe-curves.csv" -o vs --to 100 --noise 0 \
		--profile online --voi &&
	printf "0.000,start,1,0,0\n50.000,finish,0,0,1\n" >expect &&
	tail -n +2 vs/steps.csv | cut -d, -f1,2,9- >actual &&
	test_cmp expect actual &&
	echo "90.000,c,3,1,5.000,5.000" >expect &&
	grep "^90" vs/fits.csv | cut -d, -f1-6 >actual &&
	test_cmp expect actual &&
	bf-sim --idle-trace one.csv --jobs awc.csv --no-plot --max-jobs 3 \
		--curves "$D/probe-curves.csv" -o vn --to 100 --noise 0 \
		--profile online --no-probe &&
	cut -d, -f1,2,9- vn/steps.csv | grep -x "50.000,finish,0,1,0"
'

# sim_each TRACE JOBS MAXJOBS "DIR OPTION" ...: bf-sim --profile online
# to 100 s without noise, once per DIR with its OPTION.
sim_each() {
	_trace=$1 _jobs=$2 _max=$3
	shift 3
	for _m in "$@"; do
		set -- $_m
		bf-sim --idle-trace "$_trace" --jobs "$_jobs" --no-plot \
			--max-jobs "$_max" --curves "$D/probe-curves.csv" \
			-o "$1" --to 100 --noise 0 --profile online "$2" ||
			return 1
	done
}

# The sibling's prior.  Two nodes: a (lin, declares lin, 500 samples) and
# s (slow, declares slow) run from 0 s, measured at 40 s (1: 10, 1: 5).
# y (lin) and x (slow), declaring nothing, come at 45 s: no free node.
# At 50 s a ends and frees one: y starts from a's points (10), x from
# s's (5): y gets it.  The site's median (7.5) would tie them, and a tie
# goes to x, as --no-probe's provisional tie shows.
test_expect_success '--voi: a job declaring nothing starts from its model'"'"'s measured points' '
	printf "t_s,node,idle\n0,n1,1\n0,n2,1\n" >two.csv &&
	{ echo "$HEAD,declared"; echo a,lin,0,1,1,500,0,0,lin;
	  echo s,slow,0,1,1,1000000,0,0,slow;
	  echo y,lin,45,1,1,1000000,0,0,;
	  echo x,slow,45,1,1,1000000,0,0,; } >asyx.csv &&
	sim_each two.csv asyx.csv 4 "vb --voi" "nb --no-probe" &&
	cut -d, -f1,2,9- vb/steps.csv | grep -x "50.000,finish,0,1,1,0" &&
	cut -d, -f1,2,9- nb/steps.csv | grep -x "50.000,finish,0,1,0,1"
'

# --passive, bf-solve's live default: no probe, the median prior over
# the jobs of the decision only, a measurement no decision by itself.  n1
# idle from 0 s, n2 from 60 s; a (lin, declares lin), w (slow, declares
# slow: 5/s) and c (slow, declares nothing), one node each at most.  0 s:
# a (10) beats w (5) and c (provisional 1).  40 s: a measured 1: 10,
# which is a decision under --no-probe (nothing moves) and none under
# --passive.  60 s: n2 free; a runs, measured at 10 a node, so c is
# believed at 10 and beats w; without the prior c is at 1/s and w gets
# it.  (Where the measured job has ended, as in --voi's test above at
# 50 s, there is no median: the prior is of the running jobs, not of the
# past.)
test_expect_success '--passive: a job declaring nothing at the running jobs'"'"' median rate' '
	printf "t_s,node,idle\n0,n1,1\n60,n2,1\n" >onetwo.csv &&
	{ echo "$HEAD,declared"; echo a,lin,0,1,1,1000000,0,0,lin;
	  echo w,slow,0,1,1,1000000,0,0,slow;
	  echo c,slow,0,1,1,1000000,0,0,; } >awc2.csv &&
	sim_each onetwo.csv awc2.csv 3 "mp --passive" "mn --no-probe" &&
	printf "0.000,start,1,0,0\n60.000,trace,1,0,1\n" >expect &&
	tail -n +2 mp/steps.csv | cut -d, -f1,2,9- | head -n 2 >actual &&
	test_cmp expect actual &&
	printf "0.000,start,1,0,0\n40.000,measure,1,0,0\n60.000,trace,1,1,0\n" >expect &&
	tail -n +2 mn/steps.csv | cut -d, -f1,2,9- | head -n 3 >actual &&
	test_cmp expect actual &&
	grep -x "profile: online-passive" mp/summary.yaml &&
	bf-sim --idle-trace one.csv --jobs awc.csv --no-plot --max-jobs 3 \
		--curves "$D/probe-curves.csv" -o mv --to 100 --noise 0 \
		--profile online --passive &&
	cut -d, -f1,2,9- mv/steps.csv | grep -x "50.000,finish,0,1,0"
'

# The value-of-information probe.  Nodes n1..n4 idle from 0 s, n5 from
# 60 s, n6 from 120 s.  p runs on lin but declares flat (10 at any
# count: a wrong guess); q runs on slow (5/s a node, linear past 2) and
# declares it; no rescale costs.
#   0 s: p believed 10 at any count, q 5 a node: p 1, q 3 (25).  Nothing
#        measured anywhere: no optimistic curve, no probe.
#  40 s: p measured 1: 10, q 3: 15 (no event).
#  60 s: one free node.  Believed, it goes to q (3 -> 4: +5, p's flat
#        curve: +0): no node left, p below its max: contested.  p's
#        optimistic curve, linear from its largest count (40 at 4),
#        lies 4 times above its belief (10); q is planned at a count it
#        never measured (4): passive.  With p optimistic, the node goes
#        to p (1 -> 2: +10 against +5), a count never measured; what it
#        may gain, (20 - 10 + 15 - 20) x 1,800 s = 9,000, times the odds
#        of optimism, (0 + 1) / (0 + 2) with no probe measured yet, is
#        above what it costs believed, (20 - 15) x 60 s = 300: p 2, q 3.
# 100 s: p measured 2: 20.
# 120 s: one free node.  p's belief: 1: 10, 2: 20, flat's 4 scaled by
#        20/10: 20, so 3 is worth 20; believed, the node goes to q; p's
#        optimistic 4 is 40.  The first probe measured 20 at 2, its
#        optimistic rate: confirmed, odds (1 + 1) / (1 + 2); probed again,
#        as at 60 s: p 3, q 3.
# Declaring lin, p takes all 4 nodes at 0 s and, at its max, is never
# probed; q, passive, grows on the two nodes freed later.  Without the
# test (--no-probe) p stays at 1, believed flat.
test_expect_success '--voi: a probe where an optimistic curve changes a contested plan' '
	printf "t_s,node,idle\n0,n1,1\n0,n2,1\n0,n3,1\n0,n4,1\n60,n5,1\n120,n6,1\n" >six.csv &&
	{ echo "$HEAD,declared"; echo p,lin,0,1,4,1000000,0,0,flat;
	  echo q,slow,0,1,4,1000000,0,0,slow; } >pq.csv &&
	sed s/flat\$/lin/ pq.csv >pq2.csv &&
	for m in "vp pq.csv --voi" "vl pq2.csv --voi" "np pq.csv --no-probe"
	do
		set -- $m &&
		bf-sim --idle-trace six.csv --jobs $2 --no-plot --max-jobs 2 \
			--curves "$D/probe-curves.csv" -o $1 --to 170 \
			--noise 0 --profile online $3 || return 1
	done &&
	printf "0.000,start,1,3\n60.000,trace,2,3\n120.000,trace,3,3\n" >expect &&
	tail -n +2 vp/steps.csv | cut -d, -f1,2,9- >actual &&
	test_cmp expect actual &&
	grep -x "profile_probes: 2" vp/summary.yaml &&
	cut -d, -f1-6 vp/fits.csv | grep -x "100.000,p,1,2,20.000,20.000" &&
	printf "0.000,start,4,0\n60.000,trace,4,1\n120.000,trace,4,2\n" >expect &&
	tail -n +2 vl/steps.csv | cut -d, -f1,2,9- >actual &&
	test_cmp expect actual &&
	grep -x "profile_probes: 0" vl/summary.yaml &&
	cut -d, -f1,2,9- np/steps.csv | grep -x "120.000,trace,1,4"
'

# --voi --no-probe: the prior and passive measurement, no probe: at 60 s
# the free node goes to q as believed (p 1, q 4), and p stays at 1.
test_expect_success '--voi --no-probe: no value-of-information probe' '
	bf-sim --idle-trace six.csv --jobs pq.csv --no-plot --max-jobs 2 \
		--curves "$D/probe-curves.csv" -o vn --to 170 --noise 0 \
		--profile online --voi --no-probe &&
	printf "0.000,start,1,3\n60.000,trace,1,4\n" >expect &&
	tail -n +2 vn/steps.csv | cut -d, -f1,2,9- | head -2 >actual &&
	test_cmp expect actual &&
	grep -x "profile: online-voi-no-probe" vn/summary.yaml &&
	grep -x "profile_probes: 0" vn/summary.yaml
'

bad_usage() {	# title message option...
	_title=$1 _msg=$2
	shift 2
	echo "bf-sim: $_msg" >"want-$test_count"
	test_expect_success "$_title" "
		test_expect_code 64 sim a.csv bad $* 2>err &&
		test_cmp want-$test_count err &&
		test ! -e bad
	"
}

bad_usage 'an unknown --profile' \
	"--profile: 'guess' is not oracle, online or none" --profile guess
bad_usage '--noise above 1' \
	"--noise must be a number from 0 to 1, not '2'" --profile online --noise 2
bad_usage '--report-interval 0' \
	"--report-interval must be a number from 0.1 to 3600, not '0'" \
	--profile online --report-interval 0
bad_usage '--no-probe without online' \
	'--no-probe needs --profile online' --no-probe
bad_usage '--probe-contested without online' \
	'--probe-contested needs --profile online' --probe-contested
bad_usage '--noise with none' \
	'--noise needs --profile online' --profile none --noise 0.1
bad_usage '--share-fits with the oracle' \
	'--share-fits needs --profile online' --share-fits
bad_usage '--voi without online' '--voi needs --profile online' --voi
bad_usage '--voi with --share-fits' \
	'--voi is not with --probe-contested or --share-fits' \
	--profile online --voi --share-fits
bad_usage '--passive with --voi' \
	'--passive is not with --voi, --probe-contested or --share-fits' \
	--profile online --voi --passive
bad_usage '--passive without online' \
	'--passive needs --profile online' --passive
bad_usage '--passive with the greedy policy' \
	'--passive needs --policy milp, dp or per-node: bf-solve'"'"'s decision' \
	--profile online --passive --policy greedy

test_expect_success 'a declared model without a curve: 65, file and line' '
	{ echo "$HEAD,declared"; echo a,lin,0,1,2,100,0,0,nosuch; } >d.csv &&
	test_expect_code 65 sim d.csv bad 2>err &&
	echo "bf-sim: d.csv:2: no single curve for declared model '\''nosuch'\''" >want &&
	test_cmp want err
'

test_done
