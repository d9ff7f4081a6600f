#!/bin/sh
# Jobs run as the owner of the file that submitted them: as root, with
# that user's uid and gid; not as root, only one's own jobs.  Root's
# programs refuse a spool that belongs to another uid.
. "$(dirname "$0")/lib.sh"
# Other uids run the programs and reach the spool: t/lib.sh.
test_public_trash

if ! test_have_root; then
	test_skip 'jobs of other users' 'needs root to make files of other uids'
	test_done
fi

as4321() {
	as 4321 "$@"
}

test_expect_success 'setup: a spool of uid 4321, jobs of uids 4321 and 1000' '
	mkspool sp && chown -R 4321:4321 sp &&
	holes sp 1000 "n[01-02]" &&
	job sp a 1 "exec $J" && chown 4321:4321 sp/incoming/a.yaml &&
	job sp b 1 "exec $J" && chown 1000:1000 sp/incoming/b.yaml &&
	chmod 644 sp/incoming/*.yaml &&
	as4321 bf-submit --intake -d sp 2>log &&
	grep "as jobs/a.yaml (uid 4321)" log &&
	grep "as jobs/b.yaml (uid 1000)" log &&
	as4321 bf-solve -d sp
'

test_expect_success 'not root: its own job runs, another uid'"'"'s is refused (78)' '
	test_expect_code 78 as4321 bf-apply -d sp -g 2 >out 2>err &&
	cat >expect <<-\EOT &&
	start a 0->1 n01
	refused b jobs/b.yaml: owned by uid 1000; not run by uid 4321 (run bf-apply as root or as that user)
	EOT
	test_cmp expect out &&
	echo "bf-apply: jobs/b.yaml: owned by uid 1000; not run by uid 4321 (run bf-apply as root or as that user)" >expect &&
	test_cmp expect err &&
	test -f sp/jobs/b.yaml && test ! -d sp/run/b &&
	wait_for 5 grep -q "^start a nodes=1 uid=4321 gid=4321$" sp/run/a/output &&
	test "$(stat -c %u sp/progress/a.log)" = 4321
'

# Root never trusts a spool of another uid (bf-spool(5), SECURITY): uid
# 4321 could have written any job file there, with any owner.
test_expect_success 'as root: the spool of uid 4321 is refused (78), nothing started' '
	for prog in "bf-apply -g 2" bf-solve "bf-submit --intake" \
	    "bf-watch --once --allow-root-jobs"; do
		test_expect_code 78 $prog -d sp >out 2>err || exit 1
		echo "${prog%% *}: sp: owned by uid 4321, not by root: refused (bf-spool(5), SECURITY)" >expect &&
		test_cmp expect err && test_must_be_empty out || exit 1
	done &&
	test ! -d sp/run/b
'

test_expect_success 'as root, in a root spool: the other uid'"'"'s job runs as that uid, never as root' '
	mkspool rsp && holes rsp 1000 "n[01-02]" &&
	job rsp b 1 "exec $J" && chown 1000:1000 rsp/incoming/b.yaml &&
	bf-submit --intake -d rsp 2>log && grep "as jobs/b.yaml (uid 1000)" log &&
	bf-solve -d rsp &&
	bf-apply -d rsp -g 2 >out 2>err &&
	echo "start b 0->1 n01" >expect && test_cmp expect out &&
	test_must_be_empty err &&
	wait_for 5 grep -q "^start b nodes=1 uid=1000 gid=1000$" rsp/run/b/output &&
	test "$(stat -c %u:%g rsp/progress/b.log)" = 1000:1000 &&
	test "$(stat -c %u rsp/run/b/output)" = 1000 &&
	pgid=$(sed -n "s/^pgid: //p" rsp/run/b/pid) &&
	test "$(ps -o uid= -p "$pgid" | tr -d " ")" = 1000
'

test_expect_success 'cleanup' '
	kill_jobs sp && kill_jobs rsp
'

test_done
