#!/bin/sh
# kill -9 at random instants, 100 times, under a live workload: of the
# bf-watch daemon, waiting or busy, and right after new holes while it
# decides (it solves and enacts plans in its own process), and of a
# bf-apply run while the daemon is stopped (bf-apply is the same code run
# from cron).  After each kill, before any restart,
# no partial or temporary file is visible; after each restart (bf-watch
# --once until quiet) every job submitted is in exactly one of jobs/,
# rejected/ or history/runs/, the state is true to the running processes,
# and no job ever ran twice.  The choices come from a seed printed in the
# output; BF_SEED=N replays them (the timing cannot be replayed), and
# BF_ITERATIONS=N sets how many kills (100; 25 built with ASan).
. "$(dirname "$0")/lib.sh"

# 100 kills in the plain build; under AddressSanitizer (CI's sanitized
# pass, .ci/run) 25, which take the same C paths at every kill point but
# not the 30 minutes 200 take there (10 kills: 90 s on this 2-core
# machine); the plain pass, run after it, kills 100 times.  It was 200:
# 568 s of CI's plain pass, the longest file of its last group, whose
# end it set (2026-11-29); BF_ITERATIONS=1000 for a longer hunt.
if [ -z "$HOSTILE_VMEM" ]; then
	iterations=${BF_ITERATIONS:-25}
else
	iterations=${BF_ITERATIONS:-100}
fi
seed=${BF_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "# seed $seed: replay the choices with BF_SEED=$seed"

# A linear congruential generator (glibc's constants): R = 0..N-1.
rng=$seed
rand() {	# N
	rng=$(((rng * 1103515245 + 12345) % 2147483648))
	R=$(((rng / 65536) % $1))
}

NODES="n1 n2 n3 n4 n5 n6"
t=1000		# holes time
njobs=0
ninf=0

# Some of the nodes, as bf-holes would deliver them: by rename.
new_holes() {
	rand 8
	if [ "$R" -eq 0 ]; then
		: >holes.now	# every node taken back
	else
		: >holes.now
		for _h in $NODES; do
			rand 3
			[ "$R" -gt 0 ] && echo "$_h" >>holes.now
		done
	fi
	t=$((t + 1))
	holes sp $t "$(paste -sd, holes.now)"
}

# A job arriving: one that finishes (samples), runs until stopped (at
# most 3 of those, so the others get nodes), fails at once, or is
# invalid and must be refused.
new_job() {	# [kind]
	njobs=$((njobs + 1))
	_n=j$(printf %03d $njobs)
	rand 3
	_max=$((R + 1))
	if [ -n "${1:-}" ]; then
		_k=$1
	else
		rand 20
		if [ "$R" -lt 8 ]; then _k=fin
		elif [ "$R" -lt 11 ]; then _k=inf
		elif [ "$R" -lt 15 ]; then _k=fail
		else _k=invalid
		fi
	fi
	[ "$_k" = inf ] && [ "$ninf" -ge 3 ] && _k=fin
	case $_k in
	fin)
		rand 6
		job sp $_n $_max "exec $J" "samples: $((1500 + 500 * R))" ;;
	inf)
		ninf=$((ninf + 1))
		job sp $_n $_max "exec $J" ;;
	fail)
		job sp $_n $_max "$J fail" ;;
	invalid)
		job sp $_n $_max "exec $J" "weight: high" ;;
	esac
	echo "$_n $_k" >>submitted.list
	[ "$_k" = fail ] && echo "$_n" >>fail.list
	return 0
}

events() {	# force-holes
	rand 100
	[ "$R" -lt 45 ] && new_job
	rand 100
	if [ "$R" -lt 40 ] || [ "$1" = 1 ]; then new_holes; fi
	return 0
}

# Where the watcher is at this instant: in ppoll(2), waiting for a
# wake-up (or gathering a burst of them), or anywhere else in the chain.
watch_busy() {	# pid
	_wc=
	read -r _wc 2>/dev/null <"/proc/$1/wchan"
	case $_wc in
	poll_schedule_timeout*|do_sys_poll*) return 1 ;;
	*) return 0 ;;
	esac
}

# kill -9 of the live watcher; its timeout(1) wrapper is reaped.
kill_watch() {
	_w=$(cat watch.pid)
	kill -KILL $_w
	wait "$(cat timeout.pid)" 2>/dev/null
	rm -f watch.pid
}

# TERM: the watcher finishes its step and exits 0.
term_watch() {
	_w=$(cat watch.pid)
	kill -TERM $_w
	wait "$(cat timeout.pid)"
	_rc=$?
	rm -f watch.pid
	return $_rc
}

# Tmp files a killed process left, named after its pid.
leftovers() {	# pid
	find sp/tmp -name "$1.*" | wc -l
}

once() {
	timeout -s KILL 30 bf-watch -d sp --once --allow-root-jobs -g 2 \
		--no-profile
}

# The restart: bf-watch --once until two runs in a row find nothing to
# do, no job has ended unretired and no job that fails at once is still
# to end (it may end just after a run).  75: a supervisor forked an
# instant before the kill still held the spool's lock.
failed_all() {	# every job of kind fail that runs has ended
	while read -r _f; do
		[ -f "sp/run/$_f/pid" ] && return 1
	done <fail.list
	return 0
}

settle() {
	_quiet=0 _runs=0
	: >settle.log
	while [ $_quiet -lt 2 ]; do
		_runs=$((_runs + 1))
		if [ $_runs -gt 15 ]; then
			echo "not settled after 15 runs of bf-watch --once:"
			cat settle.log
			return 1
		fi
		once 2>once.log
		_rc=$?
		cat once.log >>settle.log
		[ $_runs -eq 1 ] && cp once.log first.log
		if [ $_rc -eq 75 ]; then
			sleep 0.05
			continue
		fi
		if [ $_rc -ne 0 ]; then
			echo "bf-watch --once exited $_rc:"
			cat once.log
			return 1
		fi
		# Its start and stop lines say nothing was done; any other does.
		if grep -qv "^bf-watch: \(start\|stop\): \|^bf-watch: created spool " once.log ||
		    ls sp/run/*/exit >/dev/null 2>&1 ||
		    ! failed_all; then
			_quiet=0
		else
			_quiet=$((_quiet + 1))
		fi
	done
}

# "FILE: not whole" for each file of GLOB in which grep finds no line
# matching (a small record of run/ cut short).
whole() {	# glob grep-args...
	_w_glob=$1
	shift
	for _f in $_w_glob; do
		[ -f "$_f" ] && ! grep -q "$@" "$_f" && echo "$_f: not whole"
	done
	return 0
}

# (1) At any instant, even just after a kill: no partial and no
# temporary file where a reader looks.
check_whole() {
	find sp/incoming sp/jobs sp/rejected sp/plans sp/history sp/holes \
	    sp/progress sp/profiles sp/run -regextype posix-extended \
	    \( -name '.*' -o -regex '.*/[0-9]+\.[0-9]+\.[^/]*' \) >tmpnames &&
	if test -s tmpnames; then
		echo "temporary names where readers look:"
		cat tmpnames
		return 1
	fi
	# bf-solve reads the holes, the state and every job file.
	set -- sp/jobs/*.yaml
	[ -e "$1" ] || set --
	set -- sp/holes/current.yaml "$@"
	if [ -f sp/state.yaml ]; then
		set -- -s sp/state.yaml "$@"
	fi
	bf-solve "$@" >/dev/null || return 1
	# bf-apply -n reads the plan and the state (75: a plan now stale).
	bf-apply -n -d sp --allow-root-jobs >/dev/null 2>apply-n.err
	_rc=$?
	case $_rc in
	0|75) ;;
	66) if test -e sp/plans/current.yaml; then cat apply-n.err; return 1; fi ;;
	*) echo "bf-apply -n exited $_rc"; cat apply-n.err; return 1 ;;
	esac
	# Plans in history and objects are named by their XXH3: a partial
	# one does not match.  Only the files not checked before: none is
	# ever rewritten.
	find sp/history sp/plans -type f | sort >files.now
	comm -13 files.seen files.now >files.new
	grep -E '/history/[0-9]+-[0-9a-f]{16}\.yaml$|/objects/[0-9a-f]{16}$' \
	    files.new >hash.files
	: >hashes
	# (xxhsum clears a progress line on its standard error: \r, spaces.)
	if test -s hash.files &&
	    ! xargs xxhsum -H3 <hash.files >hashes 2>xxhsum.err; then
		tr -d '\r' <xxhsum.err
		return 1
	fi
	awk '{ f = $2; gsub(/[()]/, "", f); n = f; sub(/.*\//, "", n)
		sub(/^[0-9]+-/, "", n); sub(/\.yaml$/, "", n)
		if (n != $4) print f ": XXH3 " $4 " is not its name" }' hashes >bad
	# A plan's inputs are all there before it is, its run records
	# are whole, its job file among the objects.
	for _f in $(grep -E '/history/[0-9]+-[0-9a-f]{16}\.yaml$' files.new); do
		test -f "${_f%.yaml}.inputs.yaml" ||
			echo "$_f: no ${_f%.yaml}.inputs.yaml beside it"
	done >>bad
	for _h in $(cat $(grep -E '\.inputs\.yaml$|/runs/[^/]*\.yaml$' \
	    files.new) /dev/null | grep -v '^plan: ' |
	    sed -n 's/.*"xxh3:\([0-9a-f]*\)".*/\1/p' | sort -u); do
		test -f sp/history/objects/$_h ||
			echo "history/objects/$_h is named but missing"
	done >>bad
	grep -E '/runs/[^/]*\.yaml$' files.new | while read -r _f; do
		_s=${_f##*/}
		_s=${_s%.yaml}
		awk -v stem="$_s" -v f="$_f" '
			/^(name|outcome|started|ended|nodes|hosts): / { k[$1] = 1 }
			{ last = $0 }
			END { if (!k["name:"] || !k["outcome:"] || !k["started:"] ||
			    !k["ended:"] || !k["nodes:"] || !k["hosts:"] ||
			    last != "run: \"history/runs/" stem "\"")
				print f ": not a whole run record" }' "$_f"
	done >>bad
	set -- $(grep '\.mps$' files.new)
	if [ $# -gt 0 ]; then
		tail -qn1 "$@" | grep -vc '^ENDATA$' | grep -qx 0 ||
			echo "an MPS model in plans/ or history/ does not end with ENDATA"
	fi >>bad
	# The small records of run/, and the refusals.  (progress/ is the
	# jobs' own: job.sh may write a line without its time when stopped.)
	whole 'sp/run/*/pid' '^uid: [0-9]*$' >>bad
	whole 'sp/run/*/exit' '^ended: [0-9]*$' >>bad
	whole 'sp/run/*/stopping' -xE '(plan|done): 1' >>bad
	cat sp/run/*/hosts 2>/dev/null | grep -vE '^n[1-6]:1$' |
		sed 's/^/a bad line in run\/*\/hosts: /' >>bad
	for _f in sp/rejected/*; do
		[ -f "$_f" ] || continue
		case $_f in
		*.err)
			awk 'NR == 1 && /^incoming\/[^:]*:[0-9]*:? / { ok = 1 }
			     END { if (!ok || NR != 1) print FILENAME ": not one reason" }' "$_f" ;;
		*)
			test -f "$_f.err" || echo "$_f has no $_f.err" ;;
		esac
	done >>bad
	mv files.now files.seen
	test_must_be_empty bad
}

# State true: each job in state.yaml runs (state_true) on exactly the
# hosts of its run/NAME/hosts; no node twice; every node in the holes.
state_hosts() {
	sed -n 's/^  \([^:]*\): {nodes: [0-9]*, hosts: "\([^"]*\)".*/\1 \2/p' \
		sp/state.yaml |
	awk '{	# expand n[1,3-4],n6 (one prefix per item, one bracket)
		s = $2
		while (s != "") {
			if (match(s, /^[a-z0-9]+\[[0-9,-]+\]/)) {
				item = substr(s, 1, RLENGTH); s = substr(s, RLENGTH + 1)
				p = item; sub(/\[.*/, "", p)
				r = item; sub(/^[^[]*\[/, "", r); sub(/\]$/, "", r)
				n = split(r, parts, ",")
				for (i = 1; i <= n; i++) {
					if (split(parts[i], ab, "-") == 2)
						for (x = ab[1] + 0; x <= ab[2] + 0; x++)
							print $1, p x
					else
						print $1, p parts[i]
				}
			} else {
				match(s, /^[^,]+/)
				print $1, substr(s, 1, RLENGTH)
				s = substr(s, RLENGTH + 1)
			}
			sub(/^,/, "", s)
		}
	}' | sort >state.hosts
	: >run.hosts.all
	for _d in sp/run/*/; do
		[ -d "$_d" ] || continue
		_n=$(basename "$_d")
		flock -n -s "$_d/lock" true 2>/dev/null && continue
		bf-hosts -d sp "$_n" >run.hosts.one || return 1
		sed "s/^/$_n /; s/:.*//" run.hosts.one >>run.hosts.all
	done
	sort run.hosts.all >run.hosts
	test_cmp state.hosts run.hosts || return 1
	cut -d' ' -f2 state.hosts | sort | uniq -d >twice
	test_must_be_empty twice || return 1
	cut -d' ' -f2 state.hosts | sort >held.hosts
	sort holes.now | comm -13 - held.hosts >taken
	if test -s taken; then
		echo "held, but not in the holes:"
		cat taken
		return 1
	fi
}

# (2) and (4): where every job submitted is, and how often it ran.
accounts() {
	{
		sed 's/^/S /' submitted.list
		ls sp/jobs | sed -n 's/\.yaml$//p' | sed 's/^/J /'
		ls sp/rejected | sed 's/^/R /'
		ls sp/run | sed 's/^/L /'
		find sp/history/runs -mindepth 1 -maxdepth 1 -type d |
			sed 's|.*/|D |'
		for _f in sp/history/runs/*.yaml; do
			[ -f "$_f" ] && echo "$_f"
		done | xargs -r awk '
			/^name: / { n = $2 } /^outcome: / { o = $2 }
			/^started: / { s = $2 } /^ended: / { e = $2 }
			/^run: / { st = FILENAME; sub(/.*\//, "", st)
				sub(/\.yaml$/, "", st); print "H", st, n, o, s, e }'
		grep -H '^start ' sp/run/*/output sp/history/runs/*/output \
		    2>/dev/null | sed 's|^\(.*\)/output:start \([^ ]*\) .*|O \1 \2|'
		grep -H '^started: ' sp/run/*/pid 2>/dev/null |
			sed 's|^sp/run/\([^/]*\)/pid:started: |P \1 |'
	} | awk '
	function bad(m) { print m; nbad++ }
	$1 == "S" { kind[$2] = $3; order[++ns] = $2 }
	$1 == "J" { inj[$2] = 1 }
	$1 == "L" { live[$2] = 1 }
	$1 == "D" { dir[$2] = 1 }
	$1 == "P" { pstart[$2] = $3 }
	$1 == "R" {
		r = $2
		if (r ~ /\.err$/) { err[substr(r, 1, length(r) - 4)] = 1; next }
		rejf[r] = 1; b = r; sub(/\.yaml(\.[0-9]+)?$/, "", b); rej[b]++
	}
	$1 == "H" {
		rec[$2] = 1; n = $3; k = ++nrec[n]
		hs[n, k] = $5; he[n, k] = $6; ho[n, k] = $4
		if ($4 == "finished" || $4 == "failed") { term[n]++; tout[n] = $4; ts[n] = $5 }
	}
	$1 == "O" { per[$2]++; if (per[$2] == 2) bad($2 ": two starts in one run") ; nstart[$3]++ }
	END {
		for (r in rejf) if (!(r in err)) bad("rejected/" r " has no .err")
		for (r in err) if (!(r in rejf)) bad("rejected/" r ".err has no " r)
		for (s in rec) if (!(s in dir)) bad("history/runs/" s ".yaml has no run directory")
		for (s in dir) if (!(s in rec)) bad("history/runs/" s "/ has no record")
		for (n in inj) if (!(n in kind)) bad("jobs/" n ".yaml was never submitted")
		for (n in rej) if (!(n in kind)) bad("rejected/" n " was never submitted")
		for (n in nrec) if (!(n in kind)) bad("a run of " n ", never submitted")
		for (i = 1; i <= ns; i++) {
			n = order[i]; k = kind[n]
			if (k == "invalid") {
				if (rej[n] != 1 || inj[n] || nrec[n] || nstart[n] || live[n])
					bad(n " (invalid): rejected " rej[n] "x, in jobs/ " inj[n] ", " nrec[n] " runs, " nstart[n] " starts")
				continue
			}
			if (rej[n]) bad(n " (" k "): rejected")
			for (j = 1; j <= nrec[n]; j++) {
				o = ho[n, j]
				if (o == "lost") bad(n ": lost (its supervisor died; this test kills none)")
				if (k == "inf" && o != "preempted") bad(n " (" k "): " o)
				if (k == "fin" && o != "preempted" && o != "finished") bad(n " (" k "): " o)
				if (k == "fail" && o != "preempted" && o != "failed") bad(n " (" k "): " o)
				for (l = 1; l < j; l++)
					if (hs[n, j] < he[n, l] && hs[n, l] < he[n, j])
						bad(n ": two runs at once, " hs[n, l] "-" he[n, l] " and " hs[n, j] "-" he[n, j])
				if ((n in pstart) && pstart[n] < he[n, j])
					bad(n ": runs since " pstart[n] ", before its run ended at " he[n, j])
			}
			if (term[n] > 1) bad(n ": ended " term[n] " times")
			if (term[n] == 1) {
				if (inj[n]) bad(n ": " tout[n] ", still in jobs/")
				if (live[n]) bad(n ": " tout[n] ", and run/" n "/ is back")
				for (j = 1; j <= nrec[n]; j++)
					if (hs[n, j] > ts[n]) bad(n ": started again after it " tout[n])
			} else if (!inj[n])
				bad(n " (" k "): gone from jobs/ with no record of its end")
		}
		exit nbad > 0
	}'
}

# (4) Never two live instances of one job: the processes whose
# environment names this spool, by job, in one process group each, the
# one its supervisor records.
runs_once() {
	grep -asz -e '^BF_JOB=' -e '^BF_SPOOL=' /proc/[0-9]*/environ \
		2>/dev/null | tr '\0' '\n' >env.list
	ps -eo pid=,pgid=,stat= >ps.list
	grep -H '^pgid: ' sp/run/*/pid 2>/dev/null |
		sed 's|^sp/run/\([^/]*\)/pid:pgid: |G \1 |' >pgid.list
	awk -v spool="BF_SPOOL=$spool_abs" '
	FILENAME == "env.list" {
		split($0, a, "/"); p = a[3]; v = $0; sub(/^[^:]*:/, "", v)
		if (v ~ /^BF_JOB=/) job[p] = substr(v, 8)
		else if (v == spool) mine[p] = 1
		next
	}
	FILENAME == "ps.list" { pg[$1] = $2; st[$1] = $3; next }
	{ want[$2] = $3 }
	END {
		for (p in mine) {
			if (!(p in job) || !(p in pg) || st[p] ~ /Z/) continue
			n = job[p]
			if (!((n, pg[p]) in seen)) { seen[n, pg[p]] = 1; cnt[n]++ }
			if (want[n] != pg[p]) {
				print n ": process " p " in group " pg[p] ", run/" n "/pid says " want[n]
				bad++
			}
		}
		for (n in cnt) if (cnt[n] > 1) { print n ": " cnt[n] " instances"; bad++ }
		exit bad > 0
	}' env.list ps.list pgid.list
}

check_settled() {
	find sp/incoming -mindepth 1 >left && test_must_be_empty left &&
	state_true sp && state_hosts &&
	# Nothing left to do, but for a job that reached its samples since,
	# or whose process ended since (the jobs run on without a watcher;
	# settle saw no exit record, so such an end came after it).
	bf-apply -n -d sp --allow-root-jobs >again &&
	grep -v -e '^stop [^ ]* [0-9]*->0 done$' \
	    -e '^\(finished\|failed\) [^ ]* [0-9]*->0 exit [0-9]*$' again >todo
	test_must_be_empty todo &&
	accounts && runs_once
}

cleanup() {
	[ -s watch.pid ] && kill -KILL "$(cat watch.pid)" 2>/dev/null
	rm -f watch.pid
	kill_jobs sp
}

: >submitted.list
: >fail.list
: >files.seen
: >watch.log
mkspool sp
spool_abs=$(cd sp && pwd -P)

# In this shell, not a test's subshell: the watcher's timeout(1) is
# waited for, and the generator's state kept.
new_holes && new_job fin && new_job inf && new_job fail && new_job invalid &&
start_watch sp -g 1 && wait_for 10 test -f sp/rejected/j004.yaml
setup=$?
test_expect_success 'setup: four kinds of jobs under a live watcher' '
	test $setup -eq 0
'

k_watch=0 k_watch_busy=0 k_decide=0 k_decide_busy=0 k_apply=0 k_apply_hit=0
k_tmp=0 k_repair=0
i=0
while [ $i -lt $iterations ] && [ $test_failed -eq 0 ]; do
	i=$((i + 1))
	pre=
	[ -s watch.pid ] || start_watch sp -g 1 || pre="bf-watch would not start"
	rand 10
	if [ "$R" -lt 4 ]; then victim=watch
	elif [ "$R" -lt 7 ]; then victim=decide
	else victim=apply
	fi
	what= v=
	[ -n "$pre" ] && victim=none
	case $victim in
	watch)
		events 1
		# Mostly while the chain runs (a debounce of 20 ms, then tens
		# of ms), sometimes well after.
		rand 4
		if [ "$R" -eq 0 ]; then rand 400; else rand 120; fi
		sleep 0.$(printf %03d $R)
		w=$(cat watch.pid)
		k_watch=$((k_watch + 1))
		if watch_busy $w; then
			k_watch_busy=$((k_watch_busy + 1))
			what="bf-watch, busy"
		else
			what="bf-watch, waiting"
		fi
		v=$w
		kill_watch
		;;
	decide)
		# New holes, then the kill within 0 to 20 ms: while the
		# watcher reads, solves, records or enacts.
		w=$(cat watch.pid)
		events 1
		rand 21
		[ "$R" -gt 0 ] && sleep 0.$(printf %03d $R)
		k_decide=$((k_decide + 1))
		if watch_busy $w; then
			k_decide_busy=$((k_decide_busy + 1))
			what="bf-watch, deciding"
		else
			what="bf-watch, decided already"
		fi
		v=$w
		kill_watch
		;;
	apply)
		term_watch || pre="bf-watch did not exit 0 on SIGTERM"
		events 1
		bf-solve -d sp 2>>solve.log || pre="bf-solve -d sp failed"
		bf-apply -d sp -g 1 --allow-root-jobs >>apply.log 2>&1 &
		v=$!
		rand 50
		sleep 0.$(printf %03d $R)
		kill -KILL $v 2>/dev/null
		wait $v 2>/dev/null
		rc=$?
		k_apply=$((k_apply + 1))
		if [ $rc -eq 137 ]; then
			k_apply_hit=$((k_apply_hit + 1))
			what="bf-apply, running"
		else
			what="bf-apply, exited $rc already"
		fi
		;;
	esac
	left=0
	[ -n "$v" ] && left=$(leftovers $v)
	[ "$left" -gt 0 ] && k_tmp=$((k_tmp + 1)) && what="$what, $left in tmp/"
	test_expect_success "kill $i of $iterations: $victim ($what): whole; restarted: settled, true, each job once" '
		test -z "$pre" || { echo "$pre"; exit 1; }
		check_whole && settle && check_whole && check_settled
	'
	grep -qE ' (adopt|lost) ' first.log 2>/dev/null && k_repair=$((k_repair + 1))
	[ $test_failed -eq 0 ] || echo "# failed at kill $i; replay the choices with BF_SEED=$seed"
done

if [ $i -lt 100 ]; then
	test_skip 'the workload finished, failed, refused and preempted jobs' \
		"$i kills are too few for that"
else
test_expect_success 'the workload finished, failed, refused and preempted jobs' '
	for o in finished failed preempted; do
		grep -l "^outcome: $o$" sp/history/runs/*.yaml >recs &&
		test -s recs || { echo "no $o run"; exit 1; }
	done &&
	ls sp/rejected | grep -q "\.err$"
'
fi

test_expect_success 'every plan in history re-solves identical (bf-audit)' '
	bf-audit -d sp --log >log &&
	test -s log &&
	for p in $(sed "s/ .*//" log); do
		bf-audit -d sp $p >/dev/null || exit 1
	done
'

outcomes=$(cat sp/history/runs/*.yaml 2>/dev/null | sed -n 's/^outcome: //p' |
	sort | uniq -c | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }')
echo "# $i kills, $((k_watch_busy + k_decide_busy + k_apply_hit)) of them mid-action:" \
	"bf-watch $k_watch ($k_watch_busy in the chain)," \
	"bf-watch after new holes $k_decide ($k_decide_busy deciding)," \
	"bf-apply $k_apply ($k_apply_hit running);" \
	"$k_tmp left a file in tmp/, $k_repair restarts adopted or dropped a job;" \
	"$njobs jobs submitted; runs: $outcomes"

cleanup
test_done
