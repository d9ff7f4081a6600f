#!/bin/sh
# The programs' normal runs under valgrind: no invalid access, no leak.
. "$(dirname "$0")/lib.sh"

if ! test_valgrind_usable; then
	test_skip 'bf-submit under valgrind' "$test_valgrind_why"
	test_done
fi


test_expect_success 'bf-submit enters jobs cleanly' '
	vg bf-submit -d sp "$BF_ROOT"/examples/jobs/*.yaml >/dev/null
'

test_expect_success 'bf-submit --intake accepts and rejects cleanly' '
	cp "$BF_ROOT"/examples/bad/*.yaml sp/incoming/ &&
	vg bf-submit --intake -d sp 2>/dev/null &&
	test $(ls sp/jobs | wc -l) -eq 7
'

test_expect_success 'bf-submit refusing a file is clean too' '
	test_expect_code 65 vg bf-submit -n "$BF_ROOT"/examples/bad/range.yaml 2>/dev/null
'

test_done
