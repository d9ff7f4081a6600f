#!/bin/sh
# bf-sim keeps the rules of the replay on a random trace under every
# policy: never more allocated than idle, counts that add up, work that
# never goes negative or backwards, ideal = done + loss; and the same
# inputs give the same results.  (No node in two jobs, and only idle
# nodes held, are checked inside bf-sim at every step: it exits 70 when
# one breaks, so every successful run here also vouches for those.)
. "$(dirname "$0")/lib.sh"

D="$T_DIR/data/sim"

# 24 nodes, 600 s; each second a few random nodes flip (awk's own
# generator, fixed seed: the same file on every run).
test_expect_success 'a random trace' '
	awk "BEGIN {
		srand(6001); print \"t_s,node,idle\";
		for (i = 1; i <= 24; i++) printf \"0,r%02d,0\n\", i;
		for (t = 5; t <= 600; t += 1 + int(rand() * 9))
			for (k = int(rand() * 4); k >= 0; k--)
				printf \"%d,r%02d,%d\n\", t, 1 + int(rand() * 24),
					rand() < 0.55;
	}" >random.csv &&
	test $(wc -l <random.csv) -gt 150
'

sim() {	# dir [option...]
	_dir=$1
	shift
	bf-sim --idle-trace random.csv --jobs "$D/mixed-jobs.csv" \
		--curves "$D/curves.csv" --curve-source HAND -o "$_dir" \
		--no-plot --max-jobs 4 "$@"
}

# steps.csv: 3 idle, 4 allocated, 5 running, 7 done, 9.. the slots
check_steps() {
	awk -F, 'NR > 1 {
		s = 0; for (i = 9; i <= NF; i++) { if ($i < 0) bad = "slot"; s += $i }
		if ($4 > $3) bad = "allocated > idle";
		if (s != $4) bad = "slots do not add up";
		if ($7 < prev) bad = "done went back";
		if ($5 > 4) bad = "more than --max-jobs";
		prev = $7
		if (bad != "") { print FILENAME ":" NR ": " bad; exit 1 }
	}' "$1/steps.csv" &&
	awk -F, 'NR > 1 {
		if ($6 > $5 || $6 < 0 || $6 > $7) { print "job " $1 ": done"; exit 1 }
		d = $7 - $6 - $8; if (d > 1 || d < -1) { print "job " $1 ": loss"; exit 1 }
	}' "$1/jobs.csv" &&
	awk -F": " "/^samples_ideal/ { i = \$2 } /^samples_done/ { d = \$2 }
		/^rescale_loss_samples/ { l = \$2 } /^utilisation/ { u = \$2 }
		END { x = i - d - l; exit !(x <= 2 && x >= -2 && u <= 1) }" \
		"$1/summary.yaml"
}

for p in milp dp equal-share greedy; do
	test_expect_success "$p keeps the rules" "
		sim $p --policy $p --to 600 &&
		check_steps $p &&
		test \$(wc -l <$p/jobs.csv) -gt 4
	"
done

# per-node is slow: a shorter replay.  It may break ties otherwise than
# the compact model (growing 5 -> 6 on lin at cost 2 x 50 gains exactly
# 10 x 10), so only its rules are checked.
test_expect_success 'per-node keeps the rules' '
	sim pn --policy per-node --to 200 -t 20 &&
	check_steps pn &&
	grep -x "policy: per-node" pn/summary.yaml
'

for p in milp equal-share; do
	test_expect_success "$p: the same inputs give the same results" "
		sim again-$p --policy $p --to 600 &&
		sed '/^decision_seconds:/d; /^  /d' $p/summary.yaml >a &&
		sed '/^decision_seconds:/d; /^  /d' again-$p/summary.yaml >b &&
		test_cmp a b &&
		cut -d, -f1-7,9- $p/steps.csv >a &&
		cut -d, -f1-7,9- again-$p/steps.csv >b &&
		test_cmp a b &&
		test_cmp $p/jobs.csv again-$p/jobs.csv
	"
done

# --profile online: the jobs start unknown and learn their curves from
# their own (noisy, seeded) progress reports; the replay stays within the
# rules, repeats exactly, and the jobs do their work.
test_expect_success 'online profiling keeps the rules and repeats exactly' '
	sim on1 --profile online --to 600 &&
	check_steps on1 &&
	grep -x "profile: online" on1/summary.yaml &&
	sim on2 --profile online --to 600 &&
	sed "/^decision_seconds:/d; /^  /d" on1/summary.yaml >a &&
	sed "/^decision_seconds:/d; /^  /d" on2/summary.yaml >b &&
	test_cmp a b &&
	test_cmp on1/jobs.csv on2/jobs.csv &&
	awk -F": " "/^samples_done/ { exit !(\$2 > 0) }" on1/summary.yaml
'

# Not a law (both decide for the next T_fwd seconds only), but on this
# fixed trace knowing the curves pays: 63364 samples against 61350.
test_expect_success 'online does no better than the oracle' '
	awk -F": " "/^samples_done/ { print \$2 }" milp/summary.yaml >oracle &&
	awk -F": " "/^samples_done/ { print \$2 }" on1/summary.yaml >online &&
	test "$(cat online)" -le "$(cat oracle)"
'

test_expect_success '--nodes keeps to the first nodes of the trace' '
	sim n8 --nodes 8 --to 600 &&
	check_steps n8 &&
	grep -x "nodes: 8" n8/summary.yaml &&
	awk -F, "NR > 1 && \$3 > 8 { exit 1 }" n8/steps.csv
'

test_expect_success '--from starts from the idle set at that time' '
	sim late --from 300 --to 600 &&
	check_steps late &&
	grep -x "from: 300" late/summary.yaml &&
	awk "BEGIN { FS = \",\" } NR > 1 && \$1 <= 300 { s[\$2] = \$3 }
		END { for (n in s) c += s[n]; print c }" random.csv >want &&
	sed -n 2p late/steps.csv | cut -d, -f3 >have &&
	test_cmp want have
'

test_done
