#!/bin/sh
# bf-sim --horizon and --place on traces small enough to replay by hand:
# each decision's look-ahead from the idle nodes' remaining idle times,
# clairvoyant (read from the trace ahead) or learnt (from the holes that
# ended), and grows placed on the nodes that last longest.  The results
# below are worked out in the comments, not copied from a run.
. "$(dirname "$0")/lib.sh"

D="$T_DIR/data/sim"

# summary.yaml without decision_seconds (max, median, p99), which vary.
masked() {
	sed '/^decision_seconds:/,/^  p99:/d' "$1"
}

sim() {	# trace jobs dir [option...]
	_tr=$1 _jobs=$2 _dir=$3
	shift 3
	bf-sim --idle-trace "$D/$_tr" --jobs "$D/$_jobs" \
		--curves "$D/curves.csv" --curve-source HAND -o "$_dir" \
		--no-plot "$@"
}

# tiny.csv (n1, n2 idle at 10 s, n3, n4 at 110 s, n1 taken back at 210 s,
# n2 at 310 s) with costly-jobs.csv: job b, lin (10 samples/s a node),
# 1..4 nodes, rescale up 40 s, down 1 s.  With -T 10 (fixed):
#   10 s: b 0 -> 2 (a start costs nothing): 200
#  110 s: 2 -> 4 is worth 10 x 40 - 40 x 20 = -400 < 200: stays at 2
#  210 s: n1 taken back: debt 1 x r(2) = 20, b on 1; n3, n4 free, but
#         4 is worth 400 - 40 x 10 = 0 < 100: stays at 1
#  310 s: n2 taken back: debt 1 x r(1) = 10, b on none; starts again on
#         the two idle (n3, n4) at no cost
# ideal 20 x 100 + 20 x 100 + 10 x 100 + 20 x 90 = 6800, loss 30.
test_expect_success 'fixed (the default): a grow at 40 s of cost never pays' '
	sim tiny.csv costly-jobs.csv fixed --to 400 &&
	grep -x "samples_ideal: 6800" fixed/summary.yaml &&
	grep -x "samples_done: 6770" fixed/summary.yaml &&
	grep -x "rescales: 2" fixed/summary.yaml &&
	! grep "^horizon" fixed/summary.yaml &&
	sim tiny.csv costly-jobs.csv fixed2 --to 400 --horizon fixed \
		--place lowest &&
	masked fixed/summary.yaml >expect &&
	masked fixed2/summary.yaml >actual &&
	test_cmp expect actual
'

# Clairvoyant, to 400 s (the replay's end for nodes that stay idle):
#    0 s: no idle node: T = -T = 10
#   10 s: free n1 (leaves at 210: 200 s), n2 (310: 300 s): T = 250
#  110 s: free n3, n4 (never leave: 400 - 110 = 290 each): T = 290;
#         4 is worth 290 x 40 - 40 x 20 = 10800 > 290 x 20: grows, debt 800
#  210 s: n1 taken back, debt 1 x r(4) = 40, b on 3; none free: the idle
#         n2 (100), n3, n4 (190 each): T = 160
#  310 s: n2 taken back, debt 1 x r(3) = 30, b on 2; n3, n4: T = 90
# ideal 2000 + 4000 + 3000 + 1800 = 10800, loss 870, done 9930;
# I = A = 1080 node-s = 0.3 h: 33100 per idle node-hour.
# Horizons 10, 250, 290, 160, 90: mean 160, median 160.
test_expect_success 'clairvoyant: the true remaining idle times, by hand' '
	cat >expect <<-\EOF &&
	allocated_node_hours: 0.300
	efficiency: 0.919444
	end: 400.000
	events: 5
	from: 0
	horizon: clairvoyant
	horizon_seconds:
	  mean: 160.000
	  median: 160.000
	idle_node_hours: 0.300
	jobs: 1
	jobs_admitted: 1
	jobs_finished: 0
	max_jobs: 10
	nodes: 4
	policy: milp
	profile: oracle
	replay_hours: 0.111
	rescale_loss_samples: 870
	rescales: 2
	samples_done: 9930
	samples_ideal: 10800
	samples_per_idle_node_hour: 33100.000
	tfwd: 10
	utilisation: 1.000000
	EOF
	sim tiny.csv costly-jobs.csv clair --to 400 --horizon clairvoyant &&
	masked clair/summary.yaml >actual &&
	test_cmp expect actual &&
	cut -d, -f1,3,4,9 clair/steps.csv >actual &&
	cat >expect <<-\EOF &&
	t,idle,allocated,slot1
	0.000,0,0,0
	10.000,2,2,2
	110.000,4,4,4
	210.000,3,3,3
	310.000,2,2,2
	EOF
	test_cmp expect actual
'

test_expect_success 'the dynamic program decides the same with those horizons' '
	sim tiny.csv costly-jobs.csv clair-dp --to 400 --horizon clairvoyant \
		--policy dp &&
	grep -x "samples_done: 9930" clair-dp/summary.yaml &&
	grep -x "  mean: 160.000" clair-dp/summary.yaml
'

# Learnt, on tiny.csv: only two holes ever end (n1 200 s, n2 300 s), fewer
# than the 20 a learnt estimate needs: every decision falls back to -T,
# so the replay is the fixed one exactly.
test_expect_success 'learnt, with too few holes ended: -T at every decision' '
	sim tiny.csv costly-jobs.csv few --to 400 --horizon learnt &&
	grep -x "horizon: learnt" few/summary.yaml &&
	grep -x "horizon_fallbacks: 5" few/summary.yaml &&
	grep -x "horizon_holes: 2" few/summary.yaml &&
	grep -x "  median: 10.000" few/summary.yaml &&
	masked few/summary.yaml | sed "/^horizon/,/^  median:/d" >actual &&
	masked fixed/summary.yaml >expect &&
	test_cmp expect actual &&
	cut -d, -f1-7,9 few/steps.csv >actual &&
	cut -d, -f1-7,9 fixed/steps.csv >expect &&
	test_cmp expect actual
'

# learn.csv: h01..h20 idle from 10 s to 110 s (20 holes of 100 s end at
# 110 s), w1, w2 idle from 120 s, w3, w4 from 200 s; late-jobs.csv: job b
# (as above) submitted at 150 s.  Learnt, to 300 s:
#    0, 10 s: no hole has ended: -T (2 fallbacks)
#  110 s: 20 holes of 100 s learnt; no node idle: T = -T = 10
#  120 s: free w1, w2 at age 0: E[D | D > 0] = 100: T = 100
#  150 s: b admitted, w1, w2 at age 30: 100 - 30 = 70: T = 70; b 0 -> 2
#  200 s: free w3, w4 at age 0: T = 100; 4 is worth 100 x 40 - 40 x 20 =
#         3200 > 100 x 20: b grows, debt 800 (with -T 10 it would not)
# ideal 20 x 50 + 40 x 100 = 5000, done 4200 (fixed: 20 x 150 = 3000);
# I = 20 x 100 + 2 x 180 + 2 x 100 = 2560 node-s: 4200 x 3600 / 2560 =
# 5906.25 per idle node-hour (fixed 4218.75).  Horizons 10, 10, 10, 100,
# 70, 100: mean 50, median 40.
test_expect_success 'learnt: the holes that ended set the horizon, by hand' '
	sim learn.csv late-jobs.csv learnt --to 300 --horizon learnt &&
	for l in "horizon: learnt" "horizon_fallbacks: 2" \
	    "horizon_holes: 20" "  mean: 50.000" "  median: 40.000" \
	    "samples_ideal: 5000" "samples_done: 4200" \
	    "samples_per_idle_node_hour: 5906.250" "rescales: 2" \
	    "events: 6"; do
		grep -x "$l" learnt/summary.yaml || exit 1
	done &&
	sim learn.csv late-jobs.csv learn-fixed --to 300 &&
	grep -x "samples_done: 3000" learn-fixed/summary.yaml &&
	grep -x "samples_per_idle_node_hour: 4218.750" \
		learn-fixed/summary.yaml
'

# The same clairvoyant: 10 s: the h nodes leave in 100 s: T = 100; 110 s
# none idle: 10; 120 s: w1, w2 stay to the end, 180 s; 150 s: 150; 200 s:
# w3, w4: 100.  The same decisions as learnt; mean 550 / 6, median 100.
test_expect_success 'clairvoyant on the same trace decides as learnt' '
	sim learn.csv late-jobs.csv clair2 --to 300 --horizon clairvoyant &&
	grep -x "samples_done: 4200" clair2/summary.yaml &&
	grep -x "  mean: 91.667" clair2/summary.yaml &&
	grep -x "  median: 100.000" clair2/summary.yaml &&
	! grep "^horizon_holes" clair2/summary.yaml
'

# one-jobs.csv: job c on exactly one node (rescale up 2 s, down 1 s), on
# tiny.csv, clairvoyant.  Lowest-numbered (the default): at 10 s c takes
# n1, taken back at 210 s (debt 10), starts again on n2, taken back at
# 310 s (debt 10), then n3: loss 20, 3 rescales.  --place longest: at
# 10 s c takes n2 (300 s left against n1's 200), taken back only at
# 310 s (debt 10), then n3 (n3 and n4 both stay 90 s: by number): loss
# 10, 2 rescales.  ideal 10 x 390 = 3900 either way.
test_expect_success '--place longest: a grow takes the node that lasts' '
	sim tiny.csv one-jobs.csv low --to 400 --horizon clairvoyant &&
	sim tiny.csv one-jobs.csv long --to 400 --horizon clairvoyant \
		--place longest &&
	grep -x "samples_done: 3880" low/summary.yaml &&
	grep -x "rescales: 3" low/summary.yaml &&
	! grep "^place" low/summary.yaml &&
	grep -x "samples_done: 3890" long/summary.yaml &&
	grep -x "rescale_loss_samples: 10" long/summary.yaml &&
	grep -x "rescales: 2" long/summary.yaml &&
	grep -x "place: longest" long/summary.yaml
'

# tiny.swf: 4 nodes, a 2-node job from 10 s to 110 s on nodes 1-2.  Job a
# (tiny-jobs.csv: rescale up 2 s), clairvoyant, to 200 s: at 0 s all four
# free, two leave in 10 s, two stay 200 s: T = 105; at 10 s none free,
# the two held stay 190 s: T = 190; at 110 s the two back stay 90 s:
# T = 90, and 2 -> 4 still pays (3560 > 1800).  The decisions of -T 10:
# done 5920 (t6010); horizons mean 385 / 3, median 105.
test_expect_success 'clairvoyant reads an SWF log ahead' '
	bf-sim --swf "$D/tiny.swf" --from 0 --to 200 \
		--jobs "$D/tiny-jobs.csv" --curves "$D/curves.csv" \
		--curve-source HAND -o swf --no-plot --horizon clairvoyant &&
	grep -x "samples_done: 5920" swf/summary.yaml &&
	grep -x "  mean: 128.333" swf/summary.yaml &&
	grep -x "  median: 105.000" swf/summary.yaml
'

test_expect_success 'a horizon that is not a mode is refused' '
	test_expect_code 64 sim tiny.csv costly-jobs.csv bad --horizon soon \
		2>err &&
	grep "horizon: .soon. is not fixed, learnt or clairvoyant" err &&
	test ! -e bad
'

test_expect_success '--place longest needs per-node times' '
	test_expect_code 64 sim tiny.csv costly-jobs.csv bad --place longest \
		2>err &&
	grep "place longest needs --horizon learnt or clairvoyant" err &&
	test_expect_code 64 sim tiny.csv costly-jobs.csv bad --place first \
		2>err &&
	grep "place: .first. is not lowest or longest" err &&
	test ! -e bad
'

# Clairvoyant as above, each horizon at most 100 s (--horizon-cap):
#    0 s: T = 10 (no idle node), below the cap
#   10 s: 250 -> 100: a start on n1, n2 costs nothing: b 0 -> 2
#  110 s: 290 -> 100: 4 is worth 100 x 40 - 40 x 20 = 3200 > 100 x 20:
#         grows, as without the cap
#  210 s: 160 -> 100; 310 s: 90.  The same decisions, so the same samples
#         (9930); horizons 10, 100, 100, 100, 90: mean 80, median 100.
# At most 30 s, 110 s: 30 x 40 - 800 = 400 < 30 x 20 = 600: b stays on 2.
test_expect_success '--horizon-cap: each decision at most that, by hand' '
	sim tiny.csv costly-jobs.csv cap --to 400 --horizon clairvoyant \
		--horizon-cap 100 &&
	grep -x "samples_done: 9930" cap/summary.yaml &&
	grep -x "horizon_cap: 100" cap/summary.yaml &&
	grep -x "  mean: 80.000" cap/summary.yaml &&
	grep -x "  median: 100.000" cap/summary.yaml &&
	cut -d, -f1,3,4,9 clair/steps.csv >expect &&
	cut -d, -f1,3,4,9 cap/steps.csv >actual &&
	test_cmp expect actual &&
	sim tiny.csv costly-jobs.csv cap30 --to 400 --horizon clairvoyant \
		--horizon-cap 30 &&
	cut -d, -f1,3,4,9 cap30/steps.csv | grep -x "110.000,4,2,2" &&
	! grep "^horizon_cap" clair/summary.yaml
'

test_expect_success '--horizon-cap needs a horizon that is not fixed' '
	test_expect_code 64 sim tiny.csv costly-jobs.csv bad --horizon-cap 60 \
		2>err &&
	grep "horizon-cap needs --horizon learnt or clairvoyant" err &&
	test_expect_code 64 sim tiny.csv costly-jobs.csv bad --horizon learnt \
		--horizon-cap 0 2>err &&
	grep "horizon-cap" err &&
	test ! -e bad
'

test_expect_success '--compare takes no horizon' '
	test_expect_code 64 bf-sim --compare fixed clair --horizon learnt \
		>table 2>err &&
	test ! -s table &&
	grep "^usage: bf-sim" err
'

test_done
