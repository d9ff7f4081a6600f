#!/bin/sh
# bf-sim on traces small enough to replay by hand: the summaries below are
# worked out in the comments, not copied from a run.
. "$(dirname "$0")/lib.sh"

D="$T_DIR/data/sim"

# summary.yaml without decision_seconds, the one measure that varies.
masked() {
	sed '/^decision_seconds:/d; /^  /d' "$1"
}

sim() {	# trace jobs dir [option...]
	_tr=$1 _jobs=$2 _dir=$3
	shift 3
	bf-sim --idle-trace "$D/$_tr" --jobs "$D/$_jobs" \
		--curves "$D/curves.csv" --curve-source HAND -o "$_dir" \
		--no-plot "$@"
}

# tiny.csv: n1,n2 idle at 10 s, n3,n4 at 110 s; n1 taken back at 210 s,
# n2 at 310 s; replay to 400 s.  Job a: curve lin (10 samples/s a node,
# linear to 4), 1..4 nodes, rescale up 2 s, down 1 s; T_fwd 10.
#   10 s: a 0 -> 2 nodes, costs 2 s x r(0) = 0 (value 10 x 20 = 200 > 0)
#  110 s: a 2 -> 4: value 10 x 40 - 2 x 20 = 360 > 200 (keeping): debt 40
#  210 s: n1 (a's) taken back: debt 1 x r(4) = 40; a keeps 3
#  310 s: n2 taken back: debt 1 x r(3) = 30; a keeps 2
# ideal: 20 x 100 + 40 x 100 + 30 x 100 + 20 x 90 = 10800
# loss 40 + 40 + 30 = 110 (each repaid within its interval), done 10690
# I = A = 2 x 100 + 4 x 100 + 3 x 100 + 2 x 90 = 1080 node-s = 0.3 h
# efficiency 10690 / 10800 = 0.9898148; per idle node-hour 10690 / 0.3
test_expect_success 'tiny trace: the summary worked out by hand' '
	cat >expect <<-\EOF &&
	allocated_node_hours: 0.300
	efficiency: 0.989815
	end: 400.000
	events: 5
	from: 0
	idle_node_hours: 0.300
	jobs: 1
	jobs_admitted: 1
	jobs_finished: 0
	max_jobs: 10
	nodes: 4
	policy: milp
	profile: oracle
	replay_hours: 0.111
	rescale_loss_samples: 110
	rescales: 2
	samples_done: 10690
	samples_ideal: 10800
	samples_per_idle_node_hour: 35633.333
	tfwd: 10
	utilisation: 1.000000
	EOF
	sim tiny.csv tiny-jobs.csv out --to 400 &&
	masked out/summary.yaml >actual &&
	test_cmp expect actual &&
	grep -q "^decision_seconds:$" out/summary.yaml &&
	grep -q "^  p99: [0-9]*\.[0-9]\{6\}$" out/summary.yaml
'

# --stall, the same trace: each cost is R seconds at the count after the
# change, a start from none free; the decisions are the same.
#   10 s: a 0 -> 2: a start, no debt
#  110 s: a 2 -> 4: debt 2 s x r(4) = 80
#  210 s: n1 taken back, a keeps 3: debt 1 s x r(3) = 30
#  310 s: n2 taken back, a keeps 2: debt 1 s x r(2) = 20
# loss 80 + 30 + 20 = 130, done 10800 - 130 = 10670; efficiency
# 10670 / 10800 = 0.987963; per idle node-hour 10670 / 0.3
test_expect_success 'tiny trace, --stall: the summary worked out by hand' '
	sim tiny.csv tiny-jobs.csv stall --to 400 --stall &&
	masked stall/summary.yaml >stall.yaml &&
	masked out/summary.yaml >fixed.yaml &&
	grep -x "rescale_cost: stall" stall.yaml &&
	grep -x "rescale_loss_samples: 130" stall.yaml &&
	grep -x "samples_done: 10670" stall.yaml &&
	grep -x "efficiency: 0.987963" stall.yaml &&
	grep -x "samples_per_idle_node_hour: 35566.667" stall.yaml &&
	# every other line as without --stall: the same decisions
	grep -v "^rescale_cost:\|^rescale_loss\|^samples_done\|^efficiency\|^samples_per" \
		stall.yaml >rest &&
	grep -v "^rescale_loss\|^samples_done\|^efficiency\|^samples_per" \
		fixed.yaml >want &&
	test_cmp want rest &&
	cut -d, -f1-6 stall/steps.csv >steps.stall &&
	cut -d, -f1-6 out/steps.csv >steps.fixed &&
	test_cmp steps.fixed steps.stall &&
	bf-sim --compare out stall >cmp &&
	grep -x "| rescale_cost | - | stall |" cmp &&
	bf-sim --compare out out >cmp2 &&
	! grep rescale_cost cmp2
'

# swap.csv: a has n1, n2 from 10 s; at 100 s n1 is taken back and n3 joins,
# and the decision at that event grows a back to 2 (R_up 2 s, R_down 1 s).
# ideal 20 x 90 + 20 x 100 = 3800 to 200 s.  With --stall, one stall for
# the event, the longest of its causes (the take-back's 1 s, the grow's
# 2 s), at the count the decision leaves: 2 s x r(2) = 40, whether the
# take-back left a below its minimum (min 2: the grow is no start) or not
# (min 1: not 1 x r(1) + 2 x r(2) = 50).  Without: min 2, 1 x r(2) = 20
# for the take-back, the grow from a rate of 0 free; min 1, 20 + 2 x r(1)
# = 40.
test_expect_success '--stall: a take-back and a grow at one event, one stall' '
	sim swap.csv swap-min2-jobs.csv min2 --to 200 --stall &&
	grep -x "rescale_loss_samples: 40" min2/summary.yaml &&
	grep -x "samples_done: 3760" min2/summary.yaml &&
	sim swap.csv swap-min1-jobs.csv min1 --to 200 --stall &&
	grep -x "rescale_loss_samples: 40" min1/summary.yaml &&
	grep -x "samples_done: 3760" min1/summary.yaml &&
	sim swap.csv swap-min2-jobs.csv min2d --to 200 &&
	grep -x "rescale_loss_samples: 20" min2d/summary.yaml &&
	sim swap.csv swap-min1-jobs.csv min1d --to 200 &&
	grep -x "rescale_loss_samples: 40" min1d/summary.yaml &&
	grep -x "rescales: 2" min1d/summary.yaml &&
	grep -x "rescales: 2" min1/summary.yaml
'

# steps.csv: time, event, idle, allocated, running, finished, done so far
test_expect_success 'tiny trace: one step per event' '
	cat >expect <<-\EOF &&
	t,event,idle,allocated,running,finished,done,slot1
	0.000,start,0,0,1,0,0,0
	10.000,trace,2,2,1,0,0,2
	110.000,trace,4,4,1,0,2000,4
	210.000,trace,3,3,1,0,5960,3
	310.000,trace,2,2,1,0,8920,2
	EOF
	cut -d, -f1-7,9 out/steps.csv >actual &&
	test_cmp expect actual
'

test_expect_success 'the dynamic program decides the same' '
	sim tiny.csv tiny-jobs.csv dp --to 400 --policy dp &&
	masked out/summary.yaml | sed "s/^policy: milp/policy: dp/" >expect &&
	masked dp/summary.yaml >actual &&
	test_cmp expect actual
'

# finish-jobs.csv: job c, 1500 samples, at most 2 nodes: 2 nodes at 10 s,
# 20 samples/s, done at 10 + 1500 / 20 = 85 s, where the replay stops
# (nothing left to run): I = A = 2 x 75 = 150 node-s.
test_expect_success 'a job finishes at the exact moment, and the replay ends' '
	cat >expect <<-\EOF &&
	allocated_node_hours: 0.042
	efficiency: 1.000000
	end: 85.000
	events: 3
	from: 0
	idle_node_hours: 0.042
	jobs: 1
	jobs_admitted: 1
	jobs_finished: 1
	max_jobs: 10
	nodes: 4
	policy: milp
	profile: oracle
	replay_hours: 0.024
	rescale_loss_samples: 0
	rescales: 1
	samples_done: 1500
	samples_ideal: 1500
	samples_per_idle_node_hour: 36000.000
	tfwd: 10
	utilisation: 1.000000
	EOF
	sim tiny.csv finish-jobs.csv out --to 400 &&
	masked out/summary.yaml >actual &&
	test_cmp expect actual &&
	tail -n 1 out/steps.csv | cut -d, -f1-7 >last &&
	echo "85.000,finish,2,0,0,1,1500" >want &&
	test_cmp want last &&
	echo "c,0.000,0.000,85.000,1500,1500,1500,0,1" >want &&
	tail -n 1 out/jobs.csv >last &&
	test_cmp want last
'

# share.csv: 7 idle nodes at 10 s, 5 at 20 s (m06, m07, j3's, taken
# back), 11 at 30 s; three jobs of 2..3 nodes.  BFTrainer's rule:
#  7: floor(7/3) = 2 >= min: 2,2,2, one left over, first come: 3,2,2
#  5: floor(5/3) = 1 < min: none; 5 left: j1 tops up to 3, j2 gets the
#     2 left (>= its min), j3 nothing: 3,2,0
# 11: floor(11/3) = 3 = max: 3,3,3, two nodes unused
# loss: 20 s, j3 loses both nodes: 1 s x r(2) = 20; 30 s, j2 2 -> 3:
# 2 s x r(2) = 40; j3 0 -> 3 free.  ideal (70 x 10 + 50 x 10 + 90 x 70)
test_expect_success 'equal-share follows its rule step by step' '
	cat >expect <<-\EOF &&
	t,idle,allocated,slot1,slot2,slot3
	0.000,0,0,0,0,0
	10.000,7,7,3,2,2
	20.000,5,5,3,2,0
	30.000,11,9,3,3,3
	EOF
	sim share.csv share-jobs.csv es --to 100 --max-jobs 3 \
		--policy equal-share &&
	cut -d, -f1,3,4,9- es/steps.csv >actual &&
	test_cmp expect actual &&
	grep -x "samples_ideal: 7500" es/summary.yaml &&
	grep -x "rescale_loss_samples: 60" es/summary.yaml &&
	grep -x "rescales: 5" es/summary.yaml &&
	grep -x "idle_node_hours: 0.247" es/summary.yaml
'

# greedy from the same start, 7 nodes: from nothing every step gains
# 10 x 10 per node (linear curve, and a job that was not running pays
# no rescale cost); ties go to the earlier job, so j1 takes its min 2
# then a third node, j2 the same, and j3 cannot get its min from the 1
# node left: 3,3,0.
test_expect_success 'greedy hands out free nodes by gain per node' '
	sim share.csv share-jobs.csv gr --to 15 --max-jobs 3 --policy greedy &&
	sed -n 2,3p gr/steps.csv | cut -d, -f1,9- >actual &&
	printf "0.000,0,0,0\n10.000,3,3,0\n" >expect &&
	test_cmp expect actual
'

# tiny.swf: 4 nodes; one job of 2 nodes submitted at 10 s, no wait, runs
# 100 s (first fit: nodes 1-2).  Job a (as above) takes all 4 at 0 s
# (a start costs nothing); at 10 s loses 2: debt 1 x r(4) = 40; at 110 s
# grows 2 -> 4 (360 > 200): debt 2 x r(2) = 40.  To 200 s:
# ideal 40 x 10 + 20 x 100 + 40 x 90 = 6000, loss 80, done 5920;
# I = 4 x 10 + 2 x 100 + 4 x 90 = 600 node-s; 5920 / (600 / 3600) = 35520
test_expect_success 'an SWF job log, worked out by hand' '
	bf-sim --swf "$D/tiny.swf" --from 0 --to 200 --jobs "$D/tiny-jobs.csv" \
		--curves "$D/curves.csv" --curve-source HAND -o swf --no-plot &&
	grep -x "samples_ideal: 6000" swf/summary.yaml &&
	grep -x "samples_done: 5920" swf/summary.yaml &&
	grep -x "rescale_loss_samples: 80" swf/summary.yaml &&
	grep -x "idle_node_hours: 0.167" swf/summary.yaml &&
	grep -x "samples_per_idle_node_hour: 35520.000" swf/summary.yaml &&
	grep -x "utilisation: 1.000000" swf/summary.yaml &&
	cut -d, -f1-7 swf/steps.csv >actual &&
	cat >expect <<-\EOF &&
	t,event,idle,allocated,running,finished,done
	0.000,start,4,4,1,0,0
	10.000,trace,2,2,1,0,400
	110.000,trace,4,4,1,0,2360
	EOF
	test_cmp expect actual
'

# The same with --stall: at 10 s a loses two nodes at once, charged once
# at the count it keeps: 1 s x r(2) = 20; at 110 s 2 -> 4: 2 s x r(4) =
# 80.  loss 100, done 5900; 5900 / (600 / 3600) = 35400
test_expect_success 'an SWF job log, --stall: one charge a take-back, at the count left' '
	bf-sim --swf "$D/tiny.swf" --from 0 --to 200 --jobs "$D/tiny-jobs.csv" \
		--curves "$D/curves.csv" --curve-source HAND -o swfstall \
		--no-plot --stall &&
	grep -x "samples_ideal: 6000" swfstall/summary.yaml &&
	grep -x "samples_done: 5900" swfstall/summary.yaml &&
	grep -x "rescale_loss_samples: 100" swfstall/summary.yaml &&
	grep -x "samples_per_idle_node_hour: 35400.000" swfstall/summary.yaml
'

owned() {	# dir [option...]: tiny.csv to 400 s, job a owned by uid 1000
	_dir=$1
	shift
	bf-sim --idle-trace "$D/tiny.csv" --jobs owned.csv \
		--curves "$D/curves.csv" --curve-source HAND -o "$_dir" \
		--no-plot --to 400 "$@"
}

# --admin-policy, on tiny.csv: job a (lin, 1..4 nodes, up 2 s, down 1 s)
# owned by uid 1000, whom the policy caps at 3 nodes.
#   10 s: a 0 -> 2 (value 200 > 0)
#  110 s: a 2 -> 3, the cap (10 x 30 - 2 x 20 = 260 > 200): debt 2 x r(2) = 40
#  210 s: n1 taken back, a keeps n2,n3: debt 1 x r(3) = 30; n4 is free:
#         a 2 -> 3 again (260 > 200): debt 40
#  310 s: n2 taken back: a keeps n3,n4, debt 30; nothing free
# ideal 20 x 100 + 30 x 100 + 30 x 100 + 20 x 90 = 9800, loss 140, done 9660
# A = 2 x 100 + 3 x 200 + 2 x 90 = 980 node-s = 0.272 h (I = 0.3 h)
# utilisation 980 / 1080 = 0.907407, efficiency 9660 / 9800 = 0.985714
test_expect_success '--admin-policy: a user capped at 3 nodes, worked out by hand' '
	printf "%s\n" name,model,submit_s,min_nodes,max_nodes,samples,rescale_up_s,rescale_down_s,owner \
		a,lin,0,1,4,1000000,2,1,1000 >owned.csv &&
	printf "users:\n  1000: {max_nodes: 3}\n" >cap.yaml &&
	owned capped --admin-policy cap.yaml &&
	cat >expect <<-EOF &&
	admin_policy: "$(digest cap.yaml)"
	allocated_node_hours: 0.272
	decisions_no_plan: 0
	decisions_not_optimal: 0
	efficiency: 0.985714
	EOF
	masked capped/summary.yaml | head -n 5 >actual &&
	test_cmp expect actual &&
	grep -x "rescale_loss_samples: 140" capped/summary.yaml &&
	grep -x "rescales: 3" capped/summary.yaml &&
	grep -x "samples_done: 9660" capped/summary.yaml &&
	grep -x "samples_ideal: 9800" capped/summary.yaml &&
	grep -x "utilisation: 0.907407" capped/summary.yaml &&
	cut -d, -f1,4,9 capped/steps.csv >actual &&
	printf "%s\n" t,allocated,slot1 0.000,0,0 10.000,2,2 110.000,3,3 \
		210.000,3,3 310.000,2,2 >expect &&
	test_cmp expect actual &&
	owned free &&
	! grep -q "^admin_policy:" free/summary.yaml &&
	grep -x "samples_done: 10690" free/summary.yaml
'

# max_rate_per_node 5 halves the rates the decisions see (lin: 10 a
# node), which makes the same decisions here (at 110 s 2 -> 4: 10 x 20 -
# 2 x 10 = 180 > 100); the job trains at its own rate all the same: the
# first summary of this file, samples_done 10690.
test_expect_success '--admin-policy max_rate_per_node caps what is decided on, not the training' '
	printf "max_rate_per_node: 5\n" >rate.yaml &&
	owned rate --admin-policy rate.yaml &&
	grep -x "samples_done: 10690" rate/summary.yaml &&
	grep -x "rescale_loss_samples: 110" rate/summary.yaml
'

# A group floor the policy's other rules do not let be met is lowered to
# what they allow (bf-solve(1), The policy file).  Floor 2 with no
# rescale allowed: lowered to 0, a never starts (this was the give-back
# plan at the 4 decisions with idle nodes).  Floor 4 with the cap of 3:
# at 110 s the group could reach 4, the cap allows 3, so the decisions
# are those of the cap alone (at 110 s a give-back plan kept 2 before).
test_expect_success '--admin-policy: a floor no plan meets is lowered, never no plan' '
	printf "groups:\n  g: {jobs: [a], min_nodes: 2}\nmax_rescales: 0\n" >np.yaml &&
	owned np --admin-policy np.yaml &&
	grep -x "decisions_no_plan: 0" np/summary.yaml &&
	grep -x "decisions_not_optimal: 0" np/summary.yaml &&
	grep -x "samples_done: 0" np/summary.yaml &&
	grep -x "allocated_node_hours: 0.000" np/summary.yaml &&
	printf "users:\n  1000: {max_nodes: 3}\ngroups:\n  g: {jobs: [a], min_nodes: 4}\n" >floor.yaml &&
	owned floor --admin-policy floor.yaml &&
	grep -x "decisions_no_plan: 0" floor/summary.yaml &&
	cut -d, -f1,4,9 floor/steps.csv >actual &&
	printf "%s\n" t,allocated,slot1 0.000,0,0 10.000,2,2 110.000,3,3 \
		210.000,3,3 310.000,2,2 >expect &&
	test_cmp expect actual &&
	grep -x "samples_done: 9660" floor/summary.yaml
'

test_expect_success '--compare puts the runs side by side' '
	bf-sim --compare out es >table &&
	head -n 3 table >actual &&
	cat >expect <<-\EOF &&
	| measure | out | es |
	| --- | ---: | ---: |
	| policy | milp | equal-share |
	EOF
	test_cmp expect actual &&
	grep -x "| jobs_finished | 1 | 0 |" table &&
	grep -x "| efficiency | 1.000000 | 0.992000 |" table &&
	! grep -q "admin_policy\|decisions_no" table &&
	bf-sim --compare free capped >table &&
	grep -x "| admin_policy | - | $(digest cap.yaml) |" table &&
	grep -x "| decisions_no_plan | - | 0 |" table
'

test_done
