#!/bin/sh
# A full disk (a small tmpfs as the spool): every program that writes into
# the spool exits 75 with one line naming the file and "No space left on
# device", loses nothing and leaves no partial file; once space returns,
# the chain resumes and reaches what it reaches on a roomy disk.  Space
# that runs out in the middle of a run: what was done is complete, the rest
# is still where it was.

# A tmpfs left mounted by a run killed outright, before lib.sh empties the
# trash directory it is mounted in.
for _m in mnt mnt2; do
	_m="$(cd "$(dirname "$0")" && pwd)/trash/t0100-disk-full/$_m"
	mountpoint -q "$_m" 2>/dev/null && { umount "$_m" || umount -l "$_m"; }
done
. "$(dirname "$0")/lib.sh"

TRACE="$T_DIR/data/holes/summit-c37-b29.csv"
AT=42308	# b29n[03-18] idle: 16 nodes
APPLY="--allow-root-jobs -g 1"

# --- helpers ---------------------------------------------------------------

# Every case runs, or every case is skipped with the one reason.
why_skip=
case_() {	# title body
	if [ -n "$why_skip" ]; then test_skip "$1" "$why_skip"
	else test_expect_success "$1" "$2"; fi
}

jobfile() {	# name: a job with measured scaling that writes nothing
	printf 'name: %s\ncommand: exec sleep 600\nmax_nodes: 8\n' "$1"
	printf 'rescale_up: 0.1\nrescale_down: 0.1\nscaling:\n'
	printf '  1: 100\n  2: 150\n  4: 220\n'
}

# Fill the tmpfs, then free PAGES pages (4 KiB each) of it again.
fill() {	# [pages]
	rm -f mnt/fill
	dd if=/dev/zero of=mnt/fill bs=4096 2>/dev/null
	if [ "$(stat -f -c %a mnt)" -ne 0 ]; then
		echo "fill: mnt is not full"
		return 1
	fi
	if [ "${1:-0}" -gt 0 ]; then
		truncate -s -$(($1 * 4096)) mnt/fill || return 1
	fi
	test "$(stat -f -c %a mnt)" -eq "${1:-0}"
}

unfill() {
	rm -f mnt/fill
}


# What two runs of the same chain must have alike, one line per file:
# its name and text, masked where they rightly differ: wall-clock times
# (the intake's, the state's, a job's start, a plan's enactment), pids,
# the solver's seconds, and digests and names made from those (jobs carry
# their intake time).  history/allocs.idx is appended to: a line a full
# disk cut short (ended by a tab) and a line a retry wrote again count
# as readers count them, not at all and once.
mask() {
	sed -E -e 's/[0-9a-f]{16}/H/g' \
		-e 's/\b(submitted|time|started|ended): [0-9]{10}$/\1: T/' \
		-e 's/^enacted: [0-9]{10}\.[0-9]{6}$/enacted: T/' \
		-e 's/^[0-9]{10}\.[0-9]{6} /T /' \
		-e 's/\b(supervisor|pgid): [0-9]+$/\1: P/' \
		-e 's/seconds: [0-9.e+-]+/seconds: S/'
}

# Each file as "\001PATH MODE " and its text, in find's order: one perl
# process for them all (a stat and a cat per file were two thirds of this
# script's processes, and most of its time under load).
norm() {	# spool
	(cd "$1" && find . -type f ! -path ./lock -exec perl -e '
		for my $f (@ARGV) {
			my @st = lstat $f;
			my $fh;
			unless (@st && open $fh, "<", $f) {
				warn "norm: $f: $!\n";
				next;
			}
			local $/;
			my $text = <$fh>;
			printf "\001%s %o %s", $f, $st[2] & 07777,
			    defined $text ? $text : "";
		}' {} +) | mask | sed '/\t/d' | uniq |
	    tr '\n\001' '|\n' | sed '/^$/d' | sort
}

# What a chain reached, without the decisions that led there (plans/,
# the plans and objects of history/).
outcome() {	# norm-file
	grep -v -e '^\./history/[0-9]' -e '^\./history/objects/' \
		-e '^\./plans/' "$1"
}

# How many jobs the spool's plan starts (1 at least): the local backend
# begins them together and then writes the state (bf-apply(1)), so a run
# that fails midway may leave the state without all of them, which the
# next run adopts.
may_lack() {	# spool
	_s=$(sed -n '/^  [^:]*: {nodes: [1-9][0-9]*, was: 0[,}]/p' \
		"$1/plans/current.yaml" 2>/dev/null | wc -l)
	echo $((_s > 1 ? _s : 1))
}

# How many running jobs the state lacks; a job in it that does not run
# is an error.  The backend acts first and the state follows, so after a
# failed run the state may lack the jobs just started (may_lack).
lag() {	# spool
	sed -n 's/^  \([^:]*\): {nodes: .*/\1/p' "$1/state.yaml" \
		2>/dev/null >lag.in
	while read -r _j; do
		if ! test -f "$1/run/$_j/lock" ||
		    flock -n -s "$1/run/$_j/lock" true; then
			echo "$_j is in the state but does not run" >&2
			return 1
		fi
	done <lag.in
	_n=0
	for _d in "$1"/run/*/; do
		[ -f "$_d/lock" ] || continue
		flock -n -s "$_d/lock" true && continue
		grep -qx "$(basename "$_d")" lag.in || _n=$((_n + 1))
	done
	echo $_n
}

# Every process with a file open under DIR, killed by its pid: a job
# whose pid record could not be written is beyond kill_jobs.
kill_holders() {	# dir
	_dir=$(cd "$1" 2>/dev/null && pwd) || return 0
	find /proc/[0-9]*/fd -lname "$_dir/*" 2>/dev/null | cut -d/ -f3 |
	sort -u | while read -r _p; do
		kill -KILL "$_p" 2>/dev/null
	done
	return 0
}

stop_all() {	# spool...
	for _s in "$@"; do
		kill_jobs "$_s"
		kill_holders "$_s"
	done
}

cleanup() {
	cd "$TRASH" || return
	stop_all ctl ctlw mnt
	for _m in mnt mnt2; do
		mountpoint -q $_m 2>/dev/null || continue
		_t=50
		while ! umount $_m 2>/dev/null && [ $_t -gt 0 ]; do
			sleep 0.1
			kill_holders $_m
			_t=$((_t - 1))
		done
		mountpoint -q $_m && umount -l $_m
	done
}

if ! test_have_root; then
	why_skip="needs root to mount a tmpfs"
else
	mkdir mnt
	trap cleanup EXIT
	trap 'exit 130' INT TERM HUP
	if ! mount -t tmpfs -o size=1m,mode=0755 none mnt 2>mount.err; then
		why_skip="mount -t tmpfs failed: $(head -1 mount.err)"
	fi
fi

# --- the control: the chain on a roomy disk ---------------------------------

for j in a b c; do jobfile $j >$j.yaml; done
printf 'name: p\ncommand: exec sleep 600\nmax_nodes: 4\n' >p.yaml
printf 'name: bad\ncommand: x\nmax_nodes: 0\n' >0bad.yaml
printf '1612915700 1 0\n1612915710 1 52188\n1612915720 1 104376\n' >p.log
md5sum a.yaml b.yaml c.yaml p.yaml 0bad.yaml p.log >inputs.md5

case_ 'control: the chain of programs on a roomy disk' '
	mkspool ctl && bf-submit --intake -d ctl &&
	bf-submit -d ctl a.yaml b.yaml c.yaml p.yaml >/dev/null &&
	cp 0bad.yaml ctl/incoming/ &&
	bf-submit --intake -d ctl 2>/dev/null &&
	bf-holes -d ctl --idle-trace "$TRACE" --at $AT &&
	cp p.log ctl/progress/ && chmod 600 ctl/progress/p.log && bf-profile -d ctl &&
	bf-solve -d ctl && bf-apply -d ctl $APPLY >ctl.out &&
	state_true ctl && test $(held ctl) -eq 16 &&
	norm ctl >ctl.norm &&
	stop_all ctl
'

# --- every program on a full disk, one after the other ----------------------

case_ 'setup: a spool in service on a 1 MiB tmpfs' '
	mkspool mnt/sp && bf-submit --intake -d mnt/sp && test -s mnt/sp/lock
'

# Room for two of the four: the first two are written, the third is not,
# and none is entered (the case below then enters each under its own name).
case_ 'bf-submit FILE...: room for two of four: 75, none entered' '
	fill 2 && snap mnt/sp >before &&
	test_expect_code 75 bf-submit -d mnt/sp a.yaml b.yaml c.yaml p.yaml \
		>out 2>err &&
	test_must_be_empty out &&
	one_line err "bf-submit: mnt/sp/incoming/c\.yaml: unable to write tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.c\.yaml: No space left on device" &&
	snap mnt/sp >after && test_cmp before after && tmp_clean mnt/sp &&
	test "$(stat -f -c %a mnt)" -eq 2 && unfill
'

case_ 'bf-submit FILE...: 75, nothing entered; entered once space returns' '
	fill && snap mnt/sp >before &&
	test_expect_code 75 bf-submit -d mnt/sp a.yaml b.yaml c.yaml p.yaml \
		>out 2>err &&
	test_must_be_empty out &&
	one_line err "bf-submit: mnt/sp/incoming/a\.yaml: unable to write tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.a\.yaml: No space left on device" &&
	snap mnt/sp >after && test_cmp before after && tmp_clean mnt/sp &&
	md5sum -c --quiet inputs.md5 &&
	unfill &&
	bf-submit -d mnt/sp a.yaml b.yaml c.yaml p.yaml >out &&
	printf "mnt/sp/incoming/%s.yaml\n" a b c p >expect && test_cmp expect out
'

case_ 'bf-submit --intake: 75 at the refusal, then at the acceptance; nothing lost' '
	cp 0bad.yaml mnt/sp/incoming/ &&
	fill && snap mnt/sp >before &&
	test_expect_code 75 bf-submit --intake -d mnt/sp 2>err &&
	one_line err "bf-submit: mnt/sp/rejected/0bad\.yaml\.err: unable to write tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.0bad\.yaml\.err: No space left on device" &&
	snap mnt/sp >after && test_cmp before after && tmp_clean mnt/sp &&
	fill 1 &&
	test_expect_code 75 bf-submit --intake -d mnt/sp 2>err &&
	grep -v "^bf-submit: rejected incoming/0bad.yaml " err >err2 &&
	one_line err2 "bf-submit: mnt/sp/jobs/a\.yaml: unable to write tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.a\.yaml: No space left on device" &&
	cmp 0bad.yaml mnt/sp/rejected/0bad.yaml &&
	grep -qx "incoming/0bad.yaml:3: .*" mnt/sp/rejected/0bad.yaml.err &&
	ls mnt/sp/incoming >actual && printf "%s.yaml\n" a b c p >expect &&
	test_cmp expect actual &&
	find mnt/sp/jobs -mindepth 1 >left && test_must_be_empty left &&
	for j in a b c p; do cmp $j.yaml mnt/sp/incoming/$j.yaml || exit 1; done &&
	tmp_clean mnt/sp &&
	unfill && bf-submit --intake -d mnt/sp 2>/dev/null &&
	ls mnt/sp/jobs >actual && test_cmp expect actual &&
	find mnt/sp/incoming -mindepth 1 >left && test_must_be_empty left
'

case_ 'bf-holes -d: 75, no holes file; written once space returns' '
	fill && snap mnt/sp >before &&
	test_expect_code 75 bf-holes -d mnt/sp --idle-trace "$TRACE" --at $AT \
		2>err &&
	one_line err "bf-holes: mnt/sp/holes/current\.yaml: unable to write tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.current\.yaml: No space left on device" &&
	snap mnt/sp >after && test_cmp before after && tmp_clean mnt/sp &&
	unfill && bf-holes -d mnt/sp --idle-trace "$TRACE" --at $AT &&
	test_cmp ctl/holes/current.yaml mnt/sp/holes/current.yaml
'

case_ 'bf-profile -d: 75, no profile; written once space returns' '
	cp p.log mnt/sp/progress/ && chmod 600 mnt/sp/progress/p.log &&
	fill && snap mnt/sp >before &&
	test_expect_code 75 bf-profile -d mnt/sp 2>err &&
	one_line err "bf-profile: mnt/sp/profiles/p\.yaml: unable to write tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.p\.yaml: No space left on device" &&
	snap mnt/sp >after && test_cmp before after && tmp_clean mnt/sp &&
	unfill && bf-profile -d mnt/sp &&
	test_cmp ctl/profiles/p.yaml mnt/sp/profiles/p.yaml
'

case_ 'bf-solve -d: 75 at the model, then at the plan; neither there' '
	fill && snap mnt/sp >before &&
	test_expect_code 75 bf-solve -d mnt/sp 2>err &&
	one_line err "bf-solve: mnt/sp/plans/$AT-[0-9a-f]*\.mps: unable to write tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.$AT-[0-9a-f]*\.mps: No space left on device" &&
	snap mnt/sp >after && test_cmp before after && tmp_clean mnt/sp &&
	fill 1 &&
	test_expect_code 75 bf-solve -d mnt/sp 2>err &&
	one_line err "bf-solve: mnt/sp/plans/current\.yaml: unable to write tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.current\.yaml: No space left on device" &&
	snap mnt/sp >after && test_cmp before after && tmp_clean mnt/sp &&
	unfill && bf-solve -d mnt/sp &&
	ls mnt/sp/plans >actual && test $(wc -l <actual) -eq 2 &&
	sed -n "s/^solver:.*mps: plans\/\([^}]*\)}.*/\1/p" \
	    mnt/sp/plans/current.yaml >expect &&
	echo current.yaml >>expect && test_cmp expect actual &&
	cp -a mnt/sp apply.tpl
'

case_ 'bf-apply: 75, nothing started, no state; enacted once space returns' '
	fill && snap mnt/sp >before &&
	test_expect_code 75 bf-apply -d mnt/sp $APPLY >out 2>err &&
	test_must_be_empty out &&
	one_line err "bf-apply: mnt/sp/history/objects/[0-9a-f]*: unable to write tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.[0-9a-f]*: No space left on device" &&
	snap mnt/sp >after && test_cmp before after && tmp_clean mnt/sp &&
	test ! -e mnt/sp/state.yaml &&
	find mnt/sp/run -mindepth 1 >left && test_must_be_empty left &&
	unfill && bf-apply -d mnt/sp $APPLY >out &&
	test_cmp ctl.out out && state_true mnt/sp
'

case_ 'the chain resumed reaches what the roomy disk reached' '
	norm mnt/sp >sp.norm &&
	test_cmp ctl.norm sp.norm &&
	stop_all mnt/sp && rm -rf mnt/sp
'

# --- a fresh spool, a filesystem out of inodes ------------------------------

case_ 'the first lock of a fresh spool on a full disk: 75, the lock named' '
	mkspool mnt/fresh && bf-submit -d mnt/fresh a.yaml >/dev/null &&
	fill && snap mnt/fresh >before &&
	test_expect_code 75 bf-submit --intake -d mnt/fresh 2>err &&
	one_line err "bf-submit: unable to write mnt/fresh/lock: No space left on device" &&
	snap mnt/fresh >after && test_cmp before after &&
	unfill && bf-submit --intake -d mnt/fresh 2>/dev/null &&
	test -f mnt/fresh/jobs/a.yaml && rm -rf mnt/fresh
'

if [ -z "$why_skip" ]; then
	mkdir mnt2
	if ! mount -t tmpfs -o size=1m,nr_inodes=32,mode=0755 none mnt2 \
	    2>mount.err; then
		why_inodes="mount -t tmpfs -o nr_inodes failed: $(head -1 mount.err)"
	fi
fi
if [ -n "${why_inodes:-}" ]; then
	test_skip 'out of inodes: 75 at the create, nothing entered' "$why_inodes"
else
	case_ 'out of inodes: 75 at the create, nothing entered' '
		mkspool mnt2/sp &&
		i=0 && while touch mnt2/i$i 2>/dev/null; do i=$((i + 1)); done &&
		test_expect_code 75 bf-submit -d mnt2/sp a.yaml >out 2>err &&
		one_line err "bf-submit: mnt2/sp/incoming/a\.yaml: unable to create tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.a\.yaml: No space left on device" &&
		find mnt2/sp -type f >left && test_must_be_empty left &&
		rm mnt2/i0 && bf-submit -d mnt2/sp a.yaml >out &&
		cmp a.yaml mnt2/sp/incoming/a.yaml
	'
fi

case_ 'bf-solve --mps FILE on a full disk: 75, the path and its temporary named' '
	unfill && bf-holes --idle-trace "$TRACE" --at $AT >holes.yaml &&
	fill &&
	test_expect_code 75 bf-solve --mps mnt/m.mps holes.yaml a.yaml \
		>out 2>err &&
	one_line err "bf-solve: mnt/m\.mps: unable to write mnt/\.[0-9]*\.[0-9]*\.[0-9a-f]*\.m\.mps: No space left on device" &&
	test_must_be_empty out &&
	find mnt -maxdepth 1 -name "*m.mps*" >left && test_must_be_empty left &&
	unfill && bf-solve --mps mnt/m.mps holes.yaml a.yaml >out &&
	test -s mnt/m.mps && rm mnt/m.mps
'

case_ 'a result on standard output to a full disk: 75, not 74' '
	fill &&
	test_expect_code 75 bf-holes --idle-trace "$TRACE" --at $AT >mnt/o1 &&
	test_expect_code 75 bf-solve holes.yaml a.yaml >mnt/o2 &&
	test_expect_code 75 bf-profile p.log >mnt/o3 &&
	test_expect_code 75 bf-apply -n -d apply.tpl $APPLY >mnt/o4
'

# --- space that runs out in the middle of a run ------------------------------

# Twenty files, bad and good in turn: a refusal keeps its file and adds a
# reason, so each takes room; an acceptance moves one file for another.
i=1
while [ $i -le 20 ]; do
	n=$(printf %02d $i)
	if [ $((i % 2)) -eq 1 ]; then
		printf 'name: r%s\ncommand: x\nmax_nodes: 0\n' $n >f$n.yaml
	else
		printf 'name: g%s\ncommand: exec sleep 600\nmax_nodes: 2\n' $n >f$n.yaml
	fi
	i=$((i + 1))
done

# Where each of the twenty files is: incoming, jobs or rejected; never two
# places, never half.  Prints the number decided.
decided() {	# spool
	_d=0
	for _f in f??.yaml; do
		_w=
		if [ -e "$1/incoming/$_f" ]; then
			cmp "$_f" "$1/incoming/$_f" || return 1
			_w=incoming
		fi
		if [ -e "$1/rejected/$_f" ]; then
			[ -z "$_w" ] || { echo "$_f in $_w and rejected"; return 1; }
			cmp "$_f" "$1/rejected/$_f" || return 1
			grep -qx "incoming/$_f:3: .*" "$1/rejected/$_f.err" || return 1
			_w=rejected
		fi
		_n=$(sed -n "s/^name: //p" "$_f")
		if [ -e "$1/jobs/$_n.yaml" ]; then
			[ -z "$_w" ] || { echo "$_f in $_w and jobs"; return 1; }
			_h=$(xxhsum -H3 "$_f" 2>/dev/null | sed "s/.* = //")
			grep -qx "source: {file: \"$_f\", xxh3: \"xxh3:$_h\"}" \
				"$1/jobs/$_n.yaml" || return 1
			tail -1 "$1/jobs/$_n.yaml" | grep -qx "weight: 1" || return 1
			_w=jobs
		fi
		[ -n "$_w" ] || { echo "$_f is nowhere"; return 1; }
		[ "$_w" = incoming ] || _d=$((_d + 1))
	done
	echo $_d
}

case_ 'control: the twenty files taken in on a roomy disk' '
	mkspool ctl20 && cp f??.yaml ctl20/incoming/ &&
	bf-submit --intake -d ctl20 2>/dev/null &&
	test "$(decided ctl20)" -eq 20 && norm ctl20 >ctl20.norm
'

case_ 'the intake runs out of space midway: the decided complete, 75, the rest waits' '
	k=0 && last=-1 &&
	while :; do
		unfill && rm -rf mnt/i && mkspool mnt/i && bf-submit --intake -d mnt/i &&
		cp f??.yaml mnt/i/incoming/ && fill $k &&
		bf-submit --intake -d mnt/i 2>err; rc=$?
		n=$(decided mnt/i) || exit 1
		echo "free pages $k: exit $rc, $n of 20 decided"
		tmp_clean mnt/i || exit 1
		if [ $n -lt 20 ]; then
			test $rc -eq 75 || exit 1
			f=$(ls mnt/i/incoming | head -1)
			j=$(sed -n "s/^name: //p" $f)
			grep -v "^bf-submit: \(accepted\|rejected\) " err >err2
			one_line err2 "bf-submit: mnt/i/\(jobs/$j\.yaml\|rejected/$f\.err\): unable to write tmp/.*: No space left on device" || exit 1
		else
			test $rc -eq 0 || exit 1
		fi
		test $n -ge $last || exit 1
		last=$n
		unfill && bf-submit --intake -d mnt/i 2>/dev/null &&
		norm mnt/i >i.norm && test_cmp ctl20.norm i.norm || exit 1
		[ $n -lt 20 ] || break
		k=$((k + 1))
		test $k -le 40 || exit 1
	done &&
	test $k -ge 2 && rm -rf mnt/i
'

# Room for 0, 1, 2, ... pages (a job file takes one): each file is written
# in tmp/ before any is entered, so until there is room for all ten none
# is entered, and the message names the first that did not fit.
case_ 'bf-submit of ten files runs out midway: none entered, the first that did not fit named' '
	k=0 &&
	while :; do
		unfill && rm -rf mnt/u && mkspool mnt/u && fill $k &&
		bf-submit -d mnt/u $(ls f??.yaml | sed -n "n;p") >out 2>err; rc=$?
		ls mnt/u/incoming | sed "s|^|mnt/u/incoming/|" >in &&
		test_cmp in out || exit 1
		n=$(wc -l <out)
		echo "free pages $k: exit $rc, $n of 10 entered"
		tmp_clean mnt/u || exit 1
		for f in $(ls mnt/u/incoming); do
			cmp "f${f#g}" mnt/u/incoming/$f || exit 1
		done
		if [ $n -eq 0 ]; then
			test $rc -eq 75 || exit 1
			f=$(printf "g%02d.yaml" $((2 * k + 2)))
			one_line err "bf-submit: mnt/u/incoming/$f: unable to write tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.$f: No space left on device" || exit 1
		else
			test $rc -eq 0 && test $n -eq 10 || exit 1
			break
		fi
		k=$((k + 1))
		test $k -le 10 || exit 1
	done &&
	test $k -eq 10 && rm -rf mnt/u
'

# bf-apply with room for 0, 1, 2, ... more pages: each run stops at a
# later write, until one has room for everything.  apply.codes: for each
# room, the exit and whether the run after it reached the control.
case_ 'bf-apply runs out midway: no partial file, the state lacks at most the jobs the plan starts, a rerun completes it' '
	k=0 && : >apply.codes &&
	while :; do
		unfill && rm -rf mnt/a && cp -a apply.tpl mnt/a && fill $k &&
		bf-apply -d mnt/a $APPLY >out 2>err; rc=$?
		echo "free pages $k: exit $rc: $(cat err)"
		tmp_clean mnt/a || exit 1
		l=$(lag mnt/a) || exit 1
		test $l -le $(may_lack mnt/a) ||
		    { echo "the state lacks $l jobs"; exit 1; }
		if [ $rc -eq 0 ]; then
			test_must_be_empty err && state_true mnt/a || exit 1
		else
			test "$(wc -l <err)" -eq 1 || exit 1
		fi
		(cd mnt/a && find . -type f ! -path ./lock ! -path ./state.yaml \
			! -path ./history/allocs.idx -exec md5sum {} +) >kept.md5 &&
		unfill && bf-apply -d mnt/a $APPLY >/dev/null &&
		state_true mnt/a && test $(held mnt/a) -eq 16 &&
		(cd mnt/a && md5sum -c --quiet) <kept.md5 || exit 1
		norm mnt/a >a.norm
		# A rerun that did not reach the control: its difference kept
		# in the trash directory for whoever reads the failure.
		if cmp -s ctl.norm a.norm; then same=1; else same=0
			diff ctl.norm a.norm >"apply-room-$k.diff"; fi
		echo "$k $rc $same" >>apply.codes
		stop_all mnt/a
		[ $rc -ne 0 ] || break
		k=$((k + 1))
		test $k -le 60 || exit 1
	done &&
	test $k -ge 5 && rm -rf mnt/a
'

case_ 'bf-apply runs out midway: every exit is 75 (not 71)' '
	cat apply.codes && test -s apply.codes &&
	! grep -qv "^[0-9]* \(0\|75\) " apply.codes
'

case_ 'bf-apply runs out midway: the rerun reaches the control (a pid record)' '
	test -s apply.codes && ! grep -q " 0$" apply.codes
'

# --- the daemon's chain ---------------------------------------------------------

watch_spool() {	# spool: jobs in incoming/, a holes file, a progress log
	mkspool "$1" && bf-submit --intake -d "$1" &&
	bf-submit -d "$1" a.yaml b.yaml c.yaml p.yaml >/dev/null &&
	cp 0bad.yaml "$1/incoming/" &&
	bf-holes -d "$1" --idle-trace "$TRACE" --at $AT &&
	cp p.log "$1/progress/" && chmod 600 "$1/progress/p.log"
}

case_ 'control: bf-watch --once on a roomy disk' '
	watch_spool ctlw &&
	timeout 120 bf-watch -d ctlw --once $APPLY 2>ctlw.log &&
	state_true ctlw && test $(held ctlw) -eq 16 && norm ctlw >ctlw.norm &&
	stop_all ctlw
'

case_ 'bf-watch --once on a full disk: 75, nothing lost; then the chain resumes' '
	unfill && watch_spool mnt/w &&
	fill && snap mnt/w >before &&
	test_expect_code 75 timeout 120 bf-watch -d mnt/w --once $APPLY 2>err &&
	cat err &&
	grep -v "^bf-watch: start: " err | head -1 | grep -x "bf-watch: intake: mnt/w/rejected/0bad\.yaml\.err: unable to write tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.0bad\.yaml\.err: No space left on device; will retry" &&
	grep -x "bf-watch: solve: mnt/w/plans/[0-9]*-[0-9a-f]*\.mps: unable to write tmp/[0-9]*\.[0-9]*\.[0-9a-f]*\.[0-9]*-[0-9a-f]*\.mps: No space left on device; will retry" err &&
	tail -1 err | grep -x "bf-watch: a step failed and is to be retried (see above); run again" &&
	snap mnt/w >after && test_cmp before after && tmp_clean mnt/w &&
	unfill && timeout 120 bf-watch -d mnt/w --once $APPLY 2>/dev/null &&
	state_true mnt/w && norm mnt/w >w.norm && test_cmp ctlw.norm w.norm &&
	stop_all mnt/w && rm -rf mnt/w
'

# watch.codes: for each room, the exit, whether that run completed the
# chain, and whether the run after it reached the control.  Every other
# room only: each run of bf-watch solves, some many times.
case_ 'bf-watch --once runs out midway: no partial file, and a rerun completes the chain' '
	k=0 && : >watch.codes &&
	while :; do
		unfill && rm -rf mnt/w && watch_spool mnt/w && fill $k &&
		timeout 120 bf-watch -d mnt/w --once $APPLY 2>err; rc=$?
		tmp_clean mnt/w || exit 1
		l=$(lag mnt/w) || exit 1
		test $l -le $(may_lack mnt/w) ||
		    { echo "the state lacks $l jobs"; exit 1; }
		norm mnt/w >w.norm
		if cmp -s ctlw.norm w.norm && state_true mnt/w >/dev/null; then
			done=1
		else
			done=0
		fi
		echo "free pages $k: exit $rc, chain done: $done"
		grep -v "^bf-watch: \(accepted\|rejected\|decision\)" err
		(cd mnt/w && find . -type f ! -path ./lock ! -path ./state.yaml \
			! -path ./plans/current.yaml ! -path "./incoming/*" \
			! -path ./history/allocs.idx \
			-exec md5sum {} +) >kept.md5 &&
		unfill && timeout 120 bf-watch -d mnt/w --once $APPLY 2>/dev/null &&
		state_true mnt/w && test $(held mnt/w) -eq 16 &&
		(cd mnt/w && md5sum -c --quiet) <kept.md5 || exit 1
		norm mnt/w >w.norm && outcome w.norm >w.final &&
		outcome ctlw.norm >ctlw.final
		# A plan cut short by the full disk stays in history/ beside the
		# one that finished its work: the outcome is compared, not
		# the number of decisions it took.
		if cmp -s ctlw.final w.final; then same=1; else same=0; fi
		echo "$k $rc $done $same" >>watch.codes
		stop_all mnt/w
		[ $done -eq 0 ] || break
		k=$((k + 2))
		test $k -le 60 || exit 1
	done &&
	test $k -ge 5 && rm -rf mnt/w
'

case_ 'bf-watch --once that stopped on a full disk exits 75, not 0' '
	cat watch.codes && test -s watch.codes &&
	! grep -q "^[0-9]* 0 0 " watch.codes
'

case_ 'bf-watch --once runs out midway: the rerun reaches the control'"'"'s outcome' '
	test -s watch.codes && ! grep -q " 0$" watch.codes
'

test_done
