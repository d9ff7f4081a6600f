#!/bin/sh
# bf-profile -d SPOOL: one profile per job with a log, written atomically
# and only when it changed; orphan logs, missing jobs and bad files.
. "$(dirname "$0")/lib.sh"

gen() {	# N:SECONDS... as in t2020
	echo "$@" | awk '
	BEGIN { r[1] = 5218.8; r[2] = 10582.5; r[4] = 20436.0; r[8] = 39584.0
		t = 1612915700; s = 0 }
	{ for (i = 1; i <= NF; i++) {
		split($i, f, ":"); n = f[1]; d = f[2]
		if (i > 1) { printf "%d %d %.0f\n", t, old, s; t += n > old ? 18 : 12 }
		for (e = t + d; t < e;) { t += 10; s += r[n] * 10; printf "%d %d %.0f\n", t, n, s }
		old = n } }'
}

job() {	# name
	printf "name: %s\ncommand: ./train\nmax_nodes: 8\n" "$1"
}

test_expect_success 'set up a spool with three jobs, two of them running' '
	for j in a b c; do job $j >$j.yaml; done &&
	bf-submit -d sp a.yaml b.yaml c.yaml >/dev/null &&
	bf-submit --intake -d sp 2>/dev/null &&
	gen 1:300 2:300 >sp/progress/a.log &&
	gen 2:300 >sp/progress/b.log
'

test_expect_success 'a profile for each job with a log, none for the other' '
	bf-profile -d sp 2>err &&
	test_must_be_empty err &&
	ls sp/profiles >actual && printf "a.yaml\nb.yaml\n" >expect &&
	test_cmp expect actual &&
	bf-profile sp/progress/a.log >expect &&
	test_cmp expect sp/profiles/a.yaml &&
	stat -c %a sp/profiles/a.yaml >mode && echo 644 >expect && test_cmp expect mode &&
	find sp/tmp -type f >left && test_must_be_empty left
'

test_expect_success 'a second run rewrites nothing: inode and mtime kept' '
	stat -c "%i %Y" sp/profiles/a.yaml sp/profiles/b.yaml >before &&
	sleep 1 &&
	bf-profile -d sp &&
	stat -c "%i %Y" sp/profiles/a.yaml sp/profiles/b.yaml >after &&
	test_cmp before after
'

test_expect_success 'a new report that moves the profile replaces it' '
	stat -c %i sp/profiles/b.yaml >before &&
	tail -1 sp/progress/b.log | awk "{ print \$1 + 10, 2, \$3 + 105825 }" >>sp/progress/b.log &&
	bf-profile -d sp b &&
	stat -c %i sp/profiles/b.yaml >after &&
	! test_cmp before after >/dev/null &&
	grep "^last_report: $(tail -1 sp/progress/b.log | cut -d" " -f1)\$" sp/profiles/b.yaml
'

test_expect_success '--advise: one line per job, jobs without a log included' '
	bf-profile --advise -d sp >actual &&
	cat >expect <<-\EOT &&
	a 4 efficiency 1.01 from 1 to 2 nodes: double
	b 4 one node count measured: double
	c 1 nothing measured: start at min_nodes
	EOT
	test_cmp expect actual
'

test_expect_success 'a log without a job is warned about and ignored' '
	gen 1:100 >sp/progress/ghost.log &&
	bf-profile -d sp 2>err &&
	echo "bf-profile: progress/ghost.log:1: no job ghost in jobs/, ignored" >expect &&
	test_cmp expect err &&
	test ! -e sp/profiles/ghost.yaml &&
	rm sp/progress/ghost.log
'

test_expect_success 'a spool that does not exist: 66, and it is not created' '
	test_expect_code 66 bf-profile -d nospool 2>err &&
	echo "bf-profile: no spool at nospool (from -d)" >expect &&
	test_cmp expect err && test ! -e nospool
'

test_expect_success 'a named job that does not exist: 66, the others still done' '
	rm sp/profiles/a.yaml &&
	test_expect_code 66 bf-profile -d sp zz a 2>err &&
	echo "bf-profile: no job zz in sp/jobs" >expect &&
	test_cmp expect err &&
	test -f sp/profiles/a.yaml
'

test_expect_success 'bad lines in a job log: warned with progress/NAME.log:LINE, exit 0' '
	printf "garbage\n" >>sp/progress/b.log &&
	bf-profile -d sp b 2>err &&
	n=$(wc -l <sp/progress/b.log) &&
	echo "bf-profile: progress/b.log:$n: not a report '"'UNIXTIME NODES SAMPLES'"': '"'garbage'"', skipped" >expect &&
	test_cmp expect err &&
	grep "^skipped_lines: 1$" sp/profiles/b.yaml
'

test_expect_success 'a symbolic link for a log is refused, not followed: 65' '
	echo "1 1 1" >secret && ln -s "$PWD/secret" sp/progress/c.log &&
	test_expect_code 65 bf-profile -d sp 2>err &&
	echo "bf-profile: progress/c.log: is a symbolic link, not followed" >expect &&
	grep -v "progress/b.log" err >actual && test_cmp expect actual &&
	test ! -e sp/profiles/c.yaml && test -f sp/profiles/b.yaml &&
	rm sp/progress/c.log
'

test_expect_success 'a damaged job file: 65, the other jobs still profiled' '
	rm sp/profiles/a.yaml &&
	printf "name: b\n" >sp/jobs/b.yaml &&
	test_expect_code 65 bf-profile -d sp 2>err &&
	echo "bf-profile: jobs/b.yaml:1: command is missing" >expect &&
	test_cmp expect err &&
	job b >sp/jobs/b.yaml &&
	test -f sp/profiles/a.yaml
'

if test_valgrind_usable; then
	test_expect_success 'bf-profile runs clean under valgrind' '
		vg bf-profile --advise -d sp >/dev/null &&
		gen 1:300 2:300 4:300 8:300 4:300 | sed "5s/.*/junk/" >v.log &&
		vg bf-profile -j a.yaml v.log >/dev/null 2>&1
	'
else
	test_skip 'bf-profile runs clean under valgrind' "$test_valgrind_why"
fi

test_done
