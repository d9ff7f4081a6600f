# t/lib-report.sh - histories written by hand for the bf-report tests (t7*),
# sourced after lib.sh.  Every file is written here with printf and
# xxhsum, apart from lib/history.c, so that the tests check bf-report
# against an independent writing of bf-spool(5)'s History.
#
#	hist_init DIR			an empty history: DIR/objects, DIR/runs
#	hist_job DIR NAME UID MIN "N:RATE ..."
#					a job object (max_nodes 64); RATEs
#					empty: no scaling.  The manifests made
#					after it name it, until hist_drop NAME.
#	hist_enact DIR ENACTED HOSTS STATE PLAN
#		a plan enacted at ENACTED (unix seconds, a fraction allowed):
#		HOSTS the idle nodes ("n1,n2"), STATE the jobs that held
#		nodes before it and PLAN those it gives nodes, both as
#		"a=n1,n2 b=n3" ("b=" for none).  The plan's time is ENACTED's
#		whole seconds.
#	hist_run DIR ENDED NAME OUTCOME [LOGFILE]
#		a run record, with LOGFILE as its progress.log
#	digest FILE			xxh3:HEX of FILE

digest() {
	printf 'xxh3:%s' "$(xxhsum -H3 "$1" 2>/dev/null | sed 's/.* = //')"
}

# Store FILE as an object; its digest in $obj.
store() {	# dir file
	obj=$(digest "$2")
	cp "$2" "$1/objects/${obj#xxh3:}"
}

hist_init() {
	mkdir -p "$1/objects" "$1/runs"
	: >"$1/.jobs"
}

hist_job() {	# dir name uid min "n:rate ..."
	{
		printf 'command: "true"\nmax_nodes: 64\nmin_nodes: %s\n' "$4"
		printf 'name: %s\nowner: {uid: %s}\n' "$2" "$3"
		if [ -n "$5" ]; then
			echo "scaling:"
			for _p in $5; do
				printf '  %s: %s\n' "${_p%%:*}" "${_p#*:}"
			done
		fi
		printf 'submitted: 1\n'
	} >"$1/.job-$2"
	store "$1" "$1/.job-$2"
	grep -v "^$2 " "$1/.jobs" >"$1/.jobs.new"
	echo "$2 $obj" >>"$1/.jobs.new"
	sort "$1/.jobs.new" >"$1/.jobs"
}

hist_drop() {	# dir name
	grep -v "^$2 " "$1/.jobs" >"$1/.jobs.new"
	mv "$1/.jobs.new" "$1/.jobs"
}

# "a=n1,n2 b=" as YAML flow lines: "  a: {nodes: 2, ...}"
_hist_jobs() {	# spec with-was(plan)
	for _j in $1; do
		_n=${_j%%=*} _h=${_j#*=}
		if [ -z "$_h" ]; then _c=0; else
			_c=$(echo "$_h" | tr ',' '\n' | grep -c .)
		fi
		if [ "$2" = plan ]; then
			printf '  %s: {nodes: %s, was: 0' "$_n" "$_c"
			[ "$_c" -gt 0 ] && printf ', hosts: "%s"' "$_h"
			printf '}\n'
		elif [ "$_c" -gt 0 ]; then
			printf '  %s: {nodes: %s, hosts: "%s"}\n' "$_n" "$_c" "$_h"
		fi
	done
}

hist_enact() {	# dir enacted hosts state plan
	_d=$1 _e=$2 _t=${2%%.*}
	{
		printf 'time: %s\nsource: test\n' "$_t"
		if [ -n "$3" ]; then
			printf 'idle:\n  - nodes: "%s"\n' "$3"
		else
			printf 'idle: []\n'
		fi
	} >"$_d/.holes"
	store "$_d" "$_d/.holes"; _holes=$obj
	_hist_jobs "$4" state >"$_d/.sj"
	if [ -s "$_d/.sj" ]; then
		{ printf 'time: %s\njobs:\n' "$_t"; cat "$_d/.sj"; } >"$_d/.state"
	else
		printf 'time: %s\njobs: {}\n' "$_t" >"$_d/.state"
	fi
	store "$_d" "$_d/.state"; _state=$obj
	{
		printf 'time: %s\n' "$_t"
		printf 'inputs: {holes: "%s", jobs: "xxh3:0000000000000000", state: "%s"}\n' \
			"$_holes" "$_state"
		printf 'solver: {name: test, status: optimal, objective: 0, seconds: 0}\n'
		printf 'jobs:\n'
		_hist_jobs "$5" plan
		printf 'free: ""\n'
	} >"$_d/.plan"
	_p=$(digest "$_d/.plan")
	cp "$_d/.plan" "$_d/$_t-${_p#xxh3:}.yaml"
	{
		printf 'plan: "%s"\nenacted: %s\nholes: "%s"\nstate: "%s"\n' \
			"$_p" "$_e" "$_holes" "$_state"
		if [ -s "$_d/.jobs" ]; then
			echo "jobs:"
			sed 's/^\([^ ]*\) \(.*\)$/  \1: "\2"/' "$_d/.jobs"
		else
			echo "jobs: {}"
		fi
		echo "profiles: {}"
	} >"$_d/$_t-${_p#xxh3:}.inputs.yaml"
	hist_last="$_t-${_p#xxh3:}"
}

hist_run() {	# dir ended name outcome [logfile]
	_stem="$2-$3-42"
	_job=$(sed -n "s/^$3 //p" "$1/.jobs")
	{
		printf 'name: %s\noutcome: %s\nended: %s\nnodes: 0\nhosts: ""\n' \
			"$3" "$4" "$2"
		[ -n "$_job" ] && printf 'job: "%s"\n' "$_job"
		printf 'run: "history/runs/%s"\n' "$_stem"
	} >"$1/runs/$_stem.yaml"
	mkdir -p "$1/runs/$_stem"
	[ -n "${5:-}" ] && cp "$5" "$1/runs/$_stem/progress.log"
	return 0
}
