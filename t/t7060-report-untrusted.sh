#!/bin/sh
# Numbers a user writes do not falsify bf-report for others (issue #33,
# items 8, 9, 11): a progress report dated after the time of reading (or
# after its run ended) is not counted and does not move the end of the
# history, even dated 2^40 s, in bounded memory; a log too large to read is
# skipped and said, not an exit; an efficiency above 1 is flagged beside
# its job.  Also: user names in the text (-n: numbers), cancellations.
. "$(dirname "$0")/lib.sh"

A=4321 B=4322
NOW=$(date +%s)
T0=$((NOW - 10))

# b (B) runs on n1 from ten seconds ago at 100 samples/s; a (A) waits, its
# job file in jobs/ and its own progress/a.log.
test_expect_success 'setup: a spool whose history has b running, a waiting' '
	mkspool sp && hist_init sp/history &&
	hist_job sp/history a $A 1 "1:100" &&
	hist_job sp/history b $B 1 "1:100" &&
	hist_enact sp/history $T0 "n1,n2" "" "a= b=n1" &&
	cp sp/history/.job-a sp/jobs/a.yaml &&
	cp sp/history/.job-b sp/jobs/b.yaml &&
	echo "$T0 1 0" >sp/progress/b.log &&
	echo "$((T0 + 5)) 1 500" >>sp/progress/b.log
'

held_b() {	# csv
	awk -F, "\$1 == \"job\" && \$4 == \"b\" { print \$6 }" "$1"
}

test_expect_success 'a line of A dated twenty years ahead does not make b hold them' '
	echo "$T0 1 0" >sp/progress/a.log &&
	echo "$((NOW + 630720000)) 1 5" >>sp/progress/a.log &&
	bf-report -d sp --csv >csv 2>err &&
	h=$(held_b csv) && echo "held by b: $h" &&
	awk -v h="$h" "BEGIN { exit !(h > 0 && h < 0.1) }" &&
	grep -x "bf-report: note: progress/a.log: 1 report dated after the time of reading not counted" err &&
	bf-report -d sp >text &&
	grep -x "  progress/a.log: 1 report dated after the time of reading not counted" text &&
	! grep -q " 20[4-9][0-9]-" text
'

test_expect_success 'a line dated 2^40 s: bounded memory and time, the same figures' '
	echo "1099511627776 1 9" >>sp/progress/a.log &&
	bounded bf-report -d sp --csv >csv2 2>err &&
	test "$(held_b csv2)" = "$(held_b csv)" &&
	grep "progress/a.log: 2 reports dated after the time of reading" err
'

# A run's log is trusted up to its end: a's run ended at T0 + 5.
test_expect_success 'in history/runs/, a log is trusted to its run'"'"'s end' '
	printf "%s 1 0\n%s 1 100\n%s 1 200\n" $T0 $((T0 + 4)) $((NOW + 3600)) >ran.log &&
	hist_run sp/history $((T0 + 5)) a finished ran.log &&
	bf-report --history sp/history --csv >csv3 2>err &&
	grep -x "bf-report: note: sp/history/runs/$((T0 + 5))-a-42/progress.log: 1 report dated after its run ended (.*) not counted" err &&
	awk -F, "\$1 == \"job\" && \$4 == \"a\" { print \$8 }" csv3 >samples &&
	echo 100 >expect && test_cmp expect samples
'

test_expect_success 'an oversize log in progress/ is skipped and said, exit 0' '
	cp sp/progress/a.log a.keep &&
	truncate -s 65M sp/progress/a.log &&
	bounded bf-report -d sp >text 2>err &&
	grep -x "  progress/a.log: larger than 67108864 bytes: not read, its samples are not counted" text &&
	grep "^b " text &&
	bounded bf-report -d sp --csv >csv4 2>err &&
	grep -x "bf-report: note: progress/a.log: larger than 67108864 bytes: not read, its samples are not counted" err &&
	cp a.keep sp/progress/a.log
'

test_expect_success 'an oversize log moved into history/runs/: the same, from a copy too' '
	truncate -s 65M sp/history/runs/*-a-42/progress.log &&
	bounded bf-report -d sp >text 2>err &&
	grep -x "  history/runs/$((T0 + 5))-a-42/progress.log: larger than 67108864 bytes: not read, its samples are not counted" text &&
	cp -R sp/history copy &&
	bounded bf-report --history copy >text2 2>err &&
	grep -x "  copy/runs/$((T0 + 5))-a-42/progress.log: larger than 67108864 bytes: not read, its samples are not counted" text2
'

# c held one node for 100 s at 1 sample/s, and its rewritten log claims
# 5000 samples: eff 50, flagged beside it; d is honest, not flagged.
test_expect_success 'an efficiency above 1 is flagged beside its job' '
	hist_init e && hist_job e c 0 1 "1:1" && hist_job e d $A 1 "1:1" &&
	hist_enact e 1000 "n1,n2" "" "c=n1 d=n2" &&
	printf "1000 1 0\n1100 1 5000\n" >c.log && hist_run e 1100 c finished c.log &&
	printf "1000 1 0\n1100 1 50\n" >d.log && hist_run e 1100 d cancelled d.log &&
	bf-report --history e >text &&
	cat text &&
	grep -E "^c +root .* 50\.0000 .*  ! eff above 1$" text &&
	grep -E "^d +$A .* 0\.5000 .* 1$" text &&
	grep -x "  ! eff above 1: more samples than the job.s rate at its nodes allows; its progress log (its owner.s to rewrite) or its scaling is wrong" text
'

test_expect_success 'user names from the uid, numbers with -n; cancellations in the text' '
	grep -E "^user .* cancelled$" text &&
	grep -E "^root +- " text && grep -E "^$A +- " text &&
	bf-report -n --history e >num &&
	grep -E "^c +0 " num && grep -E "^0 +- " num &&
	! grep -q "^root" num
'

# p has no scaling: profiled online, its first plan was made before its
# profile (50 samples/s on 1 node) and is valued by it, said in a note:
# 200 s at 50/s, 10000 samples, eff 1.
test_expect_success 'an online-profiled job: its efficiency from its later profile' '
	hist_init f && hist_job f p $A 1 "" &&
	hist_enact f 1000 "n1" "" "p=n1" &&
	hist_enact f 1100 "n1" "p=n1" "p=n1" &&
	printf "name: p\npoints:\n  1: 50\n" >f/.prof && store f f/.prof &&
	sed -i "s/^profiles: {}$/profiles:\n  p: \"$obj\"/" f/$hist_last.inputs.yaml &&
	printf "1000 1 0\n1100 1 5000\n1200 1 10000\n" >p.log && hist_run f 1200 p finished p.log &&
	bf-report -n --history f >text &&
	cat text &&
	grep -E "^p +$A +- +0\.056 +1\.0000 +10000 +10000 +1\.0000 " text &&
	grep -x "  p: no rate before its first profile: valued by its profile of the plan of 1970-01-01T00:18:20Z" text
'

# Why a job waits, in the plan bf-report --now shows (the cap: t7070).
test_expect_success 'the plan says why a job waits: no idle node' '
	printf "time: 5\nsource: test\nidle: []\n" >none.yaml &&
	printf "name: w\ncommand: x\nmax_nodes: 2\nscaling:\n  1: 10\n" >w.yaml &&
	bf-solve none.yaml w.yaml >plan &&
	grep -x "  w: {nodes: 0, was: 0, note: \"waits: no idle node\"}" plan
'

test_done
