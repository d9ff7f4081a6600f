#!/bin/sh
# bf-report refuses: bad usage (64), a bad history file (65), a missing one
# (66), each with one line "bf-report: FILE:LINE: what" and nothing on the
# standard output.
. "$(dirname "$0")/lib.sh"

# The command fails with CODE, prints nothing, and says exactly MESSAGE.
fails() {	# code message command...
	_code=$1 _msg=$2
	shift 2
	test_expect_code "$_code" "$@" >out 2>err &&
	test_must_be_empty out &&
	printf "%s\n" "$_msg" >want &&
	test_cmp want err
}

# Usage to the standard error, and 64.
misused() {	# command...
	test_expect_code 64 "$@" >out 2>err &&
	test_must_be_empty out &&
	grep -q "^usage: bf-report " err
}

test_expect_success 'setup: a good history of one plan, copied for each case' '
	hist_init g && hist_job g a 7 1 "1:1" &&
	hist_enact g 1000 "n1" "" "a=n1" &&
	stem=$hist_last && echo "$stem" >stem &&
	holes=$(sed -n "s/^holes: \"xxh3:\(.*\)\"$/\1/p" g/$stem.inputs.yaml) &&
	echo "$holes" >holes.hex &&
	bf-report --history g >/dev/null
'

stem=$(cat stem 2>/dev/null)
holes=$(cat holes.hex 2>/dev/null)

test_expect_success 'usage: unknown option, stray argument, -d with --history' '
	misused bf-report --bogus &&
	misused bf-report --history g extra &&
	misused bf-report -d sp --history g &&
	misused bf-report --now --csv &&
	misused bf-report --now --history g &&
	misused bf-report --now --since 1000
'

test_expect_success 'usage: a bad time, a window that ends before it starts' '
	fails 64 "bf-report: --since: '"'"'yesterday'"'"' is not unix seconds, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ" \
		bf-report --history g --since yesterday &&
	fails 64 "bf-report: --until: '"'"'2026-13-01'"'"' is not unix seconds, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ" \
		bf-report --history g --until 2026-13-01 &&
	fails 64 "bf-report: --until is not after --since" \
		bf-report --history g --since 2026-11-21 --until 2026-11-21 &&
	fails 64 "bf-report: --svg: no file name" bf-report --history g --svg ""
'

test_expect_success 'missing: the history, the spool (66)' '
	fails 66 "bf-report: unable to open nope: No such file or directory" \
		bf-report --history nope/ &&
	fails 66 "bf-report: no spool at nospool (from -d)" \
		bf-report -d nospool
'

test_expect_success 'missing: a plan without its manifest (66)' '
	cp -R g m1 && rm m1/$stem.inputs.yaml &&
	fails 66 "bf-report: unable to open m1/$stem.inputs.yaml: No such file or directory" \
		bf-report --history m1
'

test_expect_success 'missing: an object the manifest names, or all of objects/ (66)' '
	cp -R g m2 && rm m2/objects/$holes &&
	fails 66 "bf-report: m2/$stem.inputs.yaml:3: holes: unable to open m2/objects/$holes: No such file or directory" \
		bf-report --history m2 &&
	cp -R g m3 && rm -r m3/objects &&
	fails 66 "bf-report: m3/$stem.inputs.yaml:3: holes: unable to open m3/objects/$holes: No such file or directory" \
		bf-report --history m3
'

test_expect_success 'bad: a plan that is not YAML, or not a plan (65)' '
	cp -R g b1 && printf "time: [\n" >b1/$stem.yaml &&
	test_expect_code 65 bf-report --history b1 >out 2>err &&
	test_must_be_empty out && test $(wc -l <err) -eq 1 &&
	grep "^bf-report: b1/$stem.yaml:[0-9]*: " err &&
	cp -R g b2 && printf "time: 1000\n" >b2/$stem.yaml &&
	fails 65 "bf-report: b2/$stem.yaml:1: a plan needs time, inputs and solver" \
		bf-report --history b2
'

test_expect_success 'bad: a manifest without holes, a bad time or digest (65)' '
	cp -R g b3 && sed -i "/^holes:/d" b3/$stem.inputs.yaml &&
	fails 65 "bf-report: b3/$stem.inputs.yaml:1: a manifest needs the holes it was made from" \
		bf-report --history b3 &&
	cp -R g b4 && sed -i "s/^enacted: .*/enacted: soon/" b4/$stem.inputs.yaml &&
	fails 65 "bf-report: b4/$stem.inputs.yaml:2: enacted must be a number from 0 to 1e+12, not '"'"'soon'"'"'" \
		bf-report --history b4 &&
	cp -R g b5 && sed -i "s/^holes: .*/holes: \"xyz\"/" b5/$stem.inputs.yaml &&
	fails 65 "bf-report: b5/$stem.inputs.yaml:3: holes: bad digest '"'"'xyz'"'"'" \
		bf-report --history b5 &&
	cp -R g b6 && sed -i "s/^jobs:$/jobs: [a]/; /^  a:/d" b6/$stem.inputs.yaml &&
	fails 65 "bf-report: b6/$stem.inputs.yaml:5: jobs must be a mapping of job names to digests" \
		bf-report --history b6
'

test_expect_success 'bad: an object that does not match its name, a bad holes file (65)' '
	cp -R g b7 && echo "# x" >>b7/objects/$holes &&
	fails 65 "bf-report: b7/objects/$holes: content does not match its name" \
		bf-report --history b7 &&
	cp -R g b8 &&
	printf "time: 1000\nsource: test\nidle:\n  - nodes: \"n[3-1]\"\n" >bad.holes &&
	h=$(digest bad.holes) && cp bad.holes b8/objects/${h#xxh3:} &&
	sed -i "s/^holes: .*/holes: \"$h\"/" b8/$stem.inputs.yaml &&
	test_expect_code 65 bf-report --history b8 >out 2>err &&
	test $(wc -l <err) -eq 1 &&
	grep "^bf-report: b8/objects/${h#xxh3:}:4: .*range 3-1 runs backwards" err
'

test_expect_success 'bad: a run record without its keys, or with a bad name (65)' '
	cp -R g b9 && printf "name: a\noutcome: finished\n" >b9/runs/1001-a-1.yaml &&
	fails 65 "bf-report: b9/runs/1001-a-1.yaml:1: a run record needs name, outcome and ended" \
		bf-report --history b9 &&
	cp -R g b10 &&
	printf "name: ../a\noutcome: finished\nended: 1001\n" >b10/runs/1001-a-1.yaml &&
	fails 65 "bf-report: b10/runs/1001-a-1.yaml:1: '"'"'../a'"'"' is not a job name" \
		bf-report --history b10 &&
	cp -R g b11 &&
	printf "name: a\noutcome: finished\nended: later\n" >b11/runs/1001-a-1.yaml &&
	fails 65 "bf-report: b11/runs/1001-a-1.yaml:3: ended must be a whole number from 0 to 1099511627776, not '"'"'later'"'"'" \
		bf-report --history b11
'

test_expect_success 'bad: links are not followed (65)' '
	cp -R g l1 && mv l1/$stem.yaml l1/plan && ln -s plan l1/$stem.yaml &&
	fails 65 "bf-report: l1/$stem.yaml: is a symbolic link, not followed" \
		bf-report --history l1 &&
	cp -R g l2 && mv l2/objects l2/objs && ln -s objs l2/objects &&
	fails 65 "bf-report: l2/objects: not a directory (a symbolic link is not followed)" \
		bf-report --history l2
'

test_expect_success 'a bad line in a log is warned about and skipped, not fatal' '
	cp -R g w1 && printf "1000 1 10\nnonsense\n1010 1 20\n" >bad.log &&
	hist_run w1 1010 a finished bad.log &&
	bf-report --history w1 --csv >out 2>err &&
	test $(wc -l <err) -eq 1 &&
	grep "^bf-report: w1/runs/1010-a-42/progress.log:2: " err &&
	grep "^total,.*,20,10,2.000000," out
'

test_expect_success 'an unreadable history: 66, for lack of permission' '
	if test_have_root; then
		echo "root reads everything: checked as nobody" &&
		cp -R g p1 && chmod 0700 p1 &&
		if command -v setpriv >/dev/null; then
			test_expect_code 66 setpriv --reuid=65534 --regid=65534 \
				--clear-groups "$BF_ROOT/bin/bf-report" --history p1 \
				>out 2>err &&
			grep "^bf-report: unable to open p1: Permission denied$" err
		fi
	else
		cp -R g p1 && chmod 0 p1/objects/$holes &&
		test_expect_code 66 bf-report --history p1 >out 2>err &&
		grep "Permission denied$" err
	fi
'

test_done
