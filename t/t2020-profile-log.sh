#!/bin/sh
# bf-profile LOGFILE: the profile of one log, every bad line warned about
# with file:line, skipped and counted, and the good lines all kept.
. "$(dirname "$0")/lib.sh"

# gen N:SECONDS...: a clean log of resnet18 (the BFTrainer curve) reporting
# every 10 s, with a commit report before each rescale and a pause of 18 s
# growing, 12 s shrinking.
gen() {
	echo "$@" | awk '
	BEGIN { r[1] = 5218.8; r[2] = 10582.5; r[4] = 20436.0; r[8] = 39584.0
		t = 1612915700; s = 0 }
	{ for (i = 1; i <= NF; i++) {
		split($i, f, ":"); n = f[1]; d = f[2]
		if (i > 1) { printf "%d %d %.0f\n", t, old, s; t += n > old ? 18 : 12 }
		for (e = t + d; t < e;) { t += 10; s += r[n] * 10; printf "%d %d %.0f\n", t, n, s }
		old = n } }'
}

# at NODES S0 T0 RATE T...: a report at each T (seconds after 1612915000)
# on NODES nodes, its counter at S0 + (T - T0) x RATE.
at() {
	_n=$1 _s0=$2 _t0=$3 _r=$4
	shift 4
	for _t in "$@"; do
		echo "$((1612915000 + _t)) $_n $((_s0 + (_t - _t0) * _r))"
	done
}

# profiled LOG LINE...: bf-profile LOG quietly, its profile in actual,
# every LINE in it whole.
profiled() {
	bf-profile "$1" >actual 2>err && test_must_be_empty err || return 1
	shift
	for _l in "$@"; do
		grep -qx "$_l" actual || { echo "missing: $_l" >&2; return 1; }
	done
}

test_expect_success 'bf-profile -V prints the version' '
	bf-profile -V >out && grep -Eq "^bf-profile [0-9]+\.[0-9]+\.[0-9]+$" out
'

test_expect_success 'usage errors exit 64' '
	test_expect_code 64 bf-profile -x 2>/dev/null &&
	test_expect_code 64 bf-profile -d sp -j job.yaml a.log 2>/dev/null &&
	test_expect_code 64 bf-profile -j job.yaml a.log b.log 2>/dev/null &&
	test_expect_code 64 bf-profile -d sp a/b 2>err &&
	grep -q "^bf-profile: '"'a/b'"' is not a job name$" err
'

test_expect_success 'a missing log exits 66' '
	test_expect_code 66 bf-profile nope.log 2>err &&
	echo "bf-profile: unable to open nope.log: No such file or directory" >expect &&
	test_cmp expect err
'

test_expect_success 'a clean log with two rescales: the whole profile' '
	gen 1:300 2:300 4:300 >resnet18.log &&
	bf-profile resnet18.log >actual 2>err &&
	test_must_be_empty err &&
	# still on its doubling ladder: (20436/4) / (10582.5/2) = 0.966
	cat >expect <<-\EOT &&
	advise: {next_nodes: 8, reason: "efficiency 0.97 from 2 to 4 nodes: double"}
	fit: {counts: 3, kappa: 0.00234917, law: usl, r1: 5262.03, rmse: 69.967, sigma: 0}
	last_report: 1612916636
	name: resnet18
	points:
	  1: 5218.8
	  2: 10582.5
	  4: 20436
	rescale: {down_observations: 0, up: 18, up_observations: 2}
	skipped_lines: 0
	EOT
	test_cmp expect actual
'

test_expect_success 'the same log on stdin, and growing then shrinking' '
	gen 2:300 8:300 4:300 | bf-profile - >actual &&
	grep "^name: stdin$" actual &&
	grep "^rescale: {down: 12, down_observations: 1, up: 18, up_observations: 1}$" actual
'

cat >job.yaml <<EOF2
name: resnet18
command: python3 train.py
min_nodes: 2
max_nodes: 6
EOF2

test_expect_success '-j: the name, the range and the declared costs from a job file' '
	gen 2:300 4:300 >r.log &&
	bf-profile -j job.yaml r.log >actual &&
	grep "^name: resnet18$" actual &&
	grep "^advise: {next_nodes: 6, reason: \"efficiency 0.97 from 2 to 4 nodes: double, capped at max_nodes\"}$" actual &&
	bf-profile --advise -j job.yaml r.log >actual &&
	echo "resnet18 6 efficiency 0.97 from 2 to 4 nodes: double, capped at max_nodes" >expect &&
	test_cmp expect actual
'

test_expect_success '-j with a bad job file exits 65' '
	printf "name: x\ncommand: y\nmax_nodes: 0\n" >bad.yaml &&
	test_expect_code 65 bf-profile -j bad.yaml r.log 2>err &&
	echo "bf-profile: bad.yaml:3: max_nodes must be a whole number from 1 to 1000000, not '"'0'"'" >expect &&
	test_cmp expect err
'

test_expect_success 'every kind of bad line: warned, skipped, counted; good lines kept' '
	{
		printf "1612915700 1 0\n1612915710 1 52188\nhello world\n"
		printf "1612915720 1 104376\n1612915715 1 110000\n"
		printf "1612915730 1 100000\n9999999999 1 200000\n"
		printf "1612915740 - 200000\n\001\002\000\377\n"
		printf "%0300d\n" 0
		printf "1612915740 1 208752\n1612915750 0 260940\n"
		printf "1612915750 1 260940\n1612915760 1 313128\n"
		printf "1612915770 1 1e6\n0x10 1 5\n\n1612915780 1 417504\n"
		printf "1612915790 1 4"
	} >bad.log &&
	bf-profile bad.log >actual 2>err &&
	cat >expect <<-\EOT &&
	bf-profile: bad.log:3: not a report '"'UNIXTIME NODES SAMPLES'"': '"'hello world'"', skipped
	bf-profile: bad.log:5: time 1612915715 goes backwards (line 4 has 1612915720), skipped
	bf-profile: bad.log:6: samples 100000 decrease (line 4 has 104376), skipped
	bf-profile: bad.log:7: time 9999999999 is later than the next report'"'"'s (line 11 has 1612915740), skipped
	bf-profile: bad.log:8: NODES '"'-'"' needs the allocation history (bf-profile -d SPOOL reads history/), skipped
	bf-profile: bad.log:9: a NUL byte: binary data, not a report, skipped
	bf-profile: bad.log:10: line longer than 256 bytes, skipped
	bf-profile: bad.log:12: nodes '"'0'"' is not a node count from 1 to 1000000, skipped
	bf-profile: bad.log:15: samples '"'1e6'"' is not a whole number from 0 to 10^18, skipped
	bf-profile: bad.log:16: time '"'0x10'"' is not unix seconds, skipped
	EOT
	test_cmp expect err &&
	cat >expect <<-\EOT &&
	advise: {next_nodes: 2, reason: "one node count measured: double"}
	last_report: 1612915780
	name: bad
	points:
	  1: 5218.8
	rescale: {down_observations: 0, up_observations: 0}
	skipped_lines: 10
	EOT
	test_cmp expect actual
'

test_expect_success 'an empty log: warned, exit 0, start at min_nodes' '
	: >empty.log &&
	bf-profile empty.log >actual 2>err &&
	echo "bf-profile: empty.log:1: no reports" >expect &&
	test_cmp expect err &&
	grep "^advise: {next_nodes: 1, reason: \"nothing measured: start at min_nodes\"}$" actual &&
	grep "^points: {}$" actual
'

test_expect_success 'binary garbage only: every line skipped, exit 0' '
	head -c 100000 /dev/urandom >noise.log &&
	bf-profile noise.log >actual 2>err &&
	grep "^points: {}$" actual &&
	n=$(grep -c "skipped$" err) &&
	grep "^skipped_lines: $n$" actual
'

test_expect_success 'a huge line is skipped, not read into a line buffer' '
	{ gen 1:100; head -c 5000000 /dev/zero | tr "\0" 7; echo; gen 1:100 | sed "s/^1612915/1612925/; s/ \([0-9]*\)$/ 9\1/"; } >long.log &&
	bf-profile long.log >actual 2>err &&
	echo "bf-profile: long.log:11: line longer than 256 bytes, skipped" >expect &&
	test_cmp expect err &&
	grep "^skipped_lines: 1$" actual
'

test_expect_success 'a lost line and a late line do not move the rate' '
	gen 1:600 | awk "NR == 20 { next } NR == 30 { \$3 = prev + 1 } { prev = \$3; print }" >lost.log &&
	sed -n 29p lost.log | grep "^1612916000 1 1513453$" &&
	bf-profile lost.log >actual 2>err &&
	test_must_be_empty err &&
	grep "^  1: 5218.8$" actual && grep "^skipped_lines: 0$" actual
'

test_expect_success 'a silence over 300 s is a stop and restart, not a rescale' '
	gen 1:300 >restart.log &&
	tail -1 restart.log | awk "{ for (k = 1; k <= 30; k++) print \$1 + 1000 + 10 * k, 2, \$3 + 105825 * k }" >>restart.log &&
	bf-profile restart.log >actual &&
	grep "^  1: 5218.8$" actual && grep "^  2: 10582.5$" actual &&
	grep "^rescale: {down_observations: 0, up_observations: 0}$" actual
'

# 1 node at 100/s: 0, 10 .. 40 s.  Grown to 2 at 40 s (t_c 40, S_c 4000),
# the counter stalls until 100 s, 60 s against the declared 20, then
# 200/s.  The warm-up cut keeps 60 s on; the mean over 60..130 is
# 6000/70 = 85.7/s, its quarter 21.4, below the floor 0.25 x 100 x
# min(1, 2/1) = 25/s, which is the reference.  The steps
# from 60, 70, 80 and 90 advanced 0 < 250: dropped; 100 -> 110 advanced
# 2000: kept.  The line through 100..130 is 200/s exactly, and reaches
# S_c at 100 s: 60 s lost.  Without the rule the line through 60..130
# would give 2: 81.0 (least squares), a stall mistaken for a slow rate.
test_expect_success 'a restart slower than declared: its stalled reports are warm-up' '
	{ at 1 0 0 100 0 10 20 30 40
	  at 2 4000 0 0 50 60 70 80 90 100
	  at 2 4000 100 200 110 120 130
	} >stall.log &&
	profiled stall.log "  1: 100" "  2: 200" \
	    "rescale: {down_observations: 0, up: 60, up_observations: 1}"
'

# The same growth, the stall ending within a step: the counter flat at
# 4,000 to 90 s, then 200/s from 95 s (5,000 at 100 s).  The steps from
# 60 to 90 are stalled; the step from 90 to 100 advanced 1,000, half
# stall, and is dropped with them: the line through 100..130 is 200/s
# exactly and reaches S_c at 95 s, 55 s lost.  Kept, the line through
# 90..130 gave 2: 180 and 52.22 s.
test_expect_success 'a stall ending within a step: that step is warm-up too' '
	{ at 1 0 0 100 0 10 20 30 40
	  at 2 4000 0 0 50 60 70 80 90
	  at 2 4000 95 200 100 110 120 130
	} >midstep.log &&
	profiled midstep.log "  1: 100" "  2: 200" \
	    "rescale: {down_observations: 0, up: 55, up_observations: 1}"
'

# A pause at one count: 2 nodes at 200/s, reports every 10 s to 100 s,
# then none for 120 s (its nodes taken back, under the 300 s of a
# restart), then the counter flat at 20,000 from 220 to 240 s and 200/s
# again.  The silence is more than 30 s and 5 x 10 s: a restart there;
# its first report is warm-up, the step from 230 is stalled under the
# floor (a quarter of 200/s) and the one from 240 moves: 200/s over both
# segments.  Read as one segment, the line through the hole gave 69.0.
test_expect_success 'a pause at one count is a restart, not a slow rate' '
	{ at 2 0 0 200 0 10 20 30 40 50 60 70 80 90 100
	  at 2 20000 0 0 220 230 240
	  at 2 20000 240 200 250 260 270 280
	} >pause.log &&
	profiled pause.log "  2: 200"
'

# A stop between two counts: 2 nodes at 200/s to 40 s (8,000), then
# nothing until 4 nodes report at 160 s (all its nodes taken back, some
# given again later) at 400/s.  The silence, 120 s, is longer than a
# grow's declared cost (the default 20 s) by more than 30 s and 5 x 10 s:
# a restart, no observation (read as a grow, it cost 120 s).
test_expect_success 'a change after a long silence is a restart, not a rescale cost' '
	{ at 2 0 0 200 0 10 20 30 40
	  at 4 8000 160 400 160 170 180 190 200
	} >stopped.log &&
	profiled stopped.log "  2: 200" "  4: 400" \
	    "rescale: {down_observations: 0, up_observations: 0}"
'

test_expect_success 'stalled throughout, a segment measures nothing' '
	head -11 stall.log >flat.log &&
	bf-profile flat.log >actual &&
	grep "^  1: 100$" actual && ! grep "^  2:" actual
'

# Two rescales in quick succession, as a node taken back then a shrink:
# 4 nodes at 400/s to 40 s (16,000), 3 nodes at 50 s (one report, no
# segment measured), 2 nodes from 60 s, the counter at 16,000 until 80 s
# and then moving at 10/s as the stall of both runs out.  The warm-up
# keeps 70 s on (60 s is the first report).  The floor is the rate
# before, 4 nodes' 400/s, scaled to 2 nodes and quartered: 50/s; every
# step is under it, so 2 nodes measure nothing.  With the floor taken
# only from the segment just before (3 nodes, none), the quarter of the
# mean, 0.25 x 200 / 30 s, dropped only the step from 70 s (and the
# step's start at 80 s with it) and measured 2: 10 through 90 and 100 s;
# a law fitted through that says the job does not scale.
test_expect_success 'rescales in quick succession: the stall of both is no rate' '
	{ at 4 0 0 400 0 10 20 30 40
	  at 3 16000 0 0 50
	  at 2 16000 0 0 60 70 80
	  at 2 16000 80 10 90 100
	} >quick.log &&
	profiled quick.log "  4: 400" \
	    "rescale: {down_observations: 0, up_observations: 0}" &&
	! grep "^  2:" actual
'

# The same after a silence: 4 nodes at 400/s to 40 s, nothing for 960 s
# (a stop: all its nodes taken back), then 2 nodes from 1,000 s, the
# counter at 16,000 until 1,040 s and then at 10/s.  A restart keeps all
# but its first report; the floor is again 4 nodes' rate scaled to 2 and
# quartered, 50/s, so 2 nodes measure nothing.  With no floor after a
# restart the quarter of the mean kept the last two steps: 2: 10.
test_expect_success 'a restart stalled throughout: no rate either' '
	{ at 4 0 0 400 0 10 20 30 40
	  at 2 16000 0 0 1000 1010 1020 1030 1040
	  at 2 16000 1040 10 1050 1060
	} >silence.log &&
	profiled silence.log "  4: 400" && ! grep "^  2:" actual
'

# A job that truly slows down is not a stall for ever: 4 nodes at
# 4,000/s to 100 s, 2 nodes at 400/s from 110 to 300 s, 1 node at 200/s
# from 310 to 500 s.  The 2 nodes are under the floor (a quarter of
# 4,000/s scaled to 2: 500/s) and measure nothing; the floor of the
# 1-node segment is not carried past them (it would be 250/s, and 1 node
# would measure nothing too), so 1 node is judged by its own rate: 200/s.
# Its shrink is no observation: the segment before it measured nothing
# (it was 10 s when any change after a segment counted).
test_expect_success 'a segment stalled throughout stops the floor: a true slow-down is measured' '
	{ at 4 0 0 4000 0 10 20 30 40 50 60 70 80 90 100
	  at 2 400000 110 400 110 120 130 140 150 160 170 180 190 200 \
	      210 220 230 240 250 260 270 280 290 300
	  at 1 476000 310 200 310 320 330 340 350 360 370 380 390 400 \
	      410 420 430 440 450 460 470 480 490 500
	} >slow.log &&
	profiled slow.log "  1: 200" "  4: 4000" \
	    "rescale: {down_observations: 0, up_observations: 0}" &&
	! grep "^  2:" actual
'

# A rescale's cost is the median of its observations: 1 node at 100/s
# and 2 at 200/s, grown at 40 s, shrunk at 100, grown at 160, shrunk at
# 220 and grown at 280 s, each the last report before its change (t_c).
# Steady progress passes S_c 10 s after each change but the last, 100 s
# after it (the counter flat at 34,000 to 380 s).  Grows: 10, 10 and
# 100 s: median 10 (the mean was 40); shrinks: 10 and 10.
test_expect_success 'a rescale cost is the median of its observations' '
	{ at 1 0 0 100 0 10 20 30 40
	  at 2 4000 50 200 50 60 70 80 90 100
	  at 1 14000 110 100 110 120 130 140 150 160
	  at 2 19000 170 200 170 180 190 200 210 220
	  at 1 29000 230 100 230 240 250 260 270 280
	  at 2 34000 0 0 290 300 310 320 330 340 350 360 370 380
	  at 2 34000 380 200 390 400 410 420 430
	} >median.log &&
	profiled median.log "  1: 100" "  2: 200" \
	    "rescale: {down: 10, down_observations: 2, up: 10, up_observations: 3}"
'

# A change right after another is no observation: 1 node at 100/s to
# 40 s (4,000), 2 nodes at 50 and 60 s (4,000 and 6,000: two reports,
# too few to judge), shrunk at 60 s; the counter flat at 6,000 to 150 s,
# then 100/s.  The floor is 1 node's rate (the last measured), so 1 node
# measures 100/s through 160..200 s, and the shrink would read 90 s:
# the stall of the grow may run on in it, so it is not counted.
test_expect_success 'a change after a segment too short to judge is no observation' '
	{ at 1 0 0 100 0 10 20 30 40
	  at 2 4000 50 200 50 60
	  at 1 6000 0 0 70 80 90 100 110 120 130 140 150
	  at 1 6000 150 100 160 170 180 190 200
	} >short.log &&
	profiled short.log "  1: 100" \
	    "rescale: {down_observations: 0, up_observations: 0}"
'

test_done
