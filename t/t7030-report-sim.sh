#!/bin/sh
# bf-report on a replay written down by bf-sim --spool: its figures equal
# those bf-sim reports for the same run, in total and job by job.
. "$(dirname "$0")/lib.sh"

D="$T_DIR/data/sim"
E="$BF_ROOT/examples/sim"

sim() {	# trace jobs dir [option...]: the replay in DIR and DIR.spool
	_tr=$1 _jobs=$2 _dir=$3
	shift 3
	bf-sim --idle-trace "$D/$_tr" --jobs "$D/$_jobs" \
		--curves "$D/curves.csv" --curve-source HAND -o "$_dir" \
		--no-plot --spool "$_dir.spool" "$@"
}

# The report's CSV against summary.yaml and jobs.csv: node-hours to the
# three decimals bf-sim prints, rescales and finishes exactly, samples
# done exactly per job (both print the same double with %.0f), samples
# ideal within 1 per job (the report sums rate x time again, in another
# order), and totals within 1 per job of the rounding of each.
same() {	# dir
	bf-report -d "$1.spool" --csv >"$1.csv" &&
	bf-report -d "$1.spool" >"$1.txt" &&
	awk -F, -v sum="$1/summary.yaml" -v jobs="$1/jobs.csv" '
	function fail(what) { print "differ: " what; bad = 1 }
	BEGIN {
		while ((getline l <sum) > 0) {
			split(l, kv, ": ")
			s[kv[1]] = kv[2]
		}
		getline l <jobs
		# a job admitted that never held a node has no row
		while ((getline l <jobs) > 0) {
			split(l, f, ",")
			done[f[1]] = f[6]; ideal[f[1]] = f[7]; resc[f[1]] = f[9]
			if (f[6] + f[7] + f[9] > 0) n++
		}
	}
	$1 == "total" {
		if (sprintf("%.3f", $5) != s["idle_node_hours"])
			fail("offered " $5 " " s["idle_node_hours"])
		if (sprintf("%.3f", $6) != s["allocated_node_hours"])
			fail("held " $6 " " s["allocated_node_hours"])
		d = $8 - s["samples_done"]; if (d < 0) d = -d
		if (d > n) fail("samples " $8 " " s["samples_done"])
		d = $9 - s["samples_ideal"]; if (d < 0) d = -d
		if (d > n) fail("ideal " $9 " " s["samples_ideal"])
		d = $10 - s["efficiency"]; if (d < 0) d = -d
		if (d > 2e-6) fail("efficiency " $10 " " s["efficiency"])
		if ($11 + $12 + $13 != s["rescales"])
			fail("rescales " $11 + $12 + $13 " " s["rescales"])
		if ($16 != s["jobs_finished"])
			fail("finished " $16 " " s["jobs_finished"])
		totals++
	}
	$1 == "job" {
		if (!($4 in done)) { fail("job " $4 " not in jobs.csv"); next }
		if ($8 != done[$4]) fail($4 " samples " $8 " " done[$4])
		d = $9 - ideal[$4]; if (d < 0) d = -d
		if (d > 1) fail($4 " ideal " $9 " " ideal[$4])
		if ($11 + $12 + $13 != resc[$4]) fail($4 " rescales")
		seen++
	}
	END {
		if (totals != 1 || seen != n) fail("rows: " totals " " seen " " n)
		exit bad
	}' "$1.csv" &&
	events=$(sed -n "s/^events: //p" "$1/summary.yaml") &&
	grep -q "; plans enacted $events, runs ended " "$1.txt"
}

# tiny.csv, job a, worked out in t6010: I = A = 0.3 h, done 10690,
# ideal 10800, 2 rescales; n1 and n2 taken back from a at 210 and 310 s.
test_expect_success 'a replay with two preemptions: the same figures' '
	sim tiny.csv tiny-jobs.csv tiny --to 400 &&
	same tiny &&
	grep "^job,,$(id -u),a,,0.300000,1.000000,10690,10800,0.989815,2,0,0,2,2,0,0,0,0,0$" tiny.csv
'

test_expect_success 'the spool is what bf-apply would have left' '
	ls tiny.spool/history | grep -c "^[0-9]*-[0-9a-f]*\.yaml$" >n &&
	echo 5 >want && test_cmp want n &&
	cat >want <<-\EOF &&
	10.000000 2 0
	110.000000 2 2000
	210.000000 4 5960
	310.000000 3 8920
	400.000000 2 10690
	EOF
	test_cmp want tiny.spool/progress/a.log &&
	grep -q "^owner: {uid: $(id -u)}$" tiny.spool/jobs/a.yaml &&
	grep -q "^  a: {nodes: 2, hosts: \"n\[3-4\]\"}$" tiny.spool/state.yaml &&
	bf-audit -d tiny.spool --log >log &&
	sed -n 3p log | grep " a 2->4$" &&
	sed -n 4p log | grep " a 4->3$"
'

test_expect_success 'a job that finishes: its run record and log in history/runs' '
	sim tiny.csv finish-jobs.csv fin --to 400 &&
	same fin &&
	test -f fin.spool/history/runs/85-c-0.yaml &&
	grep -x "outcome: finished" fin.spool/history/runs/85-c-0.yaml &&
	tail -n 1 fin.spool/history/runs/85-c-0/progress.log >last &&
	echo "85.000000 2 1500" >want && test_cmp want last &&
	ls fin.spool/jobs >left && test_must_be_empty left
'

test_expect_success 'eight jobs, equal share: the same figures' '
	sim share.csv mixed-jobs.csv mix --to 3000 --policy equal-share \
		--max-jobs 4 &&
	same mix
'

test_expect_success 'an SWF log: the same figures' '
	bf-sim --swf "$D/tiny.swf" --from 0 --to 200 --jobs "$D/tiny-jobs.csv" \
		--curves "$D/curves.csv" --curve-source HAND -o swf --no-plot \
		--spool swf.spool &&
	same swf
'

# The demo: one day of Summit's first 256 nodes, 14 jobs admitted, 4
# finished, 108 decisions across two UTC days.
test_expect_success 'a day of Summit under the MILP: the same figures' '
	bf-sim --idle-trace "$E/summit-256-day.csv" \
		--epoch 2021-02-10T00:08:52Z \
		--from 2021-02-10T20:21:15Z --to 2021-02-11T20:21:15Z \
		--nodes 256 --max-jobs 10 -T 10 \
		--jobs "$E/bftrainer-imagenet-1001.csv" \
		--curves "$E/bftrainer-curves.csv" -o day --no-plot \
		--spool day.spool &&
	same day &&
	grep -c "^day,2021-02-1[01]," day.csv >n && echo 2 >want &&
	test_cmp want n
'

test_expect_success 'a spool with a history already is refused' '
	test_expect_code 73 bf-sim --idle-trace "$D/tiny.csv" \
		--jobs "$D/tiny-jobs.csv" --curves "$D/curves.csv" \
		--curve-source HAND -o again --no-plot --spool tiny.spool 2>err &&
	echo "bf-sim: tiny.spool: has a history already (--spool writes a new spool)" >want &&
	test_cmp want err
'

test_done
