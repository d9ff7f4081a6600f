#!/bin/sh
# Hostile spools (issue #9): a symbolic link (to /etc/shadow, to a file of
# another user) or a FIFO in place of every spool file a program reads,
# and a link in place of every spool directory.  No program follows a
# link, opens a FIFO for reading or blocks on one, or shows what a link
# points to; each says so in one line naming the file by its place in the
# spool, with its documented exit status.  The other user's file is a
# canary with a secret whose access time shows whether anything read it.
. "$(dirname "$0")/lib.sh"

SWF=$T_DIR/data/holes/theta-2022-head300.swf
canary_setup

# A spool a job ran in (history/, run/, progress/, state.yaml), its jobs
# killed so that copies of it start nothing; and one ready to be applied.
test_expect_success 'setup: a spool that ran two jobs, one ready to run' '
	mkspool ran && holes ran 1000 "n[01-04]" &&
	job ran a 2 "exec $J" && job ran b 2 "exec $J" &&
	bf-submit --intake -d ran 2>/dev/null &&
	cp -a ran ready0 &&
	bf-solve -d ran && cp -a ran ready &&
	bf-apply -d ran --allow-root-jobs -g 1 >/dev/null &&
	wait_for 10 eval "test \$(grep -c . ran/progress/a.log) -ge 5 &&
	    test \$(grep -c . ran/progress/b.log) -ge 5" &&
	kill_jobs ran &&
	bf-profile -d ran 2>err && test_must_be_empty err &&
	test -f ran/profiles/a.yaml &&
	plan=$(cd ran/history && ls | grep "^[0-9]*-[0-9a-f]*\.yaml$") &&
	echo "${plan%.yaml}" >plan.stem &&
	sed -n "s/^holes: \"xxh3:\(.*\)\"$/\1/p" \
	    ran/history/${plan%.yaml}.inputs.yaml >holes.obj &&
	test -f ran/history/objects/$(cat holes.obj) &&
	test -f ran/run/a/hosts &&
	cp -a ran randash &&
	last=$(tail -n 1 randash/progress/a.log) &&
	echo "$((${last%% *} + 1)) - ${last##* }" >>randash/progress/a.log &&
	grep -c . randash/progress/a.log >dash.line &&
	test -f randash/history/allocs.idx &&
	cp -a randash randash_noidx && rm randash_noidx/history/allocs.idx
'
PLAN=$(cat plan.stem 2>/dev/null)
DASH_LINE=$(cat dash.line 2>/dev/null)
HOLES_OBJ=$(cat holes.obj 2>/dev/null)

fresh() {	# base
	rm -rf s && cp -a "$1" s
}

plant() {	# kind path
	rm -rf "s/$2" &&
	case $1 in
	link) ln -s "$CANARY_FILE" "s/$2" ;;
	shadow) ln -s /etc/shadow "s/$2" ;;
	fifo) mkfifo "s/$2" ;;
	esac
}

# What the programs say of each kind, "@" in an expected line.
said() {	# kind
	case $1 in
	link|shadow) echo "is a symbolic link, not followed" ;;
	fifo) echo "not a regular file" ;;
	esac
}

# One case: copy BASE to s, plant KIND at PATH, run CMD bounded; it exits
# CODE with stderr exactly EXPECT ("@" the kind's words; "-" for none),
# reads nothing through the link, leaks nothing, and leaves PATH as it was
# (AFTER "kept") or a regular file it wrote in its place ("replaced").
spool_case() {	# kind base path code expect after cmd...
	_k=$1 _base=$2 _p=$3 _code=$4 _exp=$5 _after=$6
	shift 6
	fresh "$_base" && plant "$_k" "$_p" && canary_arm &&
	test_expect_code "$_code" bounded "$@" >out 2>err || return 1
	if [ "$_exp" = - ]; then
		test_must_be_empty err || return 1
	else
		echo "$_exp" | sed "s/@/$(said "$_k")/" >expect &&
		test_cmp expect err || return 1
	fi
	canary_untouched out err s || return 1
	if [ "$_k" = shadow ] && _sl=$(shadow_line); then
		! grep -r -l -F "$_sl" out err s || return 1
	fi
	case $_k/$_after in
	link/kept) test "$(readlink "s/$_p")" = "$CANARY_FILE" ;;
	shadow/kept) test "$(readlink "s/$_p")" = /etc/shadow ;;
	fifo/kept) test -p "s/$_p" ;;
	*/replaced) test -f "s/$_p" && ! test -h "s/$_p" ;;
	esac
}

kinds="link shadow fifo"
shadow_line >/dev/null || kinds="link fifo"
if [ "$kinds" = "link fifo" ]; then
	test_skip 'links to /etc/shadow' '/etc/shadow is not readable here; the canary cases stand in'
fi

# case TITLE BASE PATH CODE EXPECT AFTER CMD...: one test per kind.
cases() {
	_t=$1
	shift
	for _kind in $kinds; do
		test_expect_success "$_t: $_kind" "spool_case $_kind $(
			for _a in "$@"; do
				printf "'%s' " "$(printf '%s' "$_a" |
				    sed "s/'/'\\\\''/g")"
			done)"
	done
}

# bf-solve -d: every input it reads from the spool.
for f in holes/current.yaml jobs/a.yaml profiles/a.yaml state.yaml policy.yaml; do
	cases "bf-solve reads $f" ran $f 65 "bf-solve: $f: @" kept bf-solve -d s
done

# bf-solve -d replaces its outputs by rename, so a link there is replaced,
# never written through.
cases "bf-solve writes plans/current.yaml" ran plans/current.yaml 0 - replaced \
	bf-solve -d s

# bf-profile -d: the job file and the log fail that job (65, the other job
# is still profiled); a plan in history/ is left out with a warning; a
# profile in the way is replaced.
cases "bf-profile reads progress/a.log" ran progress/a.log 65 \
	"bf-profile: progress/a.log: @" kept bf-profile -d s
cases "bf-profile reads jobs/a.yaml" ran jobs/a.yaml 65 \
	"bf-profile: jobs/a.yaml: @" kept bf-profile -d s
# History is read only for a log with NODES "-" (randash's a.log ends so).
cases "bf-profile reads history/PLAN.yaml" randash "history/$PLAN.yaml" 0 \
	"bf-profile: history/$PLAN.yaml: @ (left out of the allocation history)
bf-profile: progress/a.log:$DASH_LINE: NODES '-' at a time no enacted plan gave the job nodes, skipped" \
	kept bf-profile -d s
# The manifests are read for their enacted times only without the index
# (history/allocs.idx, which has them): here it is gone.
cases "bf-profile reads history/PLAN.inputs.yaml" randash_noidx \
	"history/$PLAN.inputs.yaml" 0 \
	"bf-profile: history/$PLAN.inputs.yaml: @ (the plan's own time used)" \
	kept bf-profile -d s
cases "bf-profile writes profiles/a.yaml" ran profiles/a.yaml 0 - replaced \
	bf-profile -d s
test_expect_success 'bf-profile: the other job is still profiled' '
	fresh ran && rm s/profiles/b.yaml && plant link progress/a.log &&
	test_expect_code 65 bounded bf-profile -d s 2>err &&
	test -f s/profiles/b.yaml
'

# bf-hosts: the hosts file and the job's run directory itself.
cases "bf-hosts reads run/a/hosts" ran run/a/hosts 65 \
	"bf-hosts: run/a/hosts: @" kept bf-hosts -d s a
test_expect_success 'bf-hosts: run/a a link to a directory with a hosts file' '
	fresh ran && mkdir -p elsewhere && echo "$CANARY_SECRET:1" >elsewhere/hosts &&
	rm -r s/run/a && ln -s "$PWD/elsewhere" s/run/a &&
	test_expect_code 65 bounded bf-hosts -d s a >out 2>err &&
	echo "bf-hosts: run/a: is a symbolic link, not followed" >expect &&
	test_cmp expect err && test_must_be_empty out
'
test_expect_success 'bf-hosts: run/a a FIFO' '
	fresh ran && rm -r s/run/a && mkfifo s/run/a &&
	test_expect_code 65 bounded bf-hosts -d s a >out 2>err &&
	echo "bf-hosts: run/a: not a directory" >expect &&
	test_cmp expect err
'

# bf-audit: the plan, its manifest, an object, the objects directory.
cases "bf-audit reads history/PLAN.yaml" ran "history/$PLAN.yaml" 65 \
	"bf-audit: history/$PLAN.yaml: @" kept bf-audit -d s "$PLAN"
cases "bf-audit reads history/PLAN.inputs.yaml" ran "history/$PLAN.inputs.yaml" 65 \
	"bf-audit: history/$PLAN.inputs.yaml: @" kept bf-audit -d s "$PLAN"
cases "bf-audit reads history/objects/HOLES" ran "history/objects/$HOLES_OBJ" 65 \
	"bf-audit: history/objects/$HOLES_OBJ: @" kept bf-audit -d s "$PLAN"
cases "bf-audit --log reads history/PLAN.yaml" ran "history/$PLAN.yaml" 65 \
	"bf-audit: history/$PLAN.yaml: @" kept bf-audit -d s --log
cases "bf-audit --log reads history/PLAN.inputs.yaml" ran \
	"history/$PLAN.inputs.yaml" 0 \
	"bf-audit: history/$PLAN.inputs.yaml: @ (the plan's own time used)" \
	kept bf-audit -d s --log
test_expect_success 'bf-audit: history/objects a link to a directory' '
	fresh ran && mv s/history/objects objects.elsewhere &&
	ln -s "$PWD/objects.elsewhere" s/history/objects &&
	test_expect_code 65 bounded bf-audit -d s "$PLAN" >out 2>err &&
	echo "bf-audit: history/objects: is a symbolic link, not followed" >expect &&
	test_cmp expect err && test_must_be_empty out &&
	test_expect_code 65 bounded bf-audit -d s --log >out 2>err &&
	test_cmp expect err
'
test_expect_success 'bf-audit: without history/objects, 66, and nothing made' '
	fresh ran && rm -r s/history/objects &&
	test_expect_code 66 bounded bf-audit -d s "$PLAN" 2>err &&
	echo "bf-audit: unable to open history/objects/$HOLES_OBJ: No such file or directory" >expect &&
	test_cmp expect err && test ! -e s/history/objects
'

# bf-holes -d: the holes file it compares with is never followed, and is
# replaced, with a warning.
cases "bf-holes -d replaces holes/current.yaml" ran holes/current.yaml 0 \
	"bf-holes: holes/current.yaml: @; replacing it" replaced \
	bf-holes -d s --swf "$SWF" --at 1641050000

# The intake: a taken job name stays taken when jobs/NAME.yaml is a link.
test_expect_success 'the intake: jobs/a.yaml a link, a new job a is refused' '
	fresh ran && plant link jobs/a.yaml && canary_arm &&
	printf "name: a\ncommand: x\nmax_nodes: 1\n" >s/incoming/again.yaml &&
	bounded bf-submit --intake -d s >out 2>err &&
	echo "incoming/again.yaml:1: job name '"'a'"' is taken by jobs/a.yaml" >expect &&
	test_cmp expect s/rejected/again.yaml.err &&
	canary_untouched out err s && test -h s/jobs/a.yaml
'

# One rule says which files of jobs/ are jobs (issue #17): NAME.yaml, NAME
# a job name.  A file "c c.yaml" was a job to bf-solve and not to bf-apply:
# every plan was stale (75) and bf-watch --once solved 20 times, enacted
# nothing and exited 0.  Now every program ignores it, and bf-solve and
# bf-profile say so.
test_expect_success 'jobs/"c c.yaml": not a job to any program, said, and the plan is enacted' '
	fresh ready0 && sed "s/^name: a$/name: c/" s/jobs/a.yaml >"s/jobs/c c.yaml" &&
	cp "s/jobs/c c.yaml" s/jobs/.hidden.yaml &&
	bounded bf-solve -d s >out 2>err &&
	echo "bf-solve: jobs/c c.yaml: not a job file (NAME.yaml, NAME a job name), ignored" >expect &&
	test_cmp expect err && ! grep "^  c:" s/plans/current.yaml &&
	bounded bf-apply -n -d s --allow-root-jobs >out 2>err &&
	test_must_be_empty err && grep "^start a " out && grep "^start b " out &&
	bounded bf-profile -d s 2>err &&
	echo "bf-profile: jobs/c c.yaml: not a job file (NAME.yaml, NAME a job name), ignored" >expect &&
	test_cmp expect err
'
# (A solve follows each new state: a few, not the 20 passes of the loop.)
test_expect_success 'bf-watch --once with jobs/"c c.yaml": enacts the plan, says why, no loop' '
	fresh ready0 && sed "s/^name: a$/name: c/" s/jobs/a.yaml >"s/jobs/c c.yaml" &&
	bounded bf-watch -d s --once --allow-root-jobs -g 1 >out 2>err; rc=$?;
	kill_jobs s; cat err; test $rc -eq 0 &&
	n=$(grep -c "^bf-watch: jobs/c c.yaml: not a job file (NAME.yaml, NAME a job name), ignored$" err) &&
	test "$n" -ge 1 && test "$n" -le 5 &&
	grep -q "decision: .* start a 0->" err && grep "^  a: " s/state.yaml &&
	test $(ls s/history/*.inputs.yaml | wc -l) -eq 1
'
test_expect_success 'jobs/x.yaml naming job y: bf-solve refuses it (65), naming both' '
	fresh ready0 && sed "s/^name: a$/name: y/" s/jobs/a.yaml >s/jobs/x.yaml &&
	test_expect_code 65 bounded bf-solve -d s 2>err &&
	line=$(grep -n "^name: " s/jobs/x.yaml | cut -d: -f1) &&
	echo "bf-solve: jobs/x.yaml:$line: name '"'y'"' is not the file'"'"'s (x.yaml holds job x only)" >expect &&
	test_cmp expect err
'

# Hostile text inside the spool files bf-solve -d reads: the YAML reader's
# bounds hold for every file, and values come back in messages shown
# safely ('?' for control characters and bidirectional controls).
content_n=0
content() {	# title file expected-stderr: the text is in content.txt
	content_n=$((content_n + 1))
	mv content.txt content-$content_n.txt
	printf '%s\n' "$3" >content-$content_n.expect
	test_expect_success "bf-solve: $1" "
		fresh ready && cp content-$content_n.txt s/$2 &&
		test_expect_code 65 bounded bf-solve -d s >out 2>err &&
		test_cmp content-$content_n.expect err &&
		test_must_be_empty out
	"
}
printf 'time: 1000\nsource: x\nidle: &a\n  - nodes: n1\nx: [*a, *a, *a]\n' >content.txt
content 'an alias bomb in the holes file' holes/current.yaml \
	'bf-solve: holes/current.yaml:3: anchors and aliases are not supported'
printf 'time: 1000\nsource: x\nidle: %s%s\n' "$(printf '[%.0s' $(seq 70))" \
    "$(printf ']%.0s' $(seq 70))" >content.txt
content 'holes nested 70 deep' holes/current.yaml \
	'bf-solve: holes/current.yaml:3: nested too deeply'
printf 'time: 1000\ntime: 1001\nsource: x\nidle: []\n' >content.txt
content 'a duplicate key in the holes file' holes/current.yaml \
	"bf-solve: holes/current.yaml:2: duplicate key 'time' (first at line 1)"
printf 'time: !!int 1000\nsource: x\nidle: []\n' >content.txt
content 'a tag in the holes file' holes/current.yaml \
	'bf-solve: holes/current.yaml:1: tags are not supported'
printf 'time: .nan\nsource: x\nidle: []\n' >content.txt
content 'a NaN time in the holes file' holes/current.yaml \
	"bf-solve: holes/current.yaml:1: time must be a whole number from 0 to 1099511627776, not '.nan'"
printf 'time: 1000\nsource: x\nidle:\n  - nodes: "n[0000000-9999999]"\n' >content.txt
content 'a hostlist of 10,000,000 hosts' holes/current.yaml \
	"bf-solve: holes/current.yaml:4: bad hostlist 'n[0000000-9999999]': expands to more than 1000000 hosts"
printf 'time: 1000\nsource: x\nidle:\n  - nodes: "n%s"\n' "$(printf '[1-3]%.0s' $(seq 14))" >content.txt
content 'a hostlist of 3^14 hosts' holes/current.yaml \
	"bf-solve: holes/current.yaml:4: bad hostlist '$(printf 'n%s' "$(printf '[1-3]%.0s' $(seq 14))" | cut -c1-60)...': expands to more than 1000000 hosts"
printf 'time: 1000\nsource: x\nidle:\n  - nodes: "\\u202en[1-2]\\e[2J"\n' >content.txt
content 'an escape and a bidi override in a hostlist' holes/current.yaml \
	"bf-solve: holes/current.yaml:4: bad hostlist '???n[1-2]?[2J': byte 0xe2 not allowed in a host name"
printf 'jobs:\n  a: {weight: .nan}\n' >content.txt
content 'a NaN weight in the policy' policy.yaml \
	"bf-solve: policy.yaml:2: weight must be a number from 1e-06 to 1e+06, not '.nan'"
printf 'users:\n  "bo\\e[2Jb": {max_nodes: 1}\n' >content.txt
content 'an escape in a user name of the policy' policy.yaml \
	"bf-solve: policy.yaml:2: no such user 'bo?[2Jb'"
printf 'max_rescales: 99999999999999999999\n' >content.txt
content 'a huge count in the policy' policy.yaml \
	"bf-solve: policy.yaml:1: max_rescales must be a whole number from 0 to 1000000, not '99999999999999999999'"
printf 'time: 1\njobs:\n  a: {nodes: .nan, hosts: n1}\n' >content.txt
content 'a NaN node count in the state' state.yaml \
	"bf-solve: state.yaml:3: nodes must be a whole number from 0 to 1000000, not '.nan'"
printf 'time: 1\njobs:\n  a: {nodes: 1, hosts: n1}\n---\n' >content.txt
content 'two documents in the state' state.yaml \
	'bf-solve: state.yaml:4: more than one YAML document in one file'
test_expect_success 'bf-solve: an escape in a job name of the state is shown as ?' '
	fresh ready && printf "time: 1\njobs:\n  \"a\\\\e[2J\": {nodes: 1, hosts: n1}\n" >s/state.yaml &&
	grep -q "a.e" s/state.yaml &&
	test_expect_code 65 bounded bf-solve -d s 2>err &&
	echo "bf-solve: state.yaml:3: bad job name '"'a?[2J'"'" >expect &&
	test_cmp expect err
'

# bf-apply -n reads the plan, the state, the jobs, the holes, the policy
# and the profiles: none through a link, none from a FIFO (65), whatever
# its message says.
for f in plans/current.yaml state.yaml jobs/a.yaml holes/current.yaml policy.yaml; do
	for kind in $kinds; do
		test_expect_success "bf-apply -n reads $f: $kind, not followed, 65" "
			fresh ready && plant $kind $f && canary_arm &&
			test_expect_code 65 bounded bf-apply -n -d s --allow-root-jobs >out 2>err &&
			test \$(wc -l <err) -eq 1 && grep -q '$(said $kind)' err &&
			canary_untouched out err s
		"
	done
done
# Its messages name some files by their base name only, or twice.
for f in plans/current.yaml jobs/a.yaml holes/current.yaml policy.yaml; do
	test_expect_success "bf-apply -n names $f by its place in the spool" "
		fresh ready && plant link $f &&
		test_expect_code 65 bounded bf-apply -n -d s --allow-root-jobs 2>err &&
		echo 'bf-apply: $f: is a symbolic link, not followed' >expect &&
		test_cmp expect err
	"
done

# bf-watch --once runs the whole chain; a planted file stops the step
# that reads it, which is retried; nothing is followed or blocks.
for f in holes/current.yaml jobs/a.yaml state.yaml policy.yaml plans/current.yaml profiles/a.yaml progress/a.log; do
	for kind in link fifo; do
		test_expect_success "bf-watch --once with $f a $kind" "
			fresh ready && plant $kind $f && canary_arm &&
			bounded bf-watch -d s --once --allow-root-jobs -g 1 >out 2>err;
			rc=\$?; kill_jobs s;
			test \$rc -eq 0 && canary_untouched out err s &&
			case $f in
			plans/*|progress/*) ;;
			*) grep -q '$(said $kind)' err ;;
			esac
		"
	done
done

# A link in place of a spool directory: every program refuses the spool
# (74), naming the directory; the directory linked to is not touched.
for d in incoming jobs rejected holes progress profiles plans history run tmp; do
	test_expect_success "a link in place of $d/: refused by every program, 74" "
		fresh ready && mkdir -p elsewhere && rm -rf elsewhere/* &&
		printf 'name: zz\ncommand: x\nmax_nodes: 1\n' >elsewhere/zz.yaml &&
		touch -a -d 2000-01-01T00:00:00Z elsewhere &&
		rm -rf s/$d && ln -s \"\$PWD/elsewhere\" s/$d &&
		for prog in 'bf-submit --intake' bf-solve bf-profile 'bf-apply -n' 'bf-hosts a' 'bf-audit --log'; do
			set -- \$prog;
			test_expect_code 74 bounded \"\$@\" -d s >out 2>err || exit 1;
			test \$(wc -l <err) -eq 1 || exit 1;
			grep -q \"^\$1: .*s/$d\" err || exit 1;
		done &&
		test \"\$(stat -c %X elsewhere)\" = 946684800 &&
		test \"\$(ls elsewhere)\" = zz.yaml
	"
done

# Kills what a hung bf-apply left behind: processes with a file open in
# this test's spool copy, by pid.  One find over every process's fd/
# (an ls and a grep per process were a third of this script's programs).
kill_leftovers() {
	find /proc/[0-9]*/fd -mindepth 1 -maxdepth 1 -lname "$TRASH/s/*" \
	    2>/dev/null | cut -d/ -f3 | sort -u | while read -r _pid; do
		[ "$_pid" = $$ ] && continue
		kill -KILL "$_pid" 2>/dev/null
	done
	return 0
}

# Files in run/NAME/ of a job being started: a link is not followed; a
# FIFO must not block bf-apply.
for f in hosts pid exit stopping output lock; do
	test_expect_success "bf-apply starting a job: run/a/$f a link is not followed" "
		fresh ready && mkdir -p s/run/a && plant link run/a/$f && canary_arm &&
		HOSTILE_SECONDS=20; bounded bf-apply -d s --allow-root-jobs -g 1 >out 2>err;
		rc=\$?; kill_jobs s; kill_leftovers;
		test \$rc -ne 124 && canary_untouched s
	"
done
test_expect_success 'bf-apply starting a job: run/a/output a link, the job'"'"'s output stays off bf-apply'"'"'s' '
	fresh ready && mkdir -p s/run/a && plant link run/a/output &&
	HOSTILE_SECONDS=20; bounded bf-apply -d s --allow-root-jobs -g 1 >out 2>err;
	kill_jobs s; kill_leftovers;
	! grep "^start a nodes=" out
'

for f in hosts pid exit stopping; do
	test_expect_success "bf-apply starting a job: run/a/$f a FIFO does not block it" "
		fresh ready && mkdir -p s/run/a && plant fifo run/a/$f &&
		HOSTILE_SECONDS=20; bounded bf-apply -d s --allow-root-jobs -g 1 >out 2>err;
		rc=\$?; kill_jobs s; kill_leftovers;
		test \$rc -ne 124
	"
done
for f in output lock; do
	test_expect_success "bf-apply starting a job: run/a/$f a FIFO does not block it" "
		fresh ready && mkdir -p s/run/a && plant fifo run/a/$f &&
		HOSTILE_SECONDS=10; bounded bf-apply -d s --allow-root-jobs -g 1 >out 2>err;
		rc=\$?; kill_jobs s; kill_leftovers;
		test \$rc -ne 124
	"
done

# bf-apply copies the plan's model into history/, world-readable: through
# a link planted at plans/NAME.mps it copied another user's file.
test_expect_success 'bf-apply does not copy a linked plans/NAME.mps into history/' '
	fresh ready && mps=$(sed -n "s/.*mps: \(plans\/[^}]*\)}$/\1/p" s/plans/current.yaml) &&
	test -n "$mps" && plant link "$mps" && canary_arm &&
	HOSTILE_SECONDS=20; bounded bf-apply -d s --allow-root-jobs -g 1 >out 2>err;
	kill_jobs s; kill_leftovers; canary_untouched s
'

# tmp/ is open to everyone (1733): a user may plant a link under the
# name a writer used to use, PID.SEQ.NAME.  Writers create with O_EXCL and
# O_NOFOLLOW, and now add a random part (PID.SEQ.RAND.NAME, bf-spool(5)),
# so such a name is a guess: nothing planted is ever written through.  Links are planted for the next
# 5000 pids; whether or not bf-solve's pid was among them, it writes
# nothing through them (its names carry a random part besides).
# (One perl process plants them all: a process per link would use up the
# pids it plants for.)
if command -v perl >/dev/null; then
test_expect_success 'links planted in tmp/ under the next writers'"'"' names' '
	fresh ready &&
	next=$(perl -e "my \$n = \$\$; for my \$i (1 .. 5000) { for my \$s (1, 2) {
		symlink(\$ARGV[0], \"s/tmp/\" . (\$n + \$i) . \".\$s.current.yaml\")
		    or die \"\$!\" } } print \"\$n\\n\"" "$CANARY_FILE") &&
	canary_arm &&
	{ bounded bf-solve -d s >out 2>err & pid=$!; wait $pid; } &&
	test_must_be_empty err && test -f s/plans/current.yaml &&
	! test -h s/plans/current.yaml && canary_untouched out err s &&
	test $(find s/tmp -type l | wc -l) -eq 10000 &&
	echo "bf-solve pid $pid; links for $((next + 1))..$((next + 5000))"
'
else
	test_skip 'links planted in tmp/ under the next writers'"'"' names' 'needs perl'
fi

test_done
