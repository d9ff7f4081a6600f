#!/bin/sh
# Numbers a user writes do not win nodes from other users (issue #33, items
# 10 and 11): a progress log claiming 10^12 samples/s for a job that
# declares 10/s is clamped by bf-profile to 16 x the declared rate per
# node, and the node goes to another user's honest 200/s job (it went to
# the claim before); a job that declares no rate is bounded by the policy's
# max_rate_per_node; a job file's weight of 10^6 counts only among its
# owner's jobs, so two users' equal jobs share the nodes equally (all four
# went to the weight before); a job file declares at most 256 scaling
# points (10,000 before: 300 such files made a decision take 32-40 s).
. "$(dirname "$0")/lib.sh"

test_need_root_setpriv 'jobs of two users in a root spool'
test_public_trash

A=4331 B=4332
submit() {	# uid file
	chmod 644 "$2" && as "$1" bf-submit -d sp "$2" 2>/dev/null
}
# A progress log of six reports claiming RATE samples/s on one node,
# ending 10 s ago, owned by the job's user as bf-apply makes it.
claim() {	# uid job rate
	now=$(date +%s) &&
	for i in 0 1 2 3 4 5; do
		echo "$((now - 15 + i)) 1 $(($3 * i))"
	done >sp/progress/$2.log &&
	chown "$1" sp/progress/$2.log && chmod 600 sp/progress/$2.log
}
curve="scaling: {1: 100, 2: 150, 3: 180, 4: 200}"
given() {	# job: its nodes in plans/current.yaml
	sed -n "s/^  $1: {nodes: \([0-9]*\),.*/\1/p" sp/plans/current.yaml
}

test_expect_success 'setup: a root spool, one node; A declares 10/s, B 200/s' '
	mkspool sp && chmod 755 . && holes sp 1000 n1 &&
	printf "name: cheat\ncommand: x\nmax_nodes: 1\nscaling: {1: 10}\n" >cheat.yaml &&
	printf "name: honest\ncommand: x\nmax_nodes: 1\nscaling: {1: 200}\n" >honest.yaml &&
	submit $A cheat.yaml && submit $B honest.yaml &&
	bf-submit --intake -d sp 2>/dev/null &&
	bf-solve -d sp >/dev/null && test "$(given honest)" = 1
'

test_expect_success 'six lines claiming 10^12/s: clamped to 160, said once; the node stays with 200/s' '
	claim $A cheat 1000000000000 &&
	bf-profile -d sp 2>err; cat err &&
	grep -x "bf-profile: progress/cheat.log: 1e+12 samples/s at 1 node is above 16 x the 10 per node its job file declares: clamped to 160" err &&
	test $(grep -c clamped err) = 1 &&
	grep -A1 "^points:" sp/profiles/cheat.yaml >rates && cat rates &&
	grep -x "  1: 160" rates &&
	bf-solve -d sp >/dev/null &&
	test "$(given honest)" = 1 && test "$(given cheat)" = 0
'

# Without a declared rate nothing bounds a claim but the site: the
# policy's max_rate_per_node caps every job's curve, so the claim is worth
# no more than any job could be (the objective: T_fwd x 200, not 10^13).
test_expect_success 'a job that declares no rate: the policy'"'"'s max_rate_per_node bounds it' '
	printf "name: quiet\ncommand: x\nmax_nodes: 1\n" >quiet.yaml &&
	submit $A quiet.yaml && bf-submit --intake -d sp 2>/dev/null &&
	claim $A quiet 1000000000000 &&
	bf-profile -d sp 2>err && ! grep quiet err &&
	bf-solve -d sp >/dev/null &&
	test "$(given quiet)" = 1 &&
	grep -q "objective: 10000000000000," sp/plans/current.yaml &&
	printf "max_rate_per_node: 200\n" >sp/policy.yaml &&
	bf-solve -d sp >/dev/null &&
	grep -q "objective: 2000," sp/plans/current.yaml &&
	printf "max_rate_per_nod: 200\n" >sp/policy.yaml &&
	test_expect_code 65 bf-solve -d sp >/dev/null 2>err &&
	cat err && grep "policy.yaml:1" err && rm sp/policy.yaml
'

test_expect_success 'weight 10^6 on A'"'"'s job: B'"'"'s equal job still gets its half of four nodes' '
	rm -rf sp && mkspool sp && holes sp 2000 "n[1-4]" &&
	printf "name: wa\ncommand: x\nmax_nodes: 4\nweight: 1000000\n%s\n" "$curve" >wa.yaml &&
	printf "name: wb\ncommand: x\nmax_nodes: 4\n%s\n" "$curve" >wb.yaml &&
	submit $A wa.yaml && submit $B wb.yaml &&
	bf-submit --intake -d sp 2>/dev/null &&
	bf-solve -d sp >/dev/null && cat sp/plans/current.yaml &&
	test "$(given wa)" = 2 && test "$(given wb)" = 2
'

test_expect_success 'weights still order one user'"'"'s own jobs' '
	printf "name: wa2\ncommand: x\nmax_nodes: 4\n%s\n" "$curve" >wa2.yaml &&
	submit $A wa2.yaml && bf-submit --intake -d sp 2>/dev/null &&
	bf-solve -d sp >/dev/null && cat sp/plans/current.yaml &&
	test "$(given wb)" -ge 1 && test "$(given wa)" -gt "$(given wa2)"
'

test_expect_success 'a job file declares at most 256 scaling points' '
	{ printf "name: many\ncommand: x\nmax_nodes: 1000\nscaling:\n" &&
	  seq 1 256 | awk "{ print \"  \" \$1 \": \" 100 * \$1 }"; } >ok.yaml &&
	bf-submit -n ok.yaml &&
	{ cat ok.yaml && echo "  257: 25700"; } >many.yaml &&
	test_expect_code 65 bf-submit -n many.yaml 2>err; cat err &&
	grep -x "bf-submit: many.yaml:5: scaling has more than 256 points" err
'

test_done
