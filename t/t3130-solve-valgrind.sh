#!/bin/sh
# bf-solve under valgrind: no invalid access and no leak, CBC included,
# through each model and solver, columns fixed (with and without a policy),
# the spool mode and an error path.
. "$(dirname "$0")/lib.sh"

if ! test_valgrind_usable; then
	test_skip 'valgrind runs' "$test_valgrind_why"
	test_done
fi

D="$T_DIR/data/solve"
JOBS=
for j in alexnet densenet mnasnet1 mobilenet resnet18 shufflenet vgg16; do
	JOBS="$JOBS $D/$j.yaml"
done

for how in "" "--solver dp" "--model per-node" "--model per-node-tight"; do
	test_expect_success "32 nodes, 7 jobs ${how:-(CBC, compact model)} is clean" "
		vg bf-solve $how -s '$D/state32.yaml' '$D/holes32.yaml' $JOBS >plan &&
		grep -q '^solver: {name: [a-z]*, model: [a-z-]*, status: optimal, objective: ' plan
	"
done

# valgrind runs CBC tens of times slower: -t 3600, so that the search is
# never stopped by bf-solve's time limit (10 s) on a slow machine, which
# would say "status: stopped", not a fault of memory.
test_expect_success '150 jobs x 1,500 nodes, columns fixed, with and without a policy, is clean' '
	instance 150 1500 &&
	vg bf-solve -t 3600 --mps nopol.mps -s state.yaml holes.yaml jobs/*.yaml >plan &&
	grep -q "status: optimal" plan && grep -q "columns fixed at 0" nopol.mps &&
	vg bf-solve -t 3600 --policy policy.yaml --mps pol.mps -s state.yaml holes.yaml \
		jobs/*.yaml >plan &&
	grep -q "status: optimal" plan && grep -q "columns fixed at 0" pol.mps
'

test_expect_success 'the spool mode (plan and MPS written) is clean' '
	mkspool sp && job sp a 2 "exec $J" && job sp b 3 "exec $J" &&
	bf-submit --intake -d sp 2>/dev/null && holes sp 1000 "n[01-04]" &&
	vg bf-solve -d sp >out && test -s sp/plans/current.yaml &&
	ls sp/plans/*.mps >/dev/null
'

# On an error bf-solve exits where it stands: what it still holds is
# reachable, not lost; lost memory or a bad access still fails.
vg_lost() {
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=99 "$@"
}

test_expect_success 'an error path (a state job without a job file, 65): nothing lost' '
	test_expect_code 65 vg_lost bf-solve -s "$D/state32.yaml" "$D/holes32.yaml" \
		"$D/alexnet.yaml" 2>err &&
	grep "has no job file" err
'

test_done
