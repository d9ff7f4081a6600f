#!/bin/sh
# bf-sim refuses bad input with the file and line, and bad usage with 64;
# a failed run leaves no results behind.
. "$(dirname "$0")/lib.sh"

D="$T_DIR/data/sim"
HEAD=name,model,submit_s,min_nodes,max_nodes,samples,rescale_up_s,rescale_down_s

sim() {	# jobs curves [option...]
	_j=$1 _c=$2
	shift 2
	bf-sim --idle-trace "$D/tiny.csv" --jobs "$_j" --curves "$_c" \
		-o out --no-plot "$@"
}

bad_jobs() {	# title message line...
	_title=$1 _msg=$2
	shift 2
	{ echo "$HEAD"; printf '%s\n' "$@"; } >"jobs-$test_count.csv"
	echo "bf-sim: jobs-$test_count.csv:$_msg" >"want-$test_count"
	test_expect_success "$_title" "
		test_expect_code 65 sim jobs-$test_count.csv '$D/curves.csv' \
			2>err &&
		test_cmp want-$test_count err &&
		test ! -e out
	"
}

bad_jobs 'a word for a count' \
	"3: min_nodes 'x' is not a whole number from 1 to 1000000" \
	a,lin,0,1,4,100,2,1 b,lin,0,x,4,100,2,1
bad_jobs 'a short line, after a blank one' '4: no field samples' \
	a,lin,0,1,4,100,2,1 '' b,lin,0,1,4
bad_jobs 'max below min' \
	"2: max_nodes '1' is not a whole number from 2 to 1000000" \
	a,lin,0,2,1,100,2,1
bad_jobs 'a negative rescale cost' \
	"2: rescale_up_s '-1' is not a number from 0 to 86400" \
	a,lin,0,1,4,100,-1,1
bad_jobs 'a model without a curve' "3: no single curve for model 'resnet'" \
	a,lin,0,1,4,100,2,1 b,resnet,0,1,4,100,2,1
bad_jobs 'a name used twice' "4: job name 'a' is also on line 2" \
	a,lin,0,1,4,100,2,1 b,lin,0,1,4,100,2,1 a,lin,5,1,4,100,2,1
bad_jobs 'a bad job name' "2: name 'a b' is not a valid job name" \
	'a b,lin,0,1,4,100,2,1'
bad_jobs 'an unterminated quote' '2: unterminated quoted field' \
	'"a,lin,0,1,4,100,2,1'

test_expect_success 'a missing column is named, at the header' '
	echo "name,model,submit_s,min_nodes,max_nodes,samples" >short.csv &&
	test_expect_code 65 sim short.csv "$D/curves.csv" 2>err &&
	echo "bf-sim: short.csv:1: no column '\''rescale_up_s'\'' in the header" >want &&
	test_cmp want err
'

test_expect_success 'quoted fields are read' '
	{ echo "$HEAD"; echo "\"a\",\"lin\",0,1,4,100,2,1"; } >quoted.csv &&
	sim quoted.csv "$D/curves.csv" --to 400 &&
	grep -x "jobs_finished: 1" out/summary.yaml &&
	rm -r out
'

test_expect_success 'two rates for one count of a model' '
	printf "model,nodes_or_gpus,throughput\nm,1,5\nm,2,9\nm,1,6\n" >dup.csv &&
	test_expect_code 65 sim "$D/tiny-jobs.csv" dup.csv 2>err &&
	echo "bf-sim: dup.csv:4: a second rate for m at 1 nodes (line 2)" >want &&
	test_cmp want err
'

test_expect_success 'a curve source filters the rows (ELSEWHERE has lin at 8)' '
	test_expect_code 65 sim "$D/tiny-jobs.csv" "$D/curves.csv" \
		--curve-source NOWHERE 2>err &&
	grep -q "tiny-jobs.csv:2: no single curve for model '\''lin'\''" err
'

test_expect_success 'missing files: 66' '
	test_expect_code 66 sim nope.csv "$D/curves.csv" 2>err &&
	grep -q "nope.csv" err &&
	test_expect_code 66 bf-sim --idle-trace nope.csv --jobs "$D/tiny-jobs.csv" \
		--curves "$D/curves.csv" -o out 2>err &&
	test_expect_code 66 bf-sim --compare nowhere 2>err
'

test_expect_success 'a bad trace row is reported with its line' '
	printf "t_s,node,idle\n0,a,0\n5,a,2\n" >bad.csv &&
	test_expect_code 65 bf-sim --idle-trace bad.csv --jobs "$D/tiny-jobs.csv" \
		--curves "$D/curves.csv" -o out 2>err &&
	grep -q "^bf-sim: bad.csv:3: " err
'

test_expect_success 'an owner that is not a uid, with its line' '
	printf "%s\n" "$HEAD,owner" a,lin,0,1,4,100,2,1,1000 b,lin,0,1,4,100,2,1,-3 \
		>owners.csv &&
	test_expect_code 65 sim owners.csv "$D/curves.csv" 2>err &&
	echo "bf-sim: owners.csv:3: owner '"'-3'"' is not a whole number from 0 to 4294967294" >expect &&
	test_cmp expect err &&
	test ! -e out
'

test_expect_success '--admin-policy: a policy bf-solve refuses (65), a missing one (66)' '
	printf "users:\n  4242: {max_node: 1}\n" >pol.yaml &&
	test_expect_code 65 sim "$D/tiny-jobs.csv" "$D/curves.csv" \
		--admin-policy pol.yaml 2>err &&
	echo "bf-sim: pol.yaml:2: unknown key '"'max_node'"'" >expect &&
	test_cmp expect err &&
	test_expect_code 66 sim "$D/tiny-jobs.csv" "$D/curves.csv" \
		--admin-policy nope.yaml 2>err &&
	grep -q "^bf-sim: .*nope.yaml" err &&
	test ! -e out
'

for args in "" "-o out" "--jobs j --curves c -o out" \
	"--idle-trace t --swf s --jobs j --curves c -o out" \
	"--idle-trace t --jobs j --curves c" \
	"--idle-trace t --jobs j --curves c -o out extra" \
	"--swf s --jobs j --curves c -o out" \
	"--idle-trace t --jobs j --curves c -o out --policy best" \
	"--idle-trace t --jobs j --curves c -o out --max-jobs 0" \
	"--idle-trace t --jobs j --curves c -o out --nodes 1.5" \
	"--idle-trace t --jobs j --curves c -o out -T -1" \
	"--idle-trace t --jobs j --curves c -o out --from 10 --to 5" \
	"--idle-trace t --jobs j --curves c -o out --from yesterday" \
	"--idle-trace t --jobs j --curves c -o out --profile guess" \
	"--idle-trace t --jobs j --curves c -o out --admin-policy p --policy dp" \
	"--idle-trace t --jobs j --curves c -o out --admin-policy p --policy greedy" \
	"--idle-trace t --jobs j --curves c -o out --admin-policy p --profile online --voi" \
	"--compare a --admin-policy p" \
	"--compare" "--compare a -o out" "--bogus"; do
	test_expect_success "usage: bf-sim $args" "
		test_expect_code 64 bf-sim $args 2>err &&
		test -s err
	"
done

test_expect_success '-h prints the usage on stdout, -V the version' '
	bf-sim -h >out.txt &&
	grep -q "^usage: bf-sim --idle-trace" out.txt &&
	bf-sim -V >v &&
	grep -q "^bf-sim [0-9]" v
'

test_expect_success 'an output directory that cannot be made: 73' '
	: >file &&
	test_expect_code 73 bf-sim --idle-trace "$D/tiny.csv" \
		--jobs "$D/tiny-jobs.csv" --curves "$D/curves.csv" \
		-o file/sub --no-plot 2>err &&
	grep -q "file/sub" err
'

test_done
