#!/bin/sh
# bf-sim's runs under valgrind: no invalid access, no leak, with every
# policy, online profiling, the horizons, the CSV readers' error path and
# --compare.
. "$(dirname "$0")/lib.sh"

D="$T_DIR/data/sim"


if ! test_valgrind_usable; then
	test_skip 'bf-sim under valgrind' "$test_valgrind_why"
	test_done
fi

for p in milp dp per-node equal-share greedy; do
	test_expect_success "$p replays cleanly" "
		vg bf-sim --idle-trace '$D/share.csv' --jobs '$D/mixed-jobs.csv' \
			--curves '$D/curves.csv' --curve-source HAND --to 400 \
			--max-jobs 3 --policy $p -o $p --no-plot &&
		test -s $p/summary.yaml
	"
done

# An admin's policy with every part, max_rate_per_node lowering copies
# of the curves the jobs share (the truth keeps its own), on the
# online beliefs and the median prior too.
test_expect_success '--admin-policy replays cleanly, oracle and online' '
	awk -F, -v OFS=, "NR == 1 { print \$0, \"owner\"; next }
		{ print \$0, 1000 + NR % 2 }" "$D/mixed-jobs.csv" >owned.csv &&
	printf "%s\n" "users:" "  1000: {max_nodes: 5, weight: 2}" \
		"  1001: {weight: 0.5}" "jobs:" "  m3: {weight: 3}" "groups:" \
		"  g: {jobs: [m2, m5], min_nodes: 6}" "max_rescales: 2" \
		"max_rate_per_node: 9" >pol.yaml &&
	vg bf-sim --idle-trace "$D/share.csv" --jobs owned.csv \
		--curves "$D/curves.csv" --curve-source HAND --to 400 \
		--max-jobs 3 --admin-policy pol.yaml -o adm --no-plot &&
	grep -q "^admin_policy: " adm/summary.yaml &&
	vg bf-sim --idle-trace "$D/share.csv" --jobs owned.csv \
		--curves "$D/curves.csv" --curve-source HAND --to 400 \
		--max-jobs 3 --admin-policy pol.yaml --profile online \
		--passive -o admon --no-plot &&
	grep -q "^admin_policy: " admon/summary.yaml
'

test_expect_success 'online profiling replays cleanly' '
	vg bf-sim --idle-trace "$D/share.csv" --jobs "$D/mixed-jobs.csv" \
		--curves "$D/curves.csv" --curve-source HAND --to 400 \
		--max-jobs 3 --profile online -o online --no-plot &&
	grep -x "profile: online" online/summary.yaml
'

test_expect_success 'online without probes, and no information, replay cleanly' '
	vg bf-sim --idle-trace "$D/share.csv" --jobs "$D/mixed-jobs.csv" \
		--curves "$D/curves.csv" --curve-source HAND --to 400 \
		--max-jobs 3 --profile online --no-probe --noise 0.05 \
		--report-interval 5 -o np --no-plot &&
	grep -x "profile: online-no-probe" np/summary.yaml &&
	{ echo name,model,submit_s,min_nodes,max_nodes,samples,rescale_up_s,rescale_down_s,declared;
	  echo a,lin,0,1,4,1000000,0,0,; echo w,slow,0,1,2,1000000,0,0,lin; } >aw.csv &&
	vg bf-sim --idle-trace "$D/eight.csv" --jobs aw.csv \
		--curves "$D/probe-curves.csv" --to 300 --profile none \
		-o none --no-plot &&
	vg bf-sim --idle-trace "$D/eight.csv" --jobs aw.csv \
		--curves "$D/probe-curves.csv" --to 300 --profile online \
		-o probes --no-plot &&
	test -s probes/fits.csv
'

test_expect_success '--voi replays cleanly: priors, probes, their end' '
	printf "t_s,node,idle\n0,n1,1\n0,n2,1\n0,n3,1\n0,n4,1\n60,n5,1\n120,n6,1\n" >six.csv &&
	{ echo name,model,submit_s,min_nodes,max_nodes,samples,rescale_up_s,rescale_down_s,declared;
	  echo p,lin,0,1,4,1000000,0,0,flat; echo q,slow,0,1,4,1000000,0,0,slow;
	  echo a,lin,0,1,1,500,0,0,; echo c,slow,30,1,2,900,0,0,;
	  echo d,lin,90,1,4,1000000,0,0,; } >voi.csv &&
	vg bf-sim --idle-trace six.csv --jobs voi.csv --max-jobs 3 \
		--curves "$D/probe-curves.csv" --to 400 --profile online \
		--voi -o voi --no-plot &&
	grep -x "profile: online-voi" voi/summary.yaml &&
	test -s voi/fits.csv
'

test_expect_success 'learnt and clairvoyant horizons, grows on the longest, replay cleanly' '
	vg bf-sim --idle-trace "$D/learn.csv" --jobs "$D/late-jobs.csv" \
		--curves "$D/curves.csv" --curve-source HAND --to 300 \
		--horizon learnt --place longest -o learnt --no-plot &&
	grep -x "horizon_holes: 20" learnt/summary.yaml &&
	vg bf-sim --swf "$D/tiny.swf" --from 0 --to 200 \
		--jobs "$D/tiny-jobs.csv" --curves "$D/curves.csv" \
		--curve-source HAND --horizon clairvoyant --place longest \
		-o clair --no-plot &&
	grep -x "horizon: clairvoyant" clair/summary.yaml
'

test_expect_success '--compare is clean' '
	vg bf-sim --compare milp equal-share >table &&
	grep -q "^| policy | milp | equal-share |$" table
'

test_expect_success 'a malformed jobs line is reported cleanly' '
	printf "name,model,submit_s,min_nodes,max_nodes,samples,rescale_up_s,rescale_down_s\na,lin,0,1,4\n" >bad.csv &&
	vg bf-sim --idle-trace "$D/tiny.csv" --jobs bad.csv \
		--curves "$D/curves.csv" -o out 2>err;
	test $? -eq 65 &&
	grep -q "bad.csv:2: no field samples" err
'

test_done
