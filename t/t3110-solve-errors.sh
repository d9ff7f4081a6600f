#!/bin/sh
# bf-solve refuses bad input with file:line and the documented exit code,
# and prints no plan when it fails.
. "$(dirname "$0")/lib.sh"

D="$T_DIR/data/solve"
H="$D/tiny-holes.yaml"
AB="$D/tiny-a.yaml $D/tiny-b.yaml"

fails() {	# code expected-message bf-solve-args...
	_code=$1 _msg=$2
	shift 2
	test_expect_code "$_code" bf-solve "$@" >out 2>err &&
	test_must_be_empty out &&
	echo "bf-solve: $_msg" >expect && test_cmp expect err
}

test_expect_success 'a missing holes file: 66' '
	fails 66 "unable to open nope.yaml: No such file or directory" nope.yaml
'

test_expect_success 'a missing job file: 66' '
	fails 66 "unable to open nope.yaml: No such file or directory" "$H" nope.yaml
'

test_expect_success 'a missing state file: 66' '
	fails 66 "unable to open nope.yaml: No such file or directory" -s nope.yaml "$H"
'

test_expect_success 'malformed YAML: 65 with the line' '
	printf "time: 1\nidle: [\n" >bad.yaml &&
	fails 65 "bad.yaml:3: YAML syntax error: did not find expected node content" bad.yaml
'

test_expect_success 'a bad job file: 65 with the line' '
	printf "name: x\ncommand: y\nmax_nodes: 0\n" >x.yaml &&
	fails 65 "x.yaml:3: max_nodes must be a whole number from 1 to 1000000, not '"'0'"'" "$H" x.yaml
'

test_expect_success 'a state naming a node twice: 65' '
	printf "time: 90\njobs:\n  a: {nodes: 1, hosts: n1}\n  b: {nodes: 2, hosts: \"n[1-2]\"}\n" >st.yaml &&
	fails 65 "st.yaml:4: node n1 is held by both a (line 3) and b" -s st.yaml "$H" $AB
'

test_expect_success 'a job holding more than its max_nodes: 65' '
	printf "time: 90\njobs:\n  b: {nodes: 4, hosts: \"n[1-4]\"}\n" >st.yaml &&
	fails 65 "st.yaml:3: job b holds 4 nodes, above its max_nodes 3" -s st.yaml "$H" $AB
'

test_expect_success 'an unknown job in the state: 65' '
	printf "time: 90\njobs:\n  c: {nodes: 1, hosts: n1}\n" >st.yaml &&
	fails 65 "st.yaml:3: job c in the state has no job file" -s st.yaml "$H" $AB
'

test_expect_success 'a node count that differs from the hosts: 65' '
	printf "time: 90\njobs:\n  a: {nodes: 2, hosts: n1}\n" >st.yaml &&
	fails 65 "st.yaml:3: nodes is 2 but hosts names 1 distinct nodes" -s st.yaml "$H" $AB
'

test_expect_success 'two job files with one name: 65' '
	cp "$D/tiny-a.yaml" a1.yaml && cp "$D/tiny-a.yaml" a2.yaml &&
	fails 65 "a2.yaml:1: job name '"'a'"' is also given by a1.yaml" "$H" a1.yaml a2.yaml
'

test_expect_success 'a policy with an unknown key: 65' '
	printf "users:\n  4242: {max_node: 1}\n" >pol.yaml &&
	fails 65 "pol.yaml:2: unknown key '"'max_node'"'" --policy pol.yaml "$H"
'

# A group floor the other rules do not let be met used to be refused (65:
# "the policy's constraints cannot all be met"), and bf-watch then made
# the give-back plan at every decision.  It is lowered now (bf-solve(1),
# The policy file): here to the 1 node user 4242's cap allows.
test_expect_success 'a group floor the caps do not allow is lowered, not refused' '
	printf "users:\n  4242: {max_nodes: 1}\ngroups:\n  g: {jobs: [a], min_nodes: 2}\n" >pol.yaml &&
	bf-solve --mps m.mps --policy pol.yaml "$H" "$D/tiny-a.yaml" >plan &&
	grep -q "^solver: {name: cbc, model: compact, status: optimal, objective: 100, " plan &&
	grep -q "^  a: {nodes: 1, was: 0, hosts: \"n4\"}$" plan &&
	echo "* group_0: floor 2 lowered to 1, the most its jobs can hold under the caps, the rescale limit, the free nodes and the groups before it" >expect &&
	grep "^\* group_0:" m.mps >actual &&
	test_cmp expect actual &&
	grep -q "^ rhs group_0 1$" m.mps
'

# A cap lowered below what its user holds, with no rescale allowed: the
# shrink the cap forces is not counted (it used to make the model
# infeasible, 65).
test_expect_success 'an owner over a lowered cap shrinks, whatever max_rescales says' '
	printf "time: 100\njobs:\n  a: {nodes: 2, hosts: \"n[1-2]\"}\n" >st.yaml &&
	printf "users:\n  4242: {max_nodes: 1}\nmax_rescales: 0\n" >pol.yaml &&
	bf-solve --policy pol.yaml -s st.yaml "$H" "$D/tiny-a.yaml" >plan &&
	grep -q "^  a: {nodes: 1, was: 2, hosts: \"n2\"}$" plan &&
	printf "groups:\n  g: {jobs: [a], min_nodes: 1}\nmax_rescales: 0\n" >pol.yaml &&
	bf-solve --policy pol.yaml "$H" "$D/tiny-a.yaml" >plan &&
	grep -q "^  a: {nodes: 0, was: 0, note: \"waits: the policy'"'"'s rescale limit: at most 0 jobs change count at a decision, 0 do\"}$" plan &&
	printf "users:\n  4242: {max_nodes: 2}\nmax_rescales: 0\n" >pol.yaml &&
	bf-solve --policy pol.yaml -s st.yaml "$H" "$D/tiny-a.yaml" >plan &&
	grep -q "^  a: {nodes: 2, was: 2, hosts: \"n\[1-2\]\"}$" plan
'

# Issue #17: a job within every documented range (weight 1e6, 1e9
# samples/s) beside a normal one made CBC call the model infeasible:
# exit 70, no plan, and bf-watch decided nothing more.  The objective is
# scaled now (the model says by how much), and the plan is the optimum.
test_expect_success 'a job at the top of the ranges beside a normal one: a plan, the optimum' '
	printf "name: big\ncommand: x\nmax_nodes: 2\nweight: 1000000\nscaling:\n  1: 1e9\n" >big.yaml &&
	printf "name: norm\ncommand: x\nmax_nodes: 4\nscaling:\n  1: 100\n  2: 190\n  4: 350\n" >norm.yaml &&
	printf "time: 1000\nsource: test\nidle:\n  - nodes: n[01-04]\n" >h4.yaml &&
	bf-solve --mps big.mps h4.yaml big.yaml norm.yaml >cbc.plan 2>err &&
	test_must_be_empty err &&
	bf-solve --solver dp h4.yaml big.yaml norm.yaml >dp.plan &&
	grep "^  " cbc.plan >actual && grep "^  " dp.plan >expect &&
	test_cmp expect actual &&
	grep -q "status: optimal," cbc.plan &&
	grep -q "objective: 2.00000000000019e+16," cbc.plan &&
	grep -q "^\* objective divided by 2^25, so that no coefficient exceeds 2^30" big.mps &&
	grep -q " y_0_2 obj -596046447.75390625$" big.mps
'

test_expect_success 'bad option values and combinations: 64' '
	fails 64 "-T must be a number from 0 to 1e+06, not '"'x'"'" -T x "$H" &&
	fails 64 "-t must be a number from 0.001 to 1e+06, not '"'0'"'" -t 0 "$H" &&
	fails 64 "--solver must be cbc or dp, not '"'foo'"'" --solver foo "$H" &&
	fails 64 "--model must be compact or per-node, not '"'big'"'" --model big "$H" &&
	fails 64 "--solver dp solves the compact model only" --solver dp --model per-node "$H" &&
	long=$(printf "%0512d" 0) &&
	fails 64 "--mps: a path of at most 511 bytes, as the plan records it" --mps "$long" "$H" &&
	! test -e "$long" &&
	fails 64 "the dynamic program solves the compact model without a policy'"'"'s caps, shares or rescale limit" \
		--solver dp --policy "$D/tiny-cap1.yaml" "$H" &&
	fails 64 "the per-node model does not take a policy'"'"'s caps, shares or rescale limit" \
		--model per-node --policy "$D/tiny-cap1.yaml" "$H" &&
	test_expect_code 64 bf-solve -d sp "$H" 2>err && grep "^usage: " err &&
	test_expect_code 64 bf-solve -x 2>err && grep "^usage: " err
'

test_expect_success 'an MPS file that cannot be written: no plan, no model' '
	test_expect_code 74 bf-solve --mps nodir/m.mps "$H" $AB >out 2>err &&
	test_must_be_empty out && test ! -e nodir
'

test_expect_success 'a missing spool: 66' '
	fails 66 "no spool at nosuch (from -d)" -d nosuch
'

test_done
