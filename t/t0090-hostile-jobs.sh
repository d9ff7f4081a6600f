#!/bin/sh
# Hostile job files (issue #9), each its own case, each through bf-submit
# FILE and through the intake: bad names, alias bombs, deep nesting,
# duplicate keys, tags, several documents, numbers that are not what they
# seem, huge files, FIFOs, links and directories.  Every case ends by
# itself within a memory and a time bound, with one exact message and a
# documented exit status, and changes nothing but what the refusal moves.
. "$(dirname "$0")/lib.sh"

good='command: ./train
max_nodes: 8'
name_rule="is not a valid job name (letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64)"

# bad NAME WHAT < content: NAME.yaml is refused with "NAME.yaml" + WHAT,
# WHAT being ":LINE: what" or ": what".
bad() {
	cat >"$1.yaml"
	printf '%s\n' "$2" >"$1.what"
}

# Names.
printf '%s\nname: a/b\n' "$good" | bad name-slash ":3: name 'a/b' $name_rule"
printf '%s\nname: ..\n' "$good" | bad name-dotdot ":3: name '..' $name_rule"
printf '%s\nname: .\n' "$good" | bad name-dot ":3: name '.' $name_rule"
printf '%s\nname: -rf\n' "$good" | bad name-dash ":3: name '-rf' $name_rule"
printf '%s\nname: "a\\nb"\n' "$good" | bad name-newline ":3: name 'a?b' $name_rule"
printf '%s\nname: "a\\e[31mb\\e]0;x\\a"\n' "$good" | bad name-escape ":3: name 'a?[31mb?]0;x?' $name_rule"
printf '%s\nname: "a\\x01\\x7f"\n' "$good" | bad name-control ":3: name 'a??' $name_rule"
printf '%s\nname: "a\\u009bb"\n' "$good" | bad name-c1 ":3: name 'a?b' $name_rule"
printf '%s\nname: "a\\0b"\n' "$good" | bad name-nul-escape ":3: a value contains a NUL byte"
printf '%s\nname: a\0b\n' "$good" | bad name-nul-byte ":3: YAML syntax error: control characters are not allowed"
printf '%s\nname: a\377b\n' "$good" | bad name-not-utf8 ":3: YAML syntax error: invalid leading UTF-8 octet"
printf '%s\nname: "a\303\251b"\n' "$good" | bad name-utf8 ":3: name 'a$(printf '\303\251')b' $name_rule"
x44=$(printf 'x%.0s' $(seq 44))
{ printf '%s\nname: ' "$good"; head -c 10240 /dev/zero | tr '\0' x; echo; } |
	bad name-10k ":3: name '$x44...' $name_rule"

# YAML.
{
	printf 'name: lol\n%s\n' "$good"
	printf 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
	prev=a
	for l in b c d e f g h i; do
		printf '%s: &%s [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n' $l $l \
		    $prev $prev $prev $prev $prev $prev $prev $prev $prev
		prev=$l
	done
} | bad billion-laughs ":4: anchors and aliases are not supported"
printf '%s\nname: a\nb: *a\n' "$good" | bad alias-only ":4: anchors and aliases are not supported"
{ printf '%s\nname: a\nx: ' "$good"; head -c 10000 /dev/zero | tr '\0' '['
  head -c 10000 /dev/zero | tr '\0' ']'; echo; } | bad deep-flow ":4: nested too deeply"
{ printf '%s\nname: a\nx:\n' "$good"; yes -- '- ' | head -n 10000 | tr -d '\n'
  echo 1; } | bad deep-block-list ":5: nested too deeply"
# Block mappings indent one more column per level: 1,000 levels fit in
# 1 MiB.  The top is level 1 and line 4+k opens level k+1: 65 at line 68.
{ printf '%s\nname: a\nx:\n' "$good"; i=1
  while [ $i -le 1000 ]; do printf "%${i}sk$i:\n" ""; i=$((i + 1)); done; } |
	bad deep-block-map ":68: nested too deeply"
printf 'name: a\n%s\nname: b\n' "$good" | bad dup-name ":4: duplicate key 'name' (first at line 1)"
printf 'name: a\n%s\ncommand: rm -rf /\n' "$good" | bad dup-command ":4: duplicate key 'command' (first at line 2)"
printf 'name: a\n%s\n"max_nodes": 9\n' "$good" | bad dup-quoted ":4: duplicate key 'max_nodes' (first at line 3)"
printf 'name: !!python/object:os.system a\n%s\n' "$good" | bad tag-python ":1: tags are not supported"
printf 'x: !!python/object/apply:os.system ["id"]\nname: a\n%s\n' "$good" | bad tag-python-apply ":1: tags are not supported"
printf 'name: a\ncommand: !local ./train\nmax_nodes: 8\n' | bad tag-local ":2: tags are not supported"
printf '%%TAG !e! tag:example.com,2000:\n---\nname: a\ncommand: !e!cmd x\nmax_nodes: 8\n' |
	bad tag-directive ":4: tags are not supported"
printf '!!map\nname: a\n%s\n' "$good" | bad tag-map ":1: tags are not supported"
printf 'name: !!str a\n%s\n' "$good" | bad tag-str ":1: tags are not supported"
printf 'name: a\n%s\n---\nname: b\n%s\n' "$good" "$good" | bad two-documents ":4: more than one YAML document in one file"
printf 'name: a\n%s\n...\n---\nname: b\n' "$good" | bad two-documents-ended ":5: more than one YAML document in one file"
printf 'name: a\n%s\n---\n' "$good" | bad empty-second-document ":4: more than one YAML document in one file"
printf '? [name]\n: a\n%s\n' "$good" | bad complex-key ":1: a key must be a plain value, not a list or mapping"
truncate -s 100M big-100m.yaml
printf '%s\n' ": larger than 1048576 bytes" >big-100m.what

# Numbers.
num() {	# case key value what: the key on line 4 (max_nodes on line 3)
	if [ "$2" = max_nodes ]; then
		printf 'name: a\ncommand: ./train\nmax_nodes: %s\n' "$3" |
			bad "$1" ":3: $4"
	else
		printf 'name: a\n%s\n%s: %s\n' "$good" "$2" "$3" | bad "$1" ":4: $4"
	fi
}
whole_nodes="must be a whole number from 1 to 1000000"
num nodes-out-of-range max_nodes 2000000 "max_nodes $whole_nodes, not '2000000'"
num nodes-NaN max_nodes NaN "max_nodes $whole_nodes, not 'NaN'"
num nodes-dotnan max_nodes .nan "max_nodes $whole_nodes, not '.nan'"
num nodes-dotinf max_nodes .inf "max_nodes $whole_nodes, not '.inf'"
num nodes-hex max_nodes 0x10 "max_nodes $whole_nodes, not '0x10'"
num nodes-octal max_nodes 0o10 "max_nodes $whole_nodes, not '0o10'"
num nodes-float max_nodes 8.0 "max_nodes must be written in digits: 8, not '8.0' (a whole number from 1 to 1000000)"
num nodes-exponent max_nodes 8e0 "max_nodes must be written in digits: 8, not '8e0' (a whole number from 1 to 1000000)"
num nodes-underscore max_nodes 1_000 "max_nodes $whole_nodes, not '1_000'"
num nodes-empty max_nodes '' "max_nodes $whole_nodes, not ''"
num nodes-null max_nodes '~' "max_nodes $whole_nodes, not '~'"
num nodes-null-word max_nodes null "max_nodes $whole_nodes, not 'null'"
num nodes-bool max_nodes true "max_nodes $whole_nodes, not 'true'"
num nodes-huge max_nodes 99999999999999999999 "max_nodes $whole_nodes, not '99999999999999999999'"
num min-negative min_nodes -1 "min_nodes $whole_nodes, not '-1'"
num slots-negative slots_per_node -4 "slots_per_node must be a whole number from 1 to 1024, not '-4'"
num samples-huge samples 99999999999999999999 "samples must be a whole number from 1 to 1000000000000000000, not '99999999999999999999'"
num samples-negative samples -5 "samples must be a whole number from 1 to 1000000000000000000, not '-5'"
num samples-exponent samples 1e18 "samples must be a whole number from 1 to 1000000000000000000, not '1e18'"
num rescale-dotnan rescale_up .nan "rescale_up must be a number from 0 to 86400, not '.nan'"
num rescale-nan rescale_up nan "rescale_up must be a number from 0 to 86400, not 'nan'"
num rescale-inf rescale_down .inf "rescale_down must be a number from 0 to 86400, not '.inf'"
num rescale-minus-inf rescale_down -.inf "rescale_down must be a number from 0 to 86400, not '-.inf'"
num rescale-infinity rescale_up Infinity "rescale_up must be a number from 0 to 86400, not 'Infinity'"
num rescale-1e999 rescale_up 1e999 "rescale_up must be a number from 0 to 86400, not '1e999'"
num rescale-hex rescale_up 0x1p3 "rescale_up must be a number from 0 to 86400, not '0x1p3'"
num rescale-negative rescale_down -0.5 "rescale_down must be a number from 0 to 86400, not '-0.5'"
num weight-underflow weight 1e-999 "weight must be a number from 0 to 1e+06, not '1e-999', which is too close to 0 for a double (it would read as 0); the smallest above 0 is 2.22507e-308"
# Subnormal doubles (issue #17): said as such, not as out of range.
num rescale-subnormal rescale_up 1e-320 "rescale_up must be a number from 0 to 86400, not '1e-320', which is too close to 0 for a double (subnormal); the smallest above 0 is 2.22507e-308"
num weight-subnormal weight 4e-310 "weight must be a number from 0 to 1e+06, not '4e-310', which is too close to 0 for a double (subnormal); the smallest above 0 is 2.22507e-308"
num weight-huge weight 1e7 "weight must be a number from 0 to 1e+06, not '1e7'"
printf 'name: a\n%s\nscaling:\n  -2: 10\n' "$good" |
	bad scaling-negative-count ":5: a scaling node count must be a whole number from 1 to 1000000, not '-2'"
printf 'name: a\n%s\nscaling:\n  1: -5\n' "$good" |
	bad scaling-negative-rate ":5: a scaling rate must be a number from 0 to 1e+15, not '-5'"
printf 'name: a\n%s\nscaling:\n  1: .nan\n' "$good" |
	bad scaling-nan-rate ":5: a scaling rate must be a number from 0 to 1e+15, not '.nan'"
printf 'name: a\n%s\nscaling:\n  0x2: 10\n' "$good" |
	bad scaling-hex-count ":5: a scaling node count must be a whole number from 1 to 1000000, not '0x2'"

cases=$(ls *.what | sed 's/\.what$//')

canary_setup

test_expect_success 'setup: a spool' '
	bf-submit -d sp /dev/null 2>/dev/null; test -d sp/incoming
'

# The file's own route: nothing is entered, nothing in the spool changes.
for c in $cases; do
	test_expect_success "bf-submit FILE refuses $c" "
		listing sp >before &&
		test_expect_code 65 bounded bf-submit -d sp $c.yaml >out 2>err &&
		printf 'bf-submit: %s%s\n' $c.yaml \"\$(cat $c.what)\" >expect &&
		test_cmp expect err && test_must_be_empty out &&
		listing sp >after && test_cmp before after
	"
done

# The intake's route: the file lands in rejected/ unchanged, beside its
# reason; nothing else moves.
for c in $cases; do
	test_expect_success "the intake refuses $c" "
		cp $c.yaml sp/incoming/$c.yaml &&
		listing sp | sed '\\|^sp/incoming/$c.yaml |d' >before &&
		bounded bf-submit --intake -d sp >out 2>err &&
		printf 'incoming/%s%s\n' $c.yaml \"\$(cat $c.what)\" >expect &&
		test_cmp expect sp/rejected/$c.yaml.err &&
		printf 'bf-submit: rejected incoming/%s as rejected/%s: %s\n' \
		    $c.yaml $c.yaml \"\$(cat expect)\" >expect.log &&
		test_cmp expect.log err && test_must_be_empty out &&
		cmp $c.yaml sp/rejected/$c.yaml &&
		listing sp | sed '\\|^sp/rejected/$c.yaml|d' >after &&
		test_cmp before after &&
		rm sp/rejected/$c.yaml
	"
done

test_expect_success 'a 100 MB stream on the standard input is cut off at 1 MiB' '
	yes "# filler" | head -c 100000000 >stream &&
	test_expect_code 65 bounded bf-submit -n - <stream 2>err &&
	echo "bf-submit: (stdin): larger than 1048576 bytes" >expect &&
	test_cmp expect err
'

test_expect_success 'an endless stream on the standard input ends too' '
	yes "# filler" | test_expect_code 65 bounded bf-submit -n - 2>err &&
	test_cmp expect err
'

# A leading zero is not octal: 010 is ten (YAML 1.2), as documented; the
# canonical file says so in plain decimal.
test_expect_success 'a number with a leading zero is decimal, not octal' '
	printf "name: lead0\ncommand: ./train\nmax_nodes: 010\nscaling:\n  08: 5\n" >lead0.yaml &&
	bounded bf-submit -d sp lead0.yaml >out 2>err &&
	test_must_be_empty err &&
	bounded bf-submit --intake -d sp 2>err &&
	grep "^max_nodes: 10$" sp/jobs/lead0.yaml &&
	grep "^  8: 5$" sp/jobs/lead0.yaml
'

test_expect_success 'a negative zero is written as 0' '
	printf "name: negzero\ncommand: ./train\nmax_nodes: 2\nrescale_up: -0\nrescale_down: -0.0\n" >negzero.yaml &&
	bounded bf-submit -d sp negzero.yaml >out 2>err &&
	test_must_be_empty err &&
	bounded bf-submit --intake -d sp 2>err &&
	grep "^rescale_up: 0$" sp/jobs/negzero.yaml &&
	grep "^rescale_down: 0$" sp/jobs/negzero.yaml
'

# Unknown keys are warned about, but a file of 1 MiB of them is not a
# megabyte of warnings: the first ten, then their number.
test_expect_success 'a flood of unknown keys gives ten warnings and a count' '
	{ printf "name: flood\n%s\n" "$good"; i=0
	  while [ $i -lt 50000 ]; do echo "k$i: 1"; i=$((i + 1)); done; } >flood.yaml &&
	bounded bf-submit -n flood.yaml 2>err &&
	i=0 && while [ $i -lt 10 ]; do
		printf "bf-submit: flood.yaml:%d: unknown key \047k%d\047 ignored\n" \
		    $((i + 4)) $i
		i=$((i + 1))
	done >expect &&
	echo "bf-submit: flood.yaml: 49990 more unknown keys ignored" >>expect &&
	test_cmp expect err
'

# The most values 1 MiB can hold: lists of 520,000 nulls, a mapping
# of 90,000 keys.  Each is read in linear time (a realloc per value was
# quadratic: minutes under AddressSanitizer) and ignored as unknown.
test_expect_success 'a 1 MiB list of 520,000 values is read in bounded time' '
	{ printf "name: wide\n%s\nx: [" "$good"; yes "~," | head -n 520000 |
	  tr -d "\n"; echo "~]"; } >widelist.yaml &&
	test $(wc -c <widelist.yaml) -le 1048576 &&
	bounded bf-submit -n widelist.yaml 2>err &&
	echo "bf-submit: widelist.yaml:4: unknown key '"'x'"' ignored" >expect &&
	test_cmp expect err
'

test_expect_success 'a 1 MiB block list of 520,000 values is read in bounded time' '
	{ printf "name: wide\n%s\nx:\n" "$good"; yes -- "-" | head -n 520000; } >wideblock.yaml &&
	test $(wc -c <wideblock.yaml) -le 1048576 &&
	bounded bf-submit -n wideblock.yaml 2>err &&
	echo "bf-submit: wideblock.yaml:4: unknown key '"'x'"' ignored" >expect &&
	test_cmp expect err
'

test_expect_success 'a 1 MiB mapping of 90,000 keys is read in bounded time' '
	{ printf "name: wide\n%s\nx: {" "$good"; i=0
	  while [ $i -lt 90000 ]; do printf "k%d: 1, " $i; i=$((i + 1)); done
	  echo "z: 1}"; } >widemap.yaml &&
	test $(wc -c <widemap.yaml) -le 1048576 &&
	bounded bf-submit -n widemap.yaml 2>err &&
	echo "bf-submit: widemap.yaml:4: unknown key '"'x'"' ignored" >expect &&
	test_cmp expect err
'

# File kinds: a link is never followed, a FIFO never opened, a directory
# never read, on either route.

test_expect_success 'bf-submit FILE: a FIFO is refused without blocking' '
	mkfifo fifo.yaml &&
	listing sp >before &&
	test_expect_code 65 bounded bf-submit -d sp fifo.yaml 2>err &&
	echo "bf-submit: fifo.yaml: not a regular file" >expect &&
	test_cmp expect err &&
	listing sp >after && test_cmp before after
'

# Anything but a regular file is refused where it is (issue #17): never
# opened, followed or moved into rejected/, where a FIFO would hang a
# reader and a directory could take a reason's name.
test_expect_success 'the intake: a FIFO is left in place without blocking' '
	mkfifo sp/incoming/fifo.yaml &&
	listing sp >before &&
	bounded bf-submit --intake -d sp 2>err &&
	echo "bf-submit: left incoming/fifo.yaml in place: a FIFO, not a job file (its owner may remove it)" >expect &&
	test_cmp expect err &&
	listing sp >after && test_cmp before after &&
	rm sp/incoming/fifo.yaml
'

test_expect_success 'bf-submit FILE: a directory is refused' '
	mkdir dir.yaml &&
	test_expect_code 65 bounded bf-submit -d sp dir.yaml 2>err &&
	echo "bf-submit: dir.yaml: not a regular file" >expect &&
	test_cmp expect err
'

test_expect_success 'the intake: a directory is left in place, its content unread' '
	mkdir sp/incoming/dir.yaml &&
	printf "name: indir\n%s\n" "$good" >sp/incoming/dir.yaml/indir.yaml &&
	listing sp >before &&
	bounded bf-submit --intake -d sp 2>err &&
	echo "bf-submit: left incoming/dir.yaml in place: a directory, not a job file (its owner may remove it)" >expect &&
	test_cmp expect err &&
	listing sp >after && test_cmp before after &&
	test ! -e sp/jobs/indir.yaml && rm -r sp/incoming/dir.yaml
'

if shadow_line >/dev/null; then
	test_expect_success 'bf-submit FILE: a link to /etc/shadow is not followed' '
		ln -s /etc/shadow shadow.yaml &&
		listing sp >before &&
		test_expect_code 65 bounded bf-submit -d sp shadow.yaml >out 2>err &&
		echo "bf-submit: shadow.yaml: is a symbolic link, not followed" >expect &&
		test_cmp expect err && test_must_be_empty out &&
		listing sp >after && test_cmp before after
	'
	test_expect_success 'the intake: a link to /etc/shadow is not followed' '
		ln -s /etc/shadow sp/incoming/shadow.yaml &&
		bounded bf-submit --intake -d sp 2>err &&
		test -h sp/incoming/shadow.yaml && test ! -e sp/rejected/shadow.yaml &&
		echo "bf-submit: left incoming/shadow.yaml in place: a symbolic link, not a job file (its owner may remove it)" >expect &&
		test_cmp expect err &&
		! grep -r -F "$(shadow_line)" err sp && rm sp/incoming/shadow.yaml
	'
else
	test_skip 'bf-submit FILE: a link to /etc/shadow is not followed' '/etc/shadow is not readable here'
	test_skip 'the intake: a link to /etc/shadow is not followed' '/etc/shadow is not readable here'
fi

test_expect_success "bf-submit FILE: a link to a file of another user ($CANARY_OWNER) is not followed" '
	ln -s "$CANARY_FILE" theirs.yaml &&
	listing sp >before && canary_arm &&
	test_expect_code 65 bounded bf-submit -d sp theirs.yaml >out 2>err &&
	echo "bf-submit: theirs.yaml: is a symbolic link, not followed" >expect &&
	test_cmp expect err && test_must_be_empty out &&
	listing sp >after && test_cmp before after &&
	canary_untouched out err sp
'

test_expect_success "the intake: a link to a file of another user ($CANARY_OWNER) is not followed" '
	ln -s "$CANARY_FILE" sp/incoming/theirs.yaml && canary_arm &&
	bounded bf-submit --intake -d sp >out 2>err &&
	test -h sp/incoming/theirs.yaml && test ! -e sp/rejected/theirs.yaml &&
	echo "bf-submit: left incoming/theirs.yaml in place: a symbolic link, not a job file (its owner may remove it)" >expect &&
	test_cmp expect err &&
	canary_untouched out err sp && rm sp/incoming/theirs.yaml
'

if test_have_root && command -v setpriv >/dev/null; then
	test_expect_success 'bf-submit FILE as a user: another user'"'"'s file may not be read (66)' '
		printf "name: mine\n%s\n" "$good" >private.yaml && chmod 600 private.yaml &&
		test_expect_code 66 bounded setpriv --reuid=65534 --regid=65534 \
		    --clear-groups bf-submit -n "$PWD/private.yaml" 2>err &&
		echo "bf-submit: unable to open $PWD/private.yaml: Permission denied" >expect &&
		test_cmp expect err
	'
else
	test_skip 'bf-submit FILE as a user: another user'"'"'s file may not be read (66)' 'needs root and setpriv'
fi

# A hard link is the same file under a second name: the user's own to
# submit, but the intake, which reads with more privilege than the user,
# refuses it (the user could have linked a file of someone else).
test_expect_success 'bf-submit FILE: a hard link is a file like any other' '
	printf "name: hard\n%s\n" "$good" >hard.orig && ln hard.orig hard.yaml &&
	bounded bf-submit -n hard.yaml 2>err &&
	test_must_be_empty err
'

test_expect_success 'the intake: a hard link is refused unread' '
	ln hard.orig sp/incoming/hard.yaml &&
	bounded bf-submit --intake -d sp 2>err &&
	echo "incoming/hard.yaml: has 3 hard links; copy the file instead" >expect &&
	test_cmp expect sp/rejected/hard.yaml.err &&
	test ! -e sp/jobs/hard.yaml
'

# A name like a reason's (issue #17): a directory "!.err" moved into
# rejected/ made the reason of a bad file "!" impossible to write, and
# every intake (and bf-watch at every start) exit 74; a bad file "y.err"
# was overwritten by the reason of a later "y".
test_expect_success 'the intake: a directory "!.err" stays in incoming/; a bad "!" is refused beside its reason' '
	mkdir "sp/incoming/!.err" &&
	printf "name: n6\ncommand: x\nmax_nodes: 0\n" >"sp/incoming/!" &&
	printf "name: n7\n%s\n" "$good" >sp/incoming/n7.yaml &&
	bounded bf-submit --intake -d sp 2>err &&
	test -d "sp/incoming/!.err" && test -f "sp/rejected/!" &&
	echo "incoming/!:3: max_nodes must be a whole number from 1 to 1000000, not '"'0'"'" >expect &&
	test_cmp expect "sp/rejected/!.err" &&
	test -f sp/jobs/n7.yaml && rm sp/jobs/n7.yaml &&
	grep -c "left incoming/!.err in place: a directory" err >count &&
	echo 1 >expect && test_cmp expect count &&
	rmdir "sp/incoming/!.err"
'

test_expect_success 'the intake: a bad file "y.err" is kept as y.err.1, never taken for the reason of "y"' '
	printf "name: n8\ncommand: x\nmax_nodes: 0\n" >sp/incoming/y.err && cp sp/incoming/y.err y.err.orig &&
	bounded bf-submit --intake -d sp 2>err &&
	printf "name: n9\ncommand: x\nmax_nodes: -1\n" >sp/incoming/y &&
	bounded bf-submit --intake -d sp 2>>err &&
	ls sp/rejected | grep "^y" >actual &&
	printf "y\ny.err\ny.err.1\ny.err.1.err\n" >expect && test_cmp expect actual &&
	cmp y.err.orig sp/rejected/y.err.1 &&
	grep -q "^incoming/y.err:3: " sp/rejected/y.err.1.err &&
	grep -q "^incoming/y:3: " sp/rejected/y.err
'

# Nothing in rejected/ is ever replaced (issue #17): a reason a crash
# left without its file is another refusal's unless it says word for word
# the same, for the same submitter; a second refused name gets a suffix.
test_expect_success 'the intake: a second refused "z" keeps the first z and z.err' '
	printf "name: n20\ncommand: x\nmax_nodes: 0\n" >sp/incoming/z &&
	bounded bf-submit --intake -d sp 2>err &&
	cp sp/rejected/z z.first && cp sp/rejected/z.err z.first.err &&
	printf "name: n21\ncommand: x\nmax_nodes: -2\n" >sp/incoming/z &&
	bounded bf-submit --intake -d sp 2>err &&
	cmp z.first sp/rejected/z && cmp z.first.err sp/rejected/z.err &&
	grep -q "not .-2.$" sp/rejected/z.1.err && grep -q "n21" sp/rejected/z.1
'

test_expect_success 'the intake: a reason a crash left alone is never replaced by another one' '
	printf "name: n22\ncommand: x\nmax_nodes: 0\n" >sp/incoming/w &&
	BF_FAULT=intake-after-reason bf-submit --intake -d sp 2>err;
	test $? -eq 137 && test -f sp/rejected/w.err && test ! -e sp/rejected/w &&
	cp sp/rejected/w.err w.orphan && rm sp/incoming/w &&
	printf "name: n23\ncommand: x\nmax_nodes: -3\n" >sp/incoming/w &&
	bounded bf-submit --intake -d sp 2>err &&
	cmp w.orphan sp/rejected/w.err &&
	test -f sp/rejected/w.1 && grep -q "not .-3.$" sp/rejected/w.1.err &&
	test ! -e sp/rejected/w
'

if test_have_root; then
	test_expect_success 'the intake: another submitter'"'"'s reason, the same words, is not taken for one'"'"'s own' '
		printf "name: n24\ncommand: x\nmax_nodes: 0\n" >sp/incoming/v &&
		chown 4321:4321 sp/incoming/v &&
		BF_FAULT=intake-after-reason bf-submit --intake -d sp 2>err;
		test $? -eq 137 && test "$(stat -c %u sp/rejected/v.err)" = 4321 &&
		cp sp/rejected/v.err v.orphan && rm sp/incoming/v &&
		printf "name: n24\ncommand: x\nmax_nodes: 0\n" >sp/incoming/v &&
		chown 4322:4322 sp/incoming/v &&
		bounded bf-submit --intake -d sp 2>err &&
		cmp v.orphan sp/rejected/v.err &&
		test "$(stat -c %u sp/rejected/v.err)" = 4321 &&
		test "$(stat -c %u:%u sp/rejected/v.1 sp/rejected/v.1.err | tr "\n" " ")" = "4322:4322 4322:4322 " &&
		cmp v.orphan sp/rejected/v.1.err
	'
else
	test_skip 'the intake: another submitter'"'"'s reason, the same words, is not taken for one'"'"'s own' 'needs root to chown'
fi

# One user's file must never stop the intake of the others: a file that
# cannot be moved or removed (immutable here) is left where it is, said
# once, and the rest is decided; bf-watch goes on as well.
if test_have_root && touch imm.probe && chattr +i imm.probe 2>/dev/null; then
	chattr -i imm.probe
	test_expect_success 'the intake: a file that cannot be moved does not stop the others' '
		printf "name: n10\ncommand: x\nmax_nodes: 0\n" >sp/incoming/a-stuck &&
		printf "name: n11\n%s\n" "$good" >sp/incoming/b-stuck.yaml &&
		printf "name: n12\ncommand: x\nmax_nodes: 0\n" >sp/incoming/c-bad &&
		printf "name: n13\n%s\n" "$good" >sp/incoming/d-good.yaml &&
		chattr +i sp/incoming/a-stuck sp/incoming/b-stuck.yaml &&
		bounded bf-submit --intake -d sp 2>err; rc=$?;
		chattr -i sp/incoming/a-stuck sp/incoming/b-stuck.yaml &&
		cat err && test $rc -eq 0 &&
		grep -q "^bf-submit: left incoming/a-stuck in place: unable to move it to rejected/a-stuck: Operation not permitted$" err &&
		grep -q "^bf-submit: accepted incoming/b-stuck.yaml as jobs/n11.yaml but unable to remove it: Operation not permitted" err &&
		test -f sp/rejected/c-bad.err && test -f sp/jobs/n13.yaml &&
		test ! -e sp/rejected/a-stuck.err &&
		bounded bf-submit --intake -d sp 2>err &&
		test -f sp/rejected/a-stuck.err && test ! -e sp/incoming/b-stuck.yaml &&
		rm sp/jobs/n11.yaml sp/jobs/n13.yaml
	'
	test_expect_success 'bf-watch --once: a file that cannot be moved does not stop it' '
		printf "name: n14\ncommand: x\nmax_nodes: 0\n" >sp/incoming/e-stuck &&
		printf "name: n15\n%s\n" "$good" >sp/incoming/f-good.yaml &&
		printf "time: 1000\nsource: test\nidle: []\n" >sp/holes/current.yaml &&
		chattr +i sp/incoming/e-stuck &&
		bounded bf-watch --once --no-profile -d sp 2>err; rc=$?;
		chattr -i sp/incoming/e-stuck &&
		cat err && test $rc -eq 0 &&
		grep -q "left incoming/e-stuck in place: unable to move it" err &&
		test -f sp/jobs/n15.yaml && rm sp/jobs/n15.yaml sp/incoming/e-stuck
	'
else
	test_skip 'the intake: a file that cannot be moved does not stop the others' 'needs root and chattr +i'
	test_skip 'bf-watch --once: a file that cannot be moved does not stop it' 'needs root and chattr +i'
fi

# bf-watch runs the intake on every pass: an entry left in place is said
# once in its life, not once a pass.
test_expect_success 'bf-watch --once says an entry left in place once, however many passes' '
	mkfifo sp/incoming/g-fifo &&
	printf "name: n16\n%s\n" "$good" >sp/incoming/h-good.yaml &&
	printf "time: 1001\nsource: test\nidle: []\n" >sp/holes/current.yaml &&
	bounded bf-watch --once --no-profile -d sp 2>err &&
	cat err && test -f sp/jobs/n16.yaml &&
	grep -c "bf-solve\|decision\|accepted" err &&
	grep -c "left incoming/g-fifo in place: a FIFO" err >count &&
	echo 1 >expect && test_cmp expect count &&
	rm sp/incoming/g-fifo sp/jobs/n16.yaml sp/holes/current.yaml sp/plans/* &&
	rm -f sp/state.yaml
'

# A flood of incoming/ (issue #17): bf-watch decided every file queued
# before it solved again, so that a new holes file (nodes the main
# scheduler takes back) waited 12 s behind 26,000 files.  Now the intake
# stops for a new holes file, and takes at most 0.25 s a pass: the
# decision for the holes comes before the flood's refusals.  1,000 files,
# not more: under a loaded CI machine every refusal's fsync is slow, and
# start_watch gives bf-watch 80 s of life (before the fix, 579 of 3,000
# refusals came first).
test_expect_success 'bf-watch answers a new holes file before a flood of incoming/' '
	mkspool fl && holes fl 1000 "n[01-04]" &&
	job fl w1 2 "exec sleep 300" &&
	start_watch fl && wait_for 20 grep -q "^  w1: {nodes: 2" fl/state.yaml &&
	mkdir flood && awk "BEGIN { for (i = 0; i < 1000; i++) {
		f = sprintf(\"flood/f%05d\", i); print \"name: x\" >f; close(f) } }" &&
	mv flood/* fl/incoming/ && holes fl 2000 "n[03-04]" &&
	wait_for 180 grep -q "^time: 2000$" fl/plans/current.yaml &&
	wait_for 180 eval "test -z \"\$(ls -A fl/incoming)\"" &&
	stop_watch && kill_jobs fl &&
	awk "/rejected incoming\/f/ { n++ }
	    /decision: trigger [a-zA-Z]*; plan 2000-/ { print n + 0; exit }" watch.log >refused.before &&
	cat refused.before && test -s refused.before &&
	test "$(cat refused.before)" -lt 64 &&
	test $(grep -c "rejected incoming/f" watch.log) -eq 1000
'

# What rejected/ and history/ keep is the administrator's to bound
# (issue #17): refusals older than --keep-rejected DAYS (default 30) go,
# by their reasons' change time, which their submitters cannot set back;
# --keep-models N keeps the models of the N newest plans.  Nothing else
# of history/ goes, and nothing without being told.
test_expect_success 'bf-watch --keep-rejected: refusals older than that leave rejected/, the newer stay' '
	mkspool ret && i=0 && while [ $i -lt 20 ]; do
		printf "name: r$i\n" >ret/incoming/r$i; i=$((i + 1)); done &&
	bf-submit --intake -d ret 2>/dev/null &&
	mkdir ret/rejected/olddir && echo old >ret/rejected/olddir.err &&
	touch -m -d "2099-01-01" ret/rejected/r1.err &&
	bounded bf-watch --once --no-profile -d ret 2>err &&
	! grep -v "^bf-watch: \(start\|stop\): \|^bf-watch: created spool " err &&
	test $(ls ret/rejected | wc -l) -eq 42 &&
	sleep 2 && printf "name: late\n" >ret/incoming/late &&
	bounded bf-watch --once --no-profile --keep-rejected 0.00001 -d ret 2>err &&
	cat err && ls ret/rejected >actual &&
	printf "late\nlate.err\nolddir\nolddir.err\n" >expect && test_cmp expect actual &&
	grep -q "^bf-watch: retention: removed 20 refusals older than 1e-05 days from rejected/$" err &&
	grep -q "^bf-watch: retention: rejected/olddir is a directory, left where it is$" err
'

test_expect_success 'bf-watch --keep-models N: the models of the N newest plans stay, plans and audits too' '
	mkspool mod && job mod m1 2 "exec sleep 300" &&
	for t in 1000 2000 3000 4000; do
		case $t in 1000|3000) h="n[01-02]" ;; *) h="n[03-04]" ;; esac
		holes mod $t "$h" &&
		bounded bf-watch --once --no-profile --allow-root-jobs -g 1 -d mod 2>>mod.log || exit 1
	done &&
	ls mod/history/*.mps | wc -l >count && test $(cat count) -ge 4 &&
	ls mod/history | grep -c "^[0-9]*-[0-9a-f]*\.yaml$" >plans.before &&
	bf-audit -d mod --log >log && cut -d" " -f1 log >order &&
	tail -n 2 order | sed "s|^|mod/history/|; s|$|.mps|" >expect &&
	oldest=$(head -n 1 order) &&
	bounded bf-watch --once --no-profile --allow-root-jobs -g 1 --keep-models 2 -d mod 2>err;
	rc=$?; kill_jobs mod; cat err; test $rc -eq 0 &&
	ls mod/history/*.mps >actual && test_cmp expect actual &&
	ls mod/plans/*.mps | wc -l >count && echo 2 >expect && test_cmp expect count &&
	cur=$(sed -n "s/.*mps: \(plans\/[^}]*\)}$/\1/p" mod/plans/current.yaml) &&
	test -f "mod/$cur" &&
	ls mod/history | grep -c "^[0-9]*-[0-9a-f]*\.yaml$" >plans.after &&
	test_cmp plans.before plans.after &&
	grep -q "^bf-watch: retention: removed [0-9]* models beyond those of the newest 2 plans from plans/ and history/$" err &&
	bf-audit -d mod "$oldest" >audit && grep -q ": identical$" audit
'

# Hostile names of the incoming files themselves (the intake only: they
# never come from bf-submit, which names files after the job).  Messages
# and reasons stay one line, control characters shown as "?".
test_expect_success 'the intake: control characters in a file name stay out of messages' '
	printf "name: n1\ncommand: x\nmax_nodes: 0\n" >"sp/incoming/$(printf "evil\nname\033[31m.yaml")" &&
	bounded bf-submit --intake -d sp 2>err &&
	test $(wc -l <err) -eq 1 &&
	echo "bf-submit: rejected incoming/evil?name?[31m.yaml as rejected/evil?name?[31m.yaml: incoming/evil?name?[31m.yaml:3: max_nodes must be a whole number from 1 to 1000000, not '"'0'"'" >expect &&
	test_cmp expect err &&
	echo "incoming/evil?name?[31m.yaml:3: max_nodes must be a whole number from 1 to 1000000, not '"'0'"'" >expect &&
	test_cmp expect "sp/rejected/evil?name?[31m.yaml.err"
'

test_expect_success 'the intake: a file name that is not UTF-8 is shown with "?"' '
	printf "name: n2\ncommand: x\nmax_nodes: 0\n" >"sp/incoming/$(printf "bad\377name")" &&
	bounded bf-submit --intake -d sp 2>err &&
	echo "incoming/bad?name:3: max_nodes must be a whole number from 1 to 1000000, not '"'0'"'" >expect &&
	test_cmp expect "sp/rejected/bad?name.err"
'

test_expect_success 'the intake: a file name starting with "-" is a name like any other' '
	printf "name: n3\ncommand: x\nmax_nodes: 0\n" >sp/incoming/-rf &&
	bounded bf-submit --intake -d sp 2>err &&
	echo "incoming/-rf:3: max_nodes must be a whole number from 1 to 1000000, not '"'0'"'" >expect &&
	test_cmp expect sp/rejected/-rf.err
'

test_expect_success 'the intake: a 255-byte file name is kept, shortened, in rejected/' '
	long=$(printf "L%.0s" $(seq 255)) &&
	printf "name: n4\ncommand: x\nmax_nodes: 0\n" >sp/incoming/$long &&
	bounded bf-submit --intake -d sp 2>err &&
	short=$(printf "L%.0s" $(seq 196))... &&
	echo "incoming/$long:3: max_nodes must be a whole number from 1 to 1000000, not '"'0'"'" >expect &&
	test_cmp expect sp/rejected/$short.err &&
	test -f sp/rejected/$short
'

test_expect_success 'the intake: a good job under a hostile file name is accepted' '
	printf "name: n5\ncommand: x\nmax_nodes: 1\n" >"sp/incoming/$(printf "ok\033]0;title\007")" &&
	bounded bf-submit --intake -d sp 2>err &&
	echo "bf-submit: accepted incoming/ok?]0;title? as jobs/n5.yaml (uid $(id -u))" >expect &&
	test_cmp expect err &&
	grep -F "source: {file: \"ok\\x1b]0;title\\x07\"" sp/jobs/n5.yaml
'

test_expect_success 'after all of it: incoming/ and tmp/ are empty, jobs/ holds the good ones' '
	find sp/incoming sp/tmp -mindepth 1 >left && test_must_be_empty left &&
	ls sp/jobs >actual &&
	printf "%s\n" lead0.yaml n5.yaml negzero.yaml >expect &&
	test_cmp expect actual
'

test_done
