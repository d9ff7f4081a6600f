#!/bin/sh
# The intake sorts incoming/ into jobs/ and rejected/, loses nothing, follows
# no link, opens nothing but regular files, and survives a crash at any step.
. "$(dirname "$0")/lib.sh"

good() {	# name
	printf 'name: %s\ncommand: ./train --epochs 3\nmax_nodes: 8\nscaling:\n  2: 20.5\n  1: 10\n' "$1"
}

intake() {
	bf-submit --intake -d sp
}

test_expect_success 'good and bad files are sorted and none is lost' '
	bf-submit -d sp /dev/null 2>/dev/null;
	for i in 1 2 3 4 5; do good "ok$i" >sp/incoming/ok$i.yaml; done &&
	for i in 1 2 3 4 5; do
		printf "name: bad$i\ncommand: x\nmax_nodes: 0\n" >sp/incoming/bad$i.yaml
	done &&
	cp sp/incoming/bad3.yaml bad3.orig &&
	intake 2>log &&
	ls sp/jobs >actual && printf "ok%s.yaml\n" 1 2 3 4 5 >expect && test_cmp expect actual &&
	ls sp/rejected >actual &&
	for i in 1 2 3 4 5; do printf "bad%s.yaml\nbad%s.yaml.err\n" $i $i; done >expect &&
	test_cmp expect actual &&
	find sp/incoming -mindepth 1 >left && test_must_be_empty left &&
	test_cmp bad3.orig sp/rejected/bad3.yaml &&
	echo "incoming/bad3.yaml:3: max_nodes must be a whole number from 1 to 1000000, not '"'0'"'" >expect &&
	test_cmp expect sp/rejected/bad3.yaml.err &&
	test $(grep -c "^bf-submit: accepted incoming/ok" log) -eq 5 &&
	test $(grep -c "^bf-submit: rejected incoming/bad" log) -eq 5
'

test_expect_success 'the spool is created with the documented modes' '
	for d in history holes jobs plans profiles progress rejected run; do
		echo "$d 755"
	done >expect &&
	printf "incoming 1733\ntmp 1733\n" >>expect &&
	for d in history holes jobs plans profiles progress rejected run incoming tmp; do
		echo "$d $(stat -c %a sp/$d)"
	done >actual &&
	test_cmp expect actual
'

test_expect_success 'the accepted file is the canonical form with owner and source' '
	good canon >canon.yaml && cp canon.yaml sp/incoming/ &&
	intake 2>/dev/null &&
	h=$(xxhsum -H3 canon.yaml | sed "s/.* = //") &&
	cat >expect <<-EOT &&
	command: "./train --epochs 3"
	max_nodes: 8
	min_nodes: 1
	name: canon
	owner: {uid: $(id -u)}
	rescale_down: 10
	rescale_up: 20
	scaling:
	  1: 10
	  2: 20.5
	slots_per_node: 1
	source: {file: "canon.yaml", xxh3: "xxh3:$h"}
	weight: 1
	EOT
	grep -v "^submitted: " sp/jobs/canon.yaml >actual &&
	test_cmp expect actual &&
	grep -E "^submitted: [0-9]{10}$" sp/jobs/canon.yaml &&
	stat -c %a sp/jobs/canon.yaml >mode && echo 600 >expect && test_cmp expect mode
'

test_expect_success 'a taken job name is refused, the first job kept' '
	cp sp/jobs/ok1.yaml ok1.before &&
	good ok1 >sp/incoming/again.yaml &&
	intake 2>/dev/null &&
	test_cmp ok1.before sp/jobs/ok1.yaml &&
	echo "incoming/again.yaml:1: job name '"'ok1'"' is taken by jobs/ok1.yaml" >expect &&
	test_cmp expect sp/rejected/again.yaml.err
'

test_expect_success 'a refused name already in rejected/ gets a suffix' '
	printf "name: bad1\ncommand: x\nmax_nodes: 0\nmin_nodes: 0\n" >sp/incoming/bad1.yaml &&
	intake 2>/dev/null &&
	test -f sp/rejected/bad1.yaml.1 && test -f sp/rejected/bad1.yaml.1.err &&
	grep -q min_nodes sp/rejected/bad1.yaml.1 &&
	! grep -q min_nodes sp/rejected/bad1.yaml
'

# Anything but a regular file is refused where it is: never opened,
# followed or moved (a FIFO in rejected/ hangs a reader; a directory there
# could take a reason's name), and said once.
test_expect_success 'a symbolic link is left in place, not followed' '
	good secret >secret.yaml &&
	ln -s "$PWD/secret.yaml" sp/incoming/link.yaml &&
	intake 2>log &&
	test -h sp/incoming/link.yaml && test ! -e sp/rejected/link.yaml &&
	test ! -e sp/rejected/link.yaml.err &&
	echo "bf-submit: left incoming/link.yaml in place: a symbolic link, not a job file (its owner may remove it)" >expect &&
	test_cmp expect log &&
	test ! -e sp/jobs/secret.yaml && rm sp/incoming/link.yaml
'

test_expect_success 'a FIFO and a directory are left in place, a hard link refused, without blocking' '
	mkfifo sp/incoming/fifo.yaml && mkdir sp/incoming/dir.yaml &&
	good hard >hard.yaml && ln hard.yaml sp/incoming/hard.yaml &&
	timeout 10 bf-submit --intake -d sp 2>log &&
	test -p sp/incoming/fifo.yaml && test -d sp/incoming/dir.yaml &&
	test ! -e sp/rejected/fifo.yaml && test ! -e sp/rejected/dir.yaml &&
	cat >expect <<-\EOT &&
	bf-submit: left incoming/dir.yaml in place: a directory, not a job file (its owner may remove it)
	bf-submit: left incoming/fifo.yaml in place: a FIFO, not a job file (its owner may remove it)
	bf-submit: rejected incoming/hard.yaml as rejected/hard.yaml: incoming/hard.yaml: has 2 hard links; copy the file instead
	EOT
	test_cmp expect log &&
	echo "incoming/hard.yaml: has 2 hard links; copy the file instead" >expect &&
	test_cmp expect sp/rejected/hard.yaml.err &&
	rm sp/incoming/fifo.yaml && rmdir sp/incoming/dir.yaml
'

test_expect_success 'a file over 1 MiB is refused unread' '
	head -c 2000000 /dev/zero >sp/incoming/huge.yaml &&
	intake 2>/dev/null &&
	echo "incoming/huge.yaml: larger than 1048576 bytes" >expect &&
	test_cmp expect sp/rejected/huge.yaml.err
'

test_expect_success 'dot-files are not touched' '
	good hidden >sp/incoming/.hidden.yaml &&
	intake 2>/dev/null &&
	test -f sp/incoming/.hidden.yaml && test ! -e sp/jobs/hidden.yaml &&
	rm sp/incoming/.hidden.yaml
'

if test_have_root; then
	test_expect_success 'the owner comes from the file, not from its text' '
		printf "name: theirs\ncommand: x\nmax_nodes: 2\nowner: {uid: 0}\n" >sp/incoming/theirs.yaml &&
		chown 4321:4321 sp/incoming/theirs.yaml &&
		intake 2>log &&
		grep "^owner: {uid: 4321}$" sp/jobs/theirs.yaml &&
		grep -q "owner is set by bftrainer, ignored" log
	'
else
	test_skip 'the owner comes from the file, not from its text' 'needs root to chown'
fi

test_expect_success 'a crash after accepting, before removing: accepted once on restart' '
	good crash1 >sp/incoming/crash1.yaml &&
	BF_FAULT=intake-after-accept intake 2>/dev/null; test $? -eq 137 &&
	test -f sp/jobs/crash1.yaml && test -f sp/incoming/crash1.yaml &&
	cp sp/jobs/crash1.yaml crash1.first &&
	intake 2>/dev/null &&
	test ! -e sp/incoming/crash1.yaml && test ! -e sp/rejected/crash1.yaml &&
	test_cmp crash1.first sp/jobs/crash1.yaml
'

test_expect_success 'a crash between reason and move: the reason is reused' '
	printf "name: crash2\ncommand: x\nmax_nodes: -1\n" >sp/incoming/crash2.yaml &&
	BF_FAULT=intake-after-reason intake 2>/dev/null; test $? -eq 137 &&
	test -f sp/rejected/crash2.yaml.err && test -f sp/incoming/crash2.yaml &&
	intake 2>/dev/null &&
	ls sp/rejected | grep crash2 >actual &&
	printf "crash2.yaml\ncrash2.yaml.err\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'a crash between link and removal: refused once, its reason kept' '
	printf "name: crash3\ncommand: x\nmax_nodes: -1\n" >sp/incoming/crash3.yaml &&
	BF_FAULT=intake-after-link intake 2>/dev/null; test $? -eq 137 &&
	test -f sp/rejected/crash3.yaml && test -f sp/incoming/crash3.yaml &&
	cp sp/rejected/crash3.yaml.err crash3.reason &&
	intake 2>log &&
	ls sp/rejected | grep crash3 >actual &&
	printf "crash3.yaml\ncrash3.yaml.err\n" >expect && test_cmp expect actual &&
	test ! -e sp/incoming/crash3.yaml &&
	test_cmp crash3.reason sp/rejected/crash3.yaml.err &&
	echo "bf-submit: rejected incoming/crash3.yaml as rejected/crash3.yaml before a crash: its reason is rejected/crash3.yaml.err" >expect &&
	test_cmp expect log
'

test_expect_success 'kill -9 at every step of many intakes loses no file' '
	rm -rf sp2 && bf-submit -d sp2 /dev/null 2>/dev/null;
	i=0 && while [ $i -lt 20 ]; do
		good "k$i" >sp2/incoming/k$i.yaml
		printf "name: r$i\ncommand: x\nmax_nodes: 0\n" >sp2/incoming/r$i.yaml
		i=$((i + 1))
	done &&
	for point in atomic-after-write atomic-before-rename intake-after-reason intake-after-link intake-after-accept; do
		for n in 1 2 3 5 8; do
			BF_FAULT=$point:$n bf-submit --intake -d sp2 2>/dev/null
		done
	done;
	bf-submit --intake -d sp2 2>/dev/null &&
	ls sp2/jobs | wc -l >count && echo 20 >expect && test_cmp expect count &&
	ls sp2/rejected | grep -vc "\.err$" >count && test_cmp expect count &&
	ls sp2/rejected | grep -c "\.err$" >count && test_cmp expect count &&
	find sp2/incoming -mindepth 1 >left && test_must_be_empty left
'

test_expect_success 'a misspelt key is refused into rejected/ with "did you mean"; a far one is warned about and taken' '
	printf "name: toy\ncommand: ./train\nsmaples: 1000\nmax_nodes: 2\n" >sp/incoming/toy.yaml &&
	cp sp/incoming/toy.yaml toy.orig &&
	printf "name: far\ncommand: ./train\ncolour: red\nmax_nodes: 2\n" >sp/incoming/far.yaml &&
	intake 2>log &&
	test_cmp toy.orig sp/rejected/toy.yaml &&
	echo "incoming/toy.yaml:3: unknown key '"'smaples'"' (did you mean '"'samples'"'?)" >expect &&
	test_cmp expect sp/rejected/toy.yaml.err &&
	test -f sp/jobs/far.yaml && ! test -e sp/jobs/toy.yaml &&
	grep -x "bf-submit: incoming/far.yaml:3: unknown key '"'colour'"' ignored" log &&
	grep "^bf-submit: rejected incoming/toy.yaml as rejected/toy.yaml" log
'

test_expect_success 'a second intake while the spool is locked exits 75' '
	flock sp/lock sh -c "echo \$\$ >sp/lock; touch held; sleep 3" &
	while [ ! -f held ]; do sleep 0.05; done &&
	holder=$(cat sp/lock) &&
	test_expect_code 75 bf-submit --intake -d sp 2>err &&
	echo "bf-submit: sp is locked by pid $holder (a bf-watch or intake is running)" >expect &&
	test_cmp expect err &&
	wait
'

if test_have_root && command -v setpriv >/dev/null; then
	test_expect_success 'a file the intake may not read is left in incoming/' '
		rm -rf usp && mkdir usp && chown 4321 usp &&
		setpriv --reuid=4321 --regid=4321 --clear-groups bf-submit -d usp/sp /dev/null 2>/dev/null;
		good private >usp/sp/incoming/private.yaml && chmod 600 usp/sp/incoming/private.yaml &&
		setpriv --reuid=4321 --regid=4321 --clear-groups bf-submit --intake -d usp/sp 2>err &&
		test -f usp/sp/incoming/private.yaml &&
		echo "bf-submit: left incoming/private.yaml in place: unable to open private.yaml: Permission denied" >expect &&
		test_cmp expect err
	'
else
	test_skip 'a file the intake may not read is left in incoming/' 'needs root and setpriv'
fi

test_done
