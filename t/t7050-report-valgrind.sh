#!/bin/sh
# bf-report and bf-sim --spool under valgrind: no invalid access, no leak,
# on the report's every path: text, CSV, a window, the plot, --now, and a
# refusal.
. "$(dirname "$0")/lib.sh"

D="$T_DIR/data/sim"

if ! test_valgrind_usable; then
	test_skip 'bf-report under valgrind' "$test_valgrind_why"
	test_done
fi

test_expect_success 'bf-sim --spool writes its spool cleanly' '
	vg bf-sim --idle-trace "$D/share.csv" --jobs "$D/mixed-jobs.csv" \
		--curves "$D/curves.csv" --curve-source HAND --to 400 \
		--max-jobs 3 -o out --no-plot --spool sp &&
	test -s sp/state.yaml
'

test_expect_success 'the report, as text, CSV, in a window, with its plot' '
	vg bf-report -d sp >text &&
	vg bf-report -d sp --csv --since 100 --until 300 >csv &&
	vg bf-report --history sp/history --svg days.svg >alone &&
	grep -q "^total " text && grep -q "^total," csv && test -s days.svg
'

test_expect_success '--now cleanly' '
	vg bf-report --now -d sp >now &&
	grep -q "^finish (estimate)" now
'

test_expect_success 'a refusal cleanly: a missing object' '
	hist_init h && hist_job h a 7 1 "1:1" &&
	hist_enact h 1000 "n1" "" "a=n1" &&
	echo "100 1 1" >one.log && hist_run h 1100 a finished one.log &&
	vg bf-report --history h >/dev/null &&
	rm h/objects/$(sed -n "s/^  a: \"xxh3:\(.*\)\"$/\1/p" h/*.inputs.yaml) &&
	vg bf-report --history h 2>err;
	test $? -eq 66 && grep -q "jobs: unable to open" err
'

test_done
