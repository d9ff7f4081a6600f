#!/bin/sh
# A spool that cannot be written: every program that writes into it exits
# 73 with one line naming the path and the reason (EROFS on a read-only
# file system, EACCES for a user in root's spool), leaves every file as it
# was and nothing in tmp/.  What needs no writing still works: checking,
# dry runs, and a user's delivery into incoming/, which is the way users
# submit.

# A tmpfs left mounted by a run killed outright, before lib.sh empties the
# trash directory it is mounted in.
_m="$(cd "$(dirname "$0")" && pwd)/trash/t0101-spool-unwritable/mnt"
for _m in "$_m" /tmp/bf-t0101-spool-unwritable.*/trash/mnt; do
	mountpoint -q "$_m" 2>/dev/null && { umount "$_m" || umount -l "$_m"; }
done
. "$(dirname "$0")/lib.sh"
# User nobody runs the programs and reaches the spool: t/lib.sh.
test_public_trash

# User nobody reads the trace too: a copy beside the spool.
cp "$T_DIR/data/holes/summit-c37-b29.csv" "$TRASH/" || exit 1
TRACE="$TRASH/summit-c37-b29.csv"
AT=42308	# b29n[03-18] idle
AT2=600000	# b29n[01-18] idle: another holes file

why_ro=
why_user=
if ! test_have_root; then
	why_ro="needs root to mount a tmpfs"
	why_user="needs root to act as another user"
elif ! command -v setpriv >/dev/null; then
	why_user="needs setpriv"
elif ! setpriv --reuid=nobody --regid=nogroup --clear-groups \
    test -x "$TRASH"; then
	why_user="user nobody cannot reach $TRASH"
fi

case_() {	# reason title body
	if [ -n "$1" ]; then test_skip "$2" "$1"
	else test_expect_success "$2" "$3"; fi
}

nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}


jobfile() {	# name
	printf 'name: %s\ncommand: exec sleep 600\nmax_nodes: 8\n' "$1"
	printf 'scaling:\n  1: 100\n  2: 150\n  4: 220\n'
}

for j in a b c x y; do jobfile $j >$j.yaml; done
printf 'name: p\ncommand: exec sleep 600\nmax_nodes: 4\n' >p.yaml
# Four reports: the first is warm-up, and a count is measured from three
# more (bf-profile(1)), so that p has a measured rate and gets nodes.
printf '1612915700 1 0\n1612915710 1 52188\n1612915720 1 104376\n1612915730 1 156564\n' >p.log
chmod 644 *.yaml p.log

# A spool up to a plan not yet enacted, and for every writer something to
# write: a file in incoming/, new holes, a progress log that grew.
ready() {	# spool
	mkspool "$1" && bf-submit --intake -d "$1" &&
	bf-submit -d "$1" a.yaml b.yaml c.yaml p.yaml >/dev/null &&
	bf-submit --intake -d "$1" 2>/dev/null &&
	bf-holes -d "$1" --idle-trace "$TRACE" --at $AT &&
	cp p.log "$1/progress/" && chmod 600 "$1/progress/p.log" && bf-profile -d "$1" &&
	bf-solve -d "$1" &&
	cp x.yaml "$1/incoming/" &&
	echo "1612915740 1 208752" >>"$1/progress/p.log"
}

# --- a read-only file system ------------------------------------------------

cleanup() {
	cd "$TRASH" 2>/dev/null || return
	if mountpoint -q mnt; then
		umount mnt 2>/dev/null || umount -l mnt
	fi
}

if [ -z "$why_ro" ]; then
	mkdir mnt
	trap cleanup EXIT
	trap 'exit 130' INT TERM HUP
	if ! mount -t tmpfs -o size=4m,mode=0755 none mnt 2>mount.err; then
		why_ro="mount -t tmpfs failed: $(head -1 mount.err)"
	fi
fi

case_ "$why_ro" 'setup: a spool with work for every writer, remounted read-only' '
	ready mnt/sp && snap mnt/sp >ro.before &&
	mount -o remount,ro mnt && ! touch mnt/sp/probe 2>/dev/null
'

# program, its arguments, what its one line says (a grep -x pattern)
ro() {	# title pattern command...
	_t=$1 _p=$2
	shift 2
	case_ "$why_ro" "read-only: $_t: 73, named, nothing changed" '
		test_expect_code 73 '"$*"' >out 2>err &&
		test_must_be_empty out &&
		one_line err "'"$_p"': Read-only file system" &&
		snap mnt/sp >after && test_cmp ro.before after &&
		tmp_clean mnt/sp
	'
}

ro 'bf-submit FILE' \
	'bf-submit: mnt/sp/incoming/y\.yaml: unable to create tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.y\.yaml' \
	bf-submit -d mnt/sp y.yaml
ro 'bf-submit --intake' \
	'bf-submit: unable to open mnt/sp/lock' \
	bf-submit --intake -d mnt/sp
ro 'bf-holes -d' \
	'bf-holes: mnt/sp/holes/current\.yaml: unable to create tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.current\.yaml' \
	bf-holes -d mnt/sp --idle-trace "$TRACE" --at $AT2
ro 'bf-profile -d' \
	'bf-profile: mnt/sp/profiles/p\.yaml: unable to create tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.p\.yaml' \
	bf-profile -d mnt/sp
ro 'bf-solve -d' \
	'bf-solve: mnt/sp/plans/[0-9]*-[0-9a-f]*\.mps: unable to create tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.[0-9]*-[0-9a-f]*\.mps' \
	bf-solve -d mnt/sp
ro 'bf-apply' \
	'bf-apply: unable to open mnt/sp/lock' \
	bf-apply -d mnt/sp --allow-root-jobs
ro 'bf-watch --once' \
	'bf-watch: unable to open mnt/sp/lock' \
	timeout 60 bf-watch -d mnt/sp --once --allow-root-jobs

case_ "$why_ro" 'read-only: what only reads still works' '
	bf-submit -n -d mnt/sp y.yaml &&
	bf-apply -n -d mnt/sp --allow-root-jobs >out &&
	test $(grep -c "^start " out) -eq 4 &&
	bf-solve mnt/sp/holes/current.yaml mnt/sp/jobs/*.yaml >plan &&
	grep -q "^jobs:" plan &&
	snap mnt/sp >after && test_cmp ro.before after
'

case_ "$why_ro" 'read-only: writable again, the chain goes on' '
	mount -o remount,rw mnt &&
	bf-submit -d mnt/sp y.yaml >/dev/null &&
	bf-submit --intake -d mnt/sp 2>/dev/null &&
	ls mnt/sp/jobs >actual && printf "%s.yaml\n" a b c p x y >expect &&
	test_cmp expect actual &&
	bf-holes -d mnt/sp --idle-trace "$TRACE" --at $AT2 &&
	grep -q "b29n\[01-18\]" mnt/sp/holes/current.yaml &&
	bf-profile -d mnt/sp &&
	grep -qx "last_report: 1612915740" mnt/sp/profiles/p.yaml &&
	bf-solve -d mnt/sp &&
	bf-apply -n -d mnt/sp --allow-root-jobs >out &&
	grep "^start " out | cut -d" " -f2 >actual &&
	printf "%s\n" a b c p x y >expect && test_cmp expect actual &&
	tmp_clean mnt/sp
'

# --- root's spool, used by another user -------------------------------------

case_ "$why_user" 'setup: root'"'"'s spool, jobs submitted by user nobody' '
	mkspool usp && bf-submit --intake -d usp &&
	nobody bf-submit -d "$PWD/usp" a.yaml b.yaml p.yaml >out &&
	printf "$PWD/usp/incoming/%s.yaml\n" a b p >expect &&
	test_cmp expect out &&
	stat -c "%U %a" usp/incoming/a.yaml >actual &&
	echo "nobody 600" >expect && test_cmp expect actual &&
	bf-submit --intake -d usp 2>/dev/null &&
	grep -qx "owner: {uid: $(id -u nobody)}" usp/jobs/a.yaml &&
	bf-holes -d usp --idle-trace "$TRACE" --at $AT &&
	cp p.log usp/progress/ && chmod 600 usp/progress/p.log && bf-solve -d usp &&
	snap usp >u.before
'

# Job files are the spool owner's (bf-spool(5) SECURITY): a user's run of
# a program that reads them stops there, with 66.
case_ "$why_user" 'user nobody: jobs/ is not for it to read: bf-solve, bf-apply -n exit 66' '
	test_expect_code 66 nobody bf-solve -d usp >out 2>err &&
	test_must_be_empty out &&
	echo "bf-solve: unable to open jobs/a.yaml: Permission denied" >expect &&
	test_cmp expect err &&
	test_expect_code 66 nobody bf-apply -n -d usp >out 2>err &&
	test_must_be_empty out &&
	echo "bf-apply: unable to open jobs/a.yaml: Permission denied" >expect &&
	test_cmp expect err &&
	snap usp >after && test_cmp u.before after && tmp_clean usp
'

# To reach the writes, the job files are opened to all, as a site could.
case_ "$why_user" 'setup: job files and progress logs readable by all' '
	chmod 644 usp/jobs/*.yaml usp/progress/*.log && snap usp >u.before
'

user() {	# title pattern command...
	_t=$1 _p=$2
	shift 2
	case_ "$why_user" "user nobody: $_t: 73, named, nothing changed" '
		test_expect_code 73 nobody '"$*"' >out 2>err &&
		test_must_be_empty out &&
		one_line err "'"$_p"': Permission denied" &&
		snap usp >after && test_cmp u.before after &&
		tmp_clean usp
	'
}

user 'bf-submit --intake' \
	'bf-submit: unable to open usp/lock' \
	bf-submit --intake -d usp
user 'bf-holes -d' \
	'bf-holes: usp/holes/current\.yaml: unable to rename tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.current\.yaml to current\.yaml' \
	bf-holes -d usp --idle-trace "$TRACE" --at $AT2
user 'bf-profile -d' \
	'bf-profile: usp/profiles/p\.yaml: unable to rename tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.p\.yaml to p\.yaml' \
	bf-profile -d usp
user 'bf-solve -d' \
	'bf-solve: usp/plans/[0-9]*-[0-9a-f]*\.mps: unable to rename tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.[0-9]*-[0-9a-f]*\.mps to [0-9]*-[0-9a-f]*\.mps' \
	bf-solve -d usp
user 'bf-apply' \
	'bf-apply: unable to open usp/lock' \
	bf-apply -d usp
user 'bf-watch --once' \
	'bf-watch: unable to open usp/lock' \
	timeout 60 bf-watch -d usp --once

case_ "$why_user" 'user nobody: a new spool where it may not write: 73' '
	test_expect_code 73 nobody bf-submit -d usp/new a.yaml >out 2>err &&
	one_line err "bf-submit: unable to create usp/new: Permission denied" &&
	test ! -e usp/new
'

case_ "$why_user" 'user nobody: submitting and dry runs are allowed' '
	nobody bf-submit -d usp c.yaml >out &&
	echo "usp/incoming/c.yaml" >expect && test_cmp expect out &&
	nobody bf-submit -n -d usp x.yaml &&
	nobody bf-apply -n -d usp >out &&
	grep "^start " out | cut -d" " -f2 >actual &&
	printf "%s\n" a b >expect && test_cmp expect actual &&
	tmp_clean usp &&
	rm usp/incoming/c.yaml && snap usp >after && test_cmp u.before after
'

# Unmounted before test_done removes the scratch directory it is in.
[ -z "$why_ro" ] && cleanup
test_done
