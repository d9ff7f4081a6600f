#!/bin/sh
# bf-report on histories written by hand (hist_* in t/lib.sh): its figures
# against an independent computation in awk and against the arithmetic in
# the comments; windows; CSV and text exactly; empty histories; the same
# report every time.
. "$(dirname "$0")/lib.sh"

# 2026-11-21T00:00:00Z: the history runs from 23:00 the day before.
D1=1795219200

# Five plans, three jobs (bf-report(1) for the rules):
#   a: uid 1000, min 1, 10/20/40 samples/s on 1/2/4 nodes (30 on 3)
#   b: uid 1001, min 2, no scaling: its ideal is unknown
#   c: uid 1000, min 1, 5 samples/s on 1 node, from the fourth plan
# P1 D1-3600    idle n1-n4   a n1,n2 (start)  b n3,n4 (start)
# P2 D1+1800.5  idle n2-n4   a n2: n1 taken back (a preemption, no rescale)
# P3 D1+3600    idle n1-n5   a n1,n2,n5 (grow)
# P4 D1+5400    idle n1-n5   b stopped (shrink), c n3 (start)
# P5 D1+7200    idle n1-n5   a n2,n4,n5 (a move)
# runs: b preempted at D1+5401, a finished at D1+8000 (its log), c failed
# at D1+9000, the end of the history.  a's held interval from P5 ends at
# D1+8001, the end of the second its run ended in.
test_expect_success 'setup: a history over two days' '
	hist_init h &&
	hist_job h a 1000 1 "1:10 2:20 4:40" &&
	hist_job h b 1001 2 "" &&
	hist_enact h $((D1 - 3600)) "n1,n2,n3,n4" "" "a=n1,n2 b=n3,n4" &&
	hist_enact h $((D1 + 1800)).5 "n2,n3,n4" "a=n1,n2 b=n3,n4" \
		"a=n2 b=n3,n4" &&
	hist_enact h $((D1 + 3600)) "n1,n2,n3,n4,n5" "a=n2 b=n3,n4" \
		"a=n1,n2,n5 b=n3,n4" &&
	hist_job h c 1000 1 "1:5" &&
	hist_enact h $((D1 + 5400)) "n1,n2,n3,n4,n5" "a=n1,n2,n5 b=n3,n4" \
		"a=n1,n2,n5 b= c=n3" &&
	hist_run h $((D1 + 5401)) b preempted &&
	hist_drop h b &&
	hist_enact h $((D1 + 7200)) "n1,n2,n3,n4,n5" "a=n1,n2,n5 c=n3" \
		"a=n2,n4,n5 c=n3" &&
	{
		echo "$((D1 - 3500)) 2 1000"
		echo "$((D1 - 3400)) 2 3000"
		echo "$((D1 - 100)) 2 5000"
		echo "$((D1 + 100)) 2 9000"
		echo "$((D1 + 7990)) 3 20000"
	} >a.log &&
	hist_run h $((D1 + 8000)) a finished a.log &&
	hist_run h $((D1 + 9000)) c failed
'

# The same figures from the intervals above, with the rules of
# bf-report(1) written again in awk: iv START END JOB UID NODES RATE,
# off START END NODES, and the log of job a.
test_expect_success 'job-days and days: the figures computed apart' '
	cat >intervals <<-EOF &&
	iv $((D1 - 3600)) $((D1 + 1800)).5 a 1000 2 20
	iv $((D1 - 3600)) $((D1 + 1800)).5 b 1001 2 -
	iv $((D1 + 1800)).5 $((D1 + 3600)) a 1000 1 10
	iv $((D1 + 1800)).5 $((D1 + 3600)) b 1001 2 -
	iv $((D1 + 3600)) $((D1 + 5400)) a 1000 3 30
	iv $((D1 + 3600)) $((D1 + 5400)) b 1001 2 -
	iv $((D1 + 5400)) $((D1 + 7200)) a 1000 3 30
	iv $((D1 + 5400)) $((D1 + 7200)) c 1000 1 5
	iv $((D1 + 7200)) $((D1 + 8001)) a 1000 3 30
	iv $((D1 + 7200)) $((D1 + 9000)) c 1000 1 5
	off $((D1 - 3600)) $((D1 + 1800)).5 4
	off $((D1 + 1800)).5 $((D1 + 3600)) 3
	off $((D1 + 3600)) $((D1 + 9000)) 5
	EOF
	sed "s/^/log a 1000 /" a.log >>intervals &&
	awk "
	function add(what, job, uid, a, b, per,    x, y, dd) {
		for (x = a; x < b; x = y) {
			dd = int(x / 86400); y = (dd + 1) * 86400
			if (y > b) y = b
			acc[what, dd, job, uid] += per * (y - x)
			cell[dd, job, uid] = 1
		}
	}
	\$1 == \"iv\" {
		add(\"held\", \$4, \$5, \$2, \$3, \$6)
		if (\$7 == \"-\") unknown[int(\$2 / 86400), \$4, \$5] = 1
		else add(\"ideal\", \$4, \$5, \$2, \$3, \$7)
	}
	\$1 == \"off\" { add(\"off\", \"\", \"\", \$2, \$3, \$4) }
	\$1 == \"log\" {
		t = \$4; s = \$6; ds = s - last[\$2]
		if (seen[\$2]++ && t - lt[\$2] > 0 && t - lt[\$2] <= 300)
			add(\"samples\", \$2, \$3, lt[\$2], t, ds / (t - lt[\$2]))
		else {
			acc[\"samples\", int(t / 86400), \$2, \$3] += ds
			cell[int(t / 86400), \$2, \$3] = 1
		}
		last[\$2] = s; lt[\$2] = t
	}
	END {
		for (k in cell) {
			split(k, f, SUBSEP)
			cmd = \"date -u -d @\" f[1] * 86400 \" +%F\"
			cmd | getline day; close(cmd)
			if (f[2] == \"\") {
				printf \"%s,offered,%.6f\\n\", day, acc[\"off\", f[1], \"\", \"\"] / 3600
				continue
			}
			ideal = unknown[k] ? \"\" : sprintf(\"%.0f\", acc[\"ideal\", f[1], f[2], f[3]])
			printf \"%s,%s,%s,%.6f,%.0f,%s\\n\", day, f[3], f[2],
				acc[\"held\", f[1], f[2], f[3]] / 3600,
				acc[\"samples\", f[1], f[2], f[3]], ideal
		}
	}" intervals | sort >expect &&
	bf-report --history h --csv >csv &&
	awk -F, "\$1 == \"job-day\" { print \$2 \",\" \$3 \",\" \$4 \",\" \$6 \",\" \$8 \",\" \$9 }
		\$1 == \"day\" { print \$2 \",offered,\" \$5 }" csv | sort >actual &&
	test_cmp expect actual
'

# The rest worked out by hand from the comment above: rescales, runs,
# user and job rows, utilisation against the window's 15.000139 h offered.
test_expect_success '--csv, exactly' '
	cat >expect <<-\EOF &&
	scope,day,user,job,offered_node_hours,held_node_hours,utilisation,samples_done,ideal_samples,efficiency,grows,shrinks,moves,preemptions,nodes_lost,runs_finished,runs_failed,runs_stopped,runs_lost,runs_cancelled
	day,2026-11-20,,,4.000000,4.000000,1.000000,7000,72000,0.097222,2,0,0,0,0,0,0,0,0,0
	day,2026-11-21,,,11.000139,9.167639,0.833411,13000,204035,0.063715,2,1,1,1,1,1,1,1,0,0
	total,,,,15.000139,13.167639,0.877834,20000,276035,0.072455,4,1,1,1,1,1,1,1,0,0
	user,,1000,,,8.167639,0.544504,20000,276035,0.072455,3,0,1,1,1,1,1,0,0,0
	user,,1001,,,5.000000,0.333330,0,,,1,1,0,0,0,0,0,1,0,0
	job,,1000,a,,7.167639,0.477838,20000,258035,0.077509,2,0,1,1,1,1,0,0,0,0
	job,,1001,b,,5.000000,0.333330,0,,,1,1,0,0,0,0,0,1,0,0
	job,,1000,c,,1.000000,0.066666,0,18000,0.000000,1,0,0,0,0,0,1,0,0,0
	job-day,2026-11-20,1000,a,,2.000000,0.500000,7000,72000,0.097222,1,0,0,0,0,0,0,0,0,0
	job-day,2026-11-20,1001,b,,2.000000,0.500000,0,,,1,0,0,0,0,0,0,0,0,0
	job-day,2026-11-21,1000,a,,5.167639,0.469779,13000,186035,0.069879,1,0,1,1,1,1,0,0,0,0
	job-day,2026-11-21,1001,b,,3.000000,0.272724,0,,,0,1,0,0,0,0,0,1,0,0
	job-day,2026-11-21,1000,c,,1.000000,0.090908,0,18000,0.000000,1,0,0,0,0,0,1,0,0,0
	EOF
	test_cmp expect csv
'

test_expect_success 'the tables, exactly' '
	cat >expect <<-\EOF &&
	h: 2026-11-20T23:00:00Z to 2026-11-21T02:30:00Z (the end of the history); plans enacted 5, runs ended 3

	day         offered_nh     held_nh    util        samples          ideal     eff rescales preempt stopped finished failed cancelled
	2026-11-20       4.000       4.000  1.0000           7000          72000  0.0972        2       0       0        0      0         0
	2026-11-21      11.000       9.168  0.8334          13000         204035  0.0637        4       1       1        1      1         0
	total           15.000      13.168  0.8778          20000         276035  0.0725        6       1       1        1      1         0

	user        offered_nh     held_nh    util        samples          ideal     eff rescales preempt stopped finished failed cancelled
	1000                 -       8.168  0.5445          20000         276035  0.0725        4       1       0        1      1         0
	1001                 -       5.000  0.3333              0              -       -        2       0       1        0      0         0

	job user        offered_nh     held_nh    util        samples          ideal     eff rescales preempt stopped finished failed cancelled
	a   1000                 -       7.168  0.4778          20000         258035  0.0775        3       1       0        1      0         0
	b   1001                 -       5.000  0.3333              0              -       -        2       0       1        0      0         0
	c   1000                 -       1.000  0.0667              0          18000  0.0000        1       0       0        0      1         0
	EOF
	bf-report -n --history h >actual &&
	test_cmp expect actual
'

# From midnight to P3: P1 from 00:00, P2; P3 itself is at the end,
# excluded.  a: 2 x 1800.5 + 1 x 1799.5 = 5400.5 node-s, ideal 20 x
# 1800.5 + 10 x 1799.5 = 54005; b: 2 x 3600; offered 4 x 1800.5 + 3 x
# 1799.5 = 12600.5; samples: half of the 4000 from D1-100 to D1+100.
test_expect_success '--since and --until cut the intervals' '
	bf-report --history h --csv --since 2026-11-21 --until $((D1 + 3600)) >cut &&
	grep -x "total,,,,3.500139,3.500139,1.000000,2000,54005,0.037034,0,0,0,1,1,0,0,0,0,0" cut &&
	grep -x "job,,1000,a,,1.500139,0.428594,2000,54005,0.037034,0,0,0,1,1,0,0,0,0,0" cut &&
	bf-report --history h --since 2026-11-21T00:00:00Z --until $((D1 + 3600)) >text &&
	head -n 1 text >actual &&
	echo "h: 2026-11-21T00:00:00Z to 2026-11-21T01:00:00Z; plans enacted 1, runs ended 0" >expect &&
	test_cmp expect actual
'

test_expect_success 'consecutive windows add up to the whole' '
	bf-report --history h --csv --until 2026-11-21 >w1 &&
	bf-report --history h --csv --since 2026-11-21 >w2 &&
	grep "^total," w1 w2 csv | sed "s/^[^:]*://" >totals &&
	awk -F, "NR < 3 { for (i = 5; i <= NF; i++) if (i != 7 && i != 10) s[i] += \$i }
		NR == 3 { for (i in s) if (sprintf(\"%.6f\", s[i]) != sprintf(\"%.6f\", \$i)) { print i, s[i], \$i; bad = 1 } }
		END { exit bad }" totals
'

test_expect_success 'a window after the history: nothing, and no plan held longer' '
	bf-report --history h --csv --since $((D1 + 9001)) --until $((D1 + 99999)) >late &&
	sed -n 2p late >actual &&
	echo "total,,,,0.000000,0.000000,,0,0,,0,0,0,0,0,0,0,0,0,0" >expect &&
	test_cmp expect actual &&
	bf-report --history h --csv --until $((D1 + 99999)) >longer &&
	grep "^total," longer >actual && grep "^total," csv >expect &&
	test_cmp expect actual
'

test_expect_success 'an empty history: the tables with nothing in them' '
	mkdir empty &&
	cat >expect <<-\EOF &&
	empty: empty: no plan enacted, no run ended, no progress report

	day         offered_nh     held_nh    util        samples          ideal     eff rescales preempt stopped finished failed cancelled
	total            0.000       0.000       -              0              0       -        0       0       0        0      0         0

	user        offered_nh     held_nh    util        samples          ideal     eff rescales preempt stopped finished failed cancelled

	job user        offered_nh     held_nh    util        samples          ideal     eff rescales preempt stopped finished failed cancelled
	EOF
	bf-report -n --history empty >actual &&
	test_cmp expect actual &&
	bf-report --history empty/ --csv >actual &&
	head -n 1 csv >expect &&
	echo "total,,,,0.000000,0.000000,,0,0,,0,0,0,0,0,0,0,0,0,0" >>expect &&
	test_cmp expect actual
'

test_expect_success 'a spool without a history is an empty history' '
	bf-submit -d sp /dev/null 2>/dev/null; test -d sp/jobs &&
	rmdir sp/history &&
	bf-report -d sp >actual &&
	head -n 1 actual >first &&
	echo "history: empty: no plan enacted, no run ended, no progress report" >expect &&
	test_cmp expect first
'

test_expect_success 'the same history gives the same report, byte for byte' '
	bf-report --history h >one && bf-report --history h >two &&
	test_cmp one two &&
	bf-report --history h --csv >one && test_cmp csv one &&
	cp -R h copy && bf-report --history copy >three &&
	sed 1d two >expect && sed 1d three >actual && test_cmp expect actual
'

# Names sort as text ("100-..." before "99-..."); the plans are taken by
# their enacted times.  99: a on n1 (start); 100: a on n1,n2 (grow); to
# the end at 200: held 1 x 1 + 2 x 100 = 201 node-s, ideal the same at 1
# sample/s a node; in name order it would be 2 x 1 + 1 x 100.
test_expect_success 'plans are taken in the order they were enacted' '
	hist_init o && hist_job o a 7 1 "1:1" &&
	hist_enact o 99 "n1,n2" "" "a=n1" &&
	hist_enact o 100 "n1,n2" "a=n1" "a=n1,n2" &&
	echo "200 2 1" >one.log && hist_run o 200 a finished one.log &&
	ls o | grep "yaml$" | grep -v inputs >names &&
	head -n 1 names | grep "^100-" &&
	bf-report --history o --csv >actual &&
	grep -x "job,,7,a,,0.055833,0.995050,1,201,0.004975,2,0,0,0,0,1,0,0,0,0" actual
'

test_expect_success 'NODES "-" in a log is taken from the plans' '
	hist_init n && hist_job n a 7 1 "1:1" &&
	hist_enact n 1000 "n1" "" "a=n1" &&
	printf "1000 - 0\n1100 - 50\n" >dash.log &&
	hist_run n 1100 a finished dash.log &&
	bf-report --history n --csv >actual 2>err &&
	test_must_be_empty err &&
	grep "^total,,,,0.027778,0.027778,1.000000,50,100,0.500000," actual
'

test_expect_success '--svg: a bar chart of the days, written whole' '
	bf-report --history h --svg days.svg >out &&
	test_cmp two out &&
	grep -q "<svg" days.svg && grep -q "</svg>" days.svg &&
	ls -a | grep "\.tmp$" >left; test_must_be_empty left &&
	bf-report --history empty --svg none.svg >/dev/null &&
	grep -q "</svg>" none.svg
'

test_expect_success '--svg without gnuplot: 69, no file' '
	test_expect_code 69 env PATH="$BF_ROOT/bin" bf-report --history h \
		--svg no.svg >/dev/null 2>err &&
	echo "bf-report: --svg: gnuplot not found (Debian: gnuplot-nox); no plot written" >expect &&
	test_cmp expect err &&
	! test -e no.svg
'

test_done
