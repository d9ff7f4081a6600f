#!/bin/sh
# bf-submit refuses every kind of bad job file with one exact line and exit 65.
. "$(dirname "$0")/lib.sh"

# bad NAME 'expected message' < content: one case.
bad() {
	cat >"$1.yaml"
	printf 'bf-submit: %s\n' "$2" >"$1.expect"
}

good_head='command: python3 train.py
max_nodes: 8'

printf '' | bad empty 'empty.yaml:1: empty job file'
printf '%s\n' '# only a comment' | bad comment 'comment.yaml:1: empty job file'
printf -- '- a\n- b\n' | bad toplist 'toplist.yaml:1: a job file must be a mapping of keys to values, not a list'
printf 'just text\n' | bad scalar 'scalar.yaml:1: a job file must be a mapping of keys to values, not a scalar'
printf 'name: [a\ncommand: x\n' | bad syntax 'syntax.yaml:2: YAML syntax error: did not find expected '"','"' or '"']'"
printf '%s\n' "$good_head" | bad noname 'noname.yaml:1: name is missing'
printf 'name: a\nmax_nodes: 2\n' | bad nocommand 'nocommand.yaml:1: command is missing'
printf 'name: a\ncommand: x\n' | bad nomax 'nomax.yaml:1: max_nodes is missing'
printf '%s\nname: a/b\n' "$good_head" | bad slash "slash.yaml:3: name 'a/b' is not a valid job name (letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64)"
printf '%s\nname: "-x"\n' "$good_head" | bad dash "dash.yaml:3: name '-x' is not a valid job name (letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64)"
printf '%s\nname: ..\n' "$good_head" | bad dotdot "dotdot.yaml:3: name '..' is not a valid job name (letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64)"
long=$(printf 'x%.0s' $(seq 65))
printf '%s\nname: %s\n' "$good_head" "$long" | bad longname "longname.yaml:3: name '$(printf 'x%.0s' $(seq 44))...' is not a valid job name (letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64)"
printf '%s\nname: "a\\tb"\n' "$good_head" | bad control "control.yaml:3: name 'a?b' is not a valid job name (letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64)"
printf 'name: a\ncommand: "  "\nmax_nodes: 2\n' | bad emptycmd 'emptycmd.yaml:2: command is empty'
printf 'name: a\ncommand: {run: x}\nmax_nodes: 2\n' | bad mapcmd 'mapcmd.yaml:2: command must be text, not a mapping'
printf '%s\nname: a\nmin_nodes: 0\n' "$good_head" | bad minzero "minzero.yaml:4: min_nodes must be a whole number from 1 to 1000000, not '0'"
printf '%s\nname: a\nmin_nodes: -3\n' "$good_head" | bad minneg "minneg.yaml:4: min_nodes must be a whole number from 1 to 1000000, not '-3'"
printf 'name: a\ncommand: x\nmax_nodes: 1.5\n' | bad maxfloat "maxfloat.yaml:3: max_nodes must be a whole number from 1 to 1000000, not '1.5'"
printf 'name: a\ncommand: x\nmax_nodes: 0x10\n' | bad maxhex "maxhex.yaml:3: max_nodes must be a whole number from 1 to 1000000, not '0x10'"
printf 'name: a\ncommand: x\nmax_nodes: "4"\n' | bad maxquoted 'maxquoted.yaml:3: max_nodes must be a whole number without quotes: 4, not "4" (text)'
# Whole numbers in another notation, and numbers in quotes: the message
# says what is wrong and what is taken (#32).
printf '%s\nname: a\nsamples: 1e6\n' "$good_head" | bad samplesexp "samplesexp.yaml:4: samples must be written in digits: 1000000, not '1e6' (a whole number from 1 to 1000000000000000000)"
printf '%s\nname: a\nsamples: 1.5\n' "$good_head" | bad samplesfrac "samplesfrac.yaml:4: samples must be a whole number from 1 to 1000000000000000000, not '1.5'"
printf '%s\nname: a\nsamples: 1e19\n' "$good_head" | bad samplesbig "samplesbig.yaml:4: samples must be a whole number from 1 to 1000000000000000000, not '1e19'"
printf '%s\nname: a\nscaling:\n  1: 500\n  2: "1000"\n' "$good_head" | bad ratequoted 'ratequoted.yaml:6: a scaling rate must be a number without quotes: 1000, not "1000" (text)'
# A key a slip away from one the file does not give is refused (#32).
printf 'name: toy\ncommand: x\nsmaples: 1000\nmax_nodes: 2\n' | bad typo "typo.yaml:3: unknown key 'smaples' (did you mean 'samples'?)"
printf '%s\nname: a\nmin_node: 2\n' "$good_head" | bad typo2 "typo2.yaml:4: unknown key 'min_node' (did you mean 'min_nodes'?)"
printf '%s\nname: a\nrescale-up: 2\n' "$good_head" | bad typo3 "typo3.yaml:4: unknown key 'rescale-up' (did you mean 'rescale_up'?)"
printf '%s\nname: a\nScaling:\n  1: 2\n' "$good_head" | bad typo4 "typo4.yaml:4: unknown key 'Scaling' (did you mean 'scaling'?)"
printf 'name: a\ncomment: x\nmax_nodes: 2\n' | bad typo5 "typo5.yaml:2: unknown key 'comment' (did you mean 'command'?)"
printf '%s\nname: a\nworker_restart: 2\n' "$good_head" | bad typo6 "typo6.yaml:4: unknown key 'worker_restart' (did you mean 'worker_restarts'?)"
printf '%s\nname: a\nscaling:\n  "2": 1000\n' "$good_head" | bad countquoted 'countquoted.yaml:5: a scaling node count must be a whole number without quotes: 2, not "2" (text)'
printf 'name: a\ncommand: x\nmax_nodes: 2000000\n' | bad maxbig "maxbig.yaml:3: max_nodes must be a whole number from 1 to 1000000, not '2000000'"
printf 'name: a\ncommand: x\nmax_nodes: 99999999999999999999\n' | bad overflow "overflow.yaml:3: max_nodes must be a whole number from 1 to 1000000, not '99999999999999999999'"
printf 'name: a\ncommand: x\nmin_nodes: 4\nmax_nodes: 2\n' | bad maxbelow 'maxbelow.yaml:4: max_nodes (2) is below min_nodes (4)'
printf '%s\nname: a\nrescale_up: .inf\n' "$good_head" | bad inf "inf.yaml:4: rescale_up must be a number from 0 to 86400, not '.inf'"
printf '%s\nname: a\nrescale_down: .nan\n' "$good_head" | bad nan "nan.yaml:4: rescale_down must be a number from 0 to 86400, not '.nan'"
printf '%s\nname: a\nrescale_up: -1\n' "$good_head" | bad negrescale "negrescale.yaml:4: rescale_up must be a number from 0 to 86400, not '-1'"
printf '%s\nname: a\nsamples: 0\n' "$good_head" | bad samples0 "samples0.yaml:4: samples must be a whole number from 1 to 1000000000000000000, not '0'"
printf '%s\nname: a\nweight: 0\n' "$good_head" | bad weight0 'weight0.yaml:4: weight must be above 0'
printf '%s\nname: a\nweight: -2\n' "$good_head" | bad weightneg "weightneg.yaml:4: weight must be a number from 0 to 1e+06, not '-2'"
printf '%s\nname: a\nslots_per_node: 0\n' "$good_head" | bad slots0 "slots0.yaml:4: slots_per_node must be a whole number from 1 to 1024, not '0'"
printf '%s\nname: a\nscaling: {}\n' "$good_head" | bad scalingempty "scalingempty.yaml:4: scaling must be a mapping of node counts to samples per second, like '1: 5218.8'"
printf '%s\nname: a\nscaling: [1, 2]\n' "$good_head" | bad scalinglist "scalinglist.yaml:4: scaling must be a mapping of node counts to samples per second, like '1: 5218.8'"
printf '%s\nname: a\nscaling:\n  0: 10\n' "$good_head" | bad scalingzero "scalingzero.yaml:5: a scaling node count must be a whole number from 1 to 1000000, not '0'"
printf '%s\nname: a\nscaling:\n  1: 10\n  2: 0\n' "$good_head" | bad rate0 'rate0.yaml:6: the rate at 2 nodes must be above 0 samples per second'
printf '%s\nname: a\nscaling:\n  1: fast\n' "$good_head" | bad ratetext "ratetext.yaml:5: a scaling rate must be a number from 0 to 1e+15, not 'fast'"
printf '%s\nname: a\nscaling:\n  4: 10\n  04: 11\n' "$good_head" | bad dupcount "dupcount.yaml:6: scaling gives 4 nodes twice (first at line 5)"
printf '%s\nname: a\nname: b\n' "$good_head" | bad dupkey "dupkey.yaml:4: duplicate key 'name' (first at line 3)"
printf '%s\nname: a\nscaling:\n  1: 10\n  1: 11\n' "$good_head" | bad dupscaling "dupscaling.yaml:6: duplicate key '1' (first at line 5)"
printf 'name: &n a\ncommand: x\nmax_nodes: 2\n' | bad anchor 'anchor.yaml:1: anchors and aliases are not supported'
printf 'name: !!str a\ncommand: x\nmax_nodes: 2\n' | bad tag 'tag.yaml:1: tags are not supported'
printf '%s\nname: a\n---\nname: b\n' "$good_head" | bad twodocs 'twodocs.yaml:4: more than one YAML document in one file'
{ printf '%s\nname: a\nx: ' "$good_head"; printf '[%.0s' $(seq 70); printf ']%.0s' $(seq 70); echo; } |
	bad deep 'deep.yaml:4: nested too deeply'
printf '%s\nname: a\0\n' "$good_head" | bad nul 'nul.yaml:3: YAML syntax error: control characters are not allowed'

for c in $(ls *.expect | sed 's/\.expect$//'); do
	test_expect_success "refuses $c" "
		test_expect_code 65 bf-submit -n $c.yaml 2>$c.err &&
		test_cmp $c.expect $c.err
	"
done

test_expect_success 'a file over 1 MiB is refused unread' '
	head -c 1048577 /dev/zero | tr "\\0" "#" >big.yaml &&
	test_expect_code 65 bf-submit -n big.yaml 2>err &&
	echo "bf-submit: big.yaml: larger than 1048576 bytes" >expect &&
	test_cmp expect err
'

test_expect_success 'a missing file exits 66' '
	test_expect_code 66 bf-submit -n nosuch.yaml 2>err &&
	echo "bf-submit: unable to open nosuch.yaml: No such file or directory" >expect &&
	test_cmp expect err
'

test_expect_success 'usage errors exit 64' '
	test_expect_code 64 bf-submit 2>err &&
	grep "^usage: bf-submit \[-hnV\] \[-d SPOOL\] FILE\.\.\.$" err &&
	test_expect_code 64 bf-submit -Z x.yaml 2>/dev/null &&
	test_expect_code 64 bf-submit --intake extra 2>/dev/null
'

test_expect_success 'one bad file among good ones enters nothing' '
	printf "%s\nname: good1\n" "$good_head" >good1.yaml &&
	test_expect_code 65 bf-submit -d sp good1.yaml maxbelow.yaml 2>err &&
	find sp/incoming sp/tmp -mindepth 1 >listing &&
	test_must_be_empty listing
'

test_expect_success 'two files naming the same job are refused' '
	cp good1.yaml again.yaml &&
	test_expect_code 65 bf-submit -n good1.yaml again.yaml 2>err &&
	echo "bf-submit: again.yaml:3: job name '"'good1'"' is also given by good1.yaml" >expect &&
	test_cmp expect err
'

test_expect_success 'keys far from every known one, or near one the file gives, are warned about and taken' '
	printf "%s\nname: w\ncomment: near command, given\nnam: near name, given\ncolour: red\nx: 1\n" "$good_head" >far.yaml &&
	bf-submit -n far.yaml 2>err &&
	cat >expect <<-\EOT &&
	bf-submit: far.yaml:4: unknown key '"'comment'"' ignored
	bf-submit: far.yaml:5: unknown key '"'nam'"' ignored
	bf-submit: far.yaml:6: unknown key '"'colour'"' ignored
	bf-submit: far.yaml:7: unknown key '"'x'"' ignored
	EOT
	test_cmp expect err
'

test_expect_success 'unknown keys and bftrainer keys are warned about, not fatal' '
	printf "%s\nname: w\ncolour: red\nowner: {uid: 0}\n" "$good_head" >warn.yaml &&
	bf-submit -n warn.yaml 2>err &&
	cat >expect <<-\EOT &&
	bf-submit: warn.yaml:4: unknown key '"'colour'"' ignored
	bf-submit: warn.yaml:5: owner is set by bftrainer, ignored
	EOT
	test_cmp expect err
'

test_done
