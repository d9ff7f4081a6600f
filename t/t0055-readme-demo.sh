#!/bin/sh
# README's demo table is what `make demo` prints: the rows of
# `bf-sim --compare` but the decision times (this machine's), in README's
# order, character for character.  A change to the decision or the replay
# that moves a figure fails here until README is regenerated from the
# output (scripts/demo).
. "$(dirname "$0")/lib.sh"

test_expect_success 'make demo runs (scripts/demo, after the build)' '
	"$BF_ROOT/scripts/demo" >demo.out 2>demo.err &&
	grep -q "^| measure | milp | equal-share |$" demo.out
'

test_expect_success "README's table is the demo's, row for row" '
	sed -n "/^| measure | milp | equal-share |$/,/^$/p" demo.out |
	    grep "^|" | grep -v "decision_seconds" >printed &&
	sed -n "/^| measure | milp | equal-share |$/,/^$/p" "$BF_ROOT/README.md" |
	    grep "^|" >readme &&
	test $(wc -l <printed) -ge 10 &&
	test_cmp printed readme
'

test_done
