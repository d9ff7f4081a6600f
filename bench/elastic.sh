#!/bin/sh
# bench/elastic.sh - the real elastic PyTorch job of examples/torch (torchrun
# 1.13, c10d rendezvous hosted by coordinator.py, gloo on CPU, DDP) run under
# bftrainer as user nobody: its throughput per node count, and the seconds of
# progress lost per grow, shrink and preemption, beside the job file's
# declared rescale costs and bf-profile's measured ones.  Prints tables; not a
# test.  Figures and the command: bench/elastic.md.
#
#	bench/elastic.sh [-r REPEATS] [--no-slurm] [--no-local]
#
#   -r REPEATS   times each event is repeated (default 3)
#   --no-slurm   skip the preemptions on the private Slurm
#   --no-local   skip the grows and shrinks on the local backend
#
# Environment: HOLD (seconds at least at each node count, default 20),
# MINREP (steady reports needed at each count before the next event,
# default 8), MAXHOLD (seconds at most, default 90), KEEP=1 (keep the work
# directory, named on stderr), BENCH_UID (the job's owner, default 65534,
# nobody; t/t4080 and t/t8040 kill every process of nobody when they end, so
# where others run the test suite meanwhile give a uid nothing else uses).
# Needs root (bf-apply runs the job as its
# owner, nobody), setpriv, /usr/bin/torchrun, and for the Slurm part
# slurmctld, slurmd and munged (scripts/install-deps).
#
# Local backend, one spool: nobody submits examples/torch/mlp.yaml (paths
# filled in, samples raised so that it never ends by itself); bf-submit
# --intake; then hand-written holes files, each followed by bf-solve and
# bf-apply, step it through 1 node, then REPEATS times grow to 2, grow to 4,
# shrink to 3 and shrink to 1 (both shrinks with notice: SIGTERM, then
# SIGKILL after bf-apply -g 10).  Slurm backend, a second spool: a private
# Slurm of 8 nodes on 127.0.0.1 (t/lib-slurm.sh, daemons in a temporary
# directory, stopped by pid), a main job holding n[3-8]; bf-watch --backend
# slurm with its holes from bf-holes --slurm starts the job on n[1-2]; then
# REPEATS times each: "preempt", a main job on n2 preempts its pilot
# (PreemptMode=CANCEL, GraceTime=0: Slurm sends the step SIGTERM, SIGKILL
# KillWait later), and "kill+preempt", SIGKILL to every process of the job
# on n2 first (no notice), then the same main job; each main job is
# cancelled once the job is steady on 1 node, so that bf-watch grows it
# back to 2.  Each node count is held until the progress log has MINREP
# reports at it past the declared cost, and HOLD seconds.
#
# The cost of an event is bf-profile's (bf-profile(1), "The model", done
# again per event here): with (t_c, S_c) the last report at the old count and
# r the rate at the new count fitted over its reports from t_c + the declared
# cost on, the mean over the first five of those of t_i - (S_i - S_c) / r,
# less t_c.  bf-profile -j JOBFILE LOGFILE on the same log gives its averages.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
REPEATS=3 SLURM=1 LOCAL=1
HOLD=${HOLD:-20} MINREP=${MINREP:-8} MAXHOLD=${MAXHOLD:-90}
usage() {
	echo "usage: bench/elastic.sh [-r REPEATS] [--no-slurm] [--no-local]" >&2
	exit 64
}
while [ $# -gt 0 ]; do
	case $1 in
	-r) [ $# -ge 2 ] || usage; REPEATS=$2; shift ;;
	-r*) REPEATS=${1#-r} ;;
	--no-slurm) SLURM=0 ;;
	--no-local) LOCAL=0 ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 0 ;;
	*) usage ;;
	esac
	shift
done
case $REPEATS in ''|*[!0-9]*|0) usage ;; esac
PATH=$ROOT/bin:$PATH:/usr/sbin:/sbin
export PATH
PY=/usr/bin/python3
USER_UID=${BENCH_UID:-65534}
case $USER_UID in ''|*[!0-9]*|0) echo "bench/elastic.sh: BENCH_UID must be a uid other than 0" >&2; exit 64 ;; esac
DECL_UP= DECL_DOWN=

[ -x "$ROOT/bin/bf-apply" ] || {
	echo "bench/elastic.sh: build first (make all)" >&2
	exit 69
}
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	echo "bench/elastic.sh: needs root and setpriv (the job runs as BENCH_UID, default nobody)" >&2
	exit 69
fi
if ! [ -x /usr/bin/torchrun ] || ! $PY -c 'import torch.distributed' 2>/dev/null; then
	echo "bench/elastic.sh: needs python3-torch (/usr/bin/torchrun)" >&2
	exit 69
fi

# The Slurm part needs this shell to reap what slurmd's double forks leave
# (this machine's init may not): re-run once as a child subreaper, as
# t/lib-slurm.sh does for the t8 tests, then source that file for its
# daemons (it wants BF_ROOT, T_DIR, TEST_NAME and test_have_root).
if [ "$SLURM" = 1 ] && [ -z "${BF_SUBREAPER:-}" ] && command -v perl >/dev/null; then
	case $(uname -m) in x86_64) nr=157 ;; aarch64) nr=167 ;; *) nr= ;; esac
	if [ -n "$nr" ]; then
		BF_SUBREAPER=1
		export BF_SUBREAPER
		exec perl -e 'syscall('"$nr"', 36, 1, 0, 0, 0) == 0 or
		    warn "prctl(PR_SET_CHILD_SUBREAPER): $!\n"; exec @ARGV or
		    die "exec: $!\n"' /bin/sh "$0" -r "$REPEATS" \
		    $([ "$LOCAL" = 1 ] || echo --no-local)
	fi
fi
BF_ROOT=$ROOT T_DIR=$ROOT/t TEST_NAME=elastic
BF_SUBREAPER=${BF_SUBREAPER:-1}
test_have_root() { [ "$(id -u)" -eq 0 ]; }
if [ "$SLURM" = 1 ]; then
	. "$ROOT/t/lib-slurm.sh"
	slurm_usable || {
		echo "bench/elastic.sh: no Slurm here ($slurm_why); try --no-slurm" >&2
		exit 69
	}
fi

W=$(mktemp -d /tmp/bf-elastic.XXXXXX) || exit 73
chmod 755 "$W"
cp -R "$ROOT/examples/torch" "$W/torch" && chmod -R a+rX "$W/torch" || exit 73
WPID=
stop_jobs() {	# spool: every job's process groups and supervisor, by pid
	for f in "$1"/run/*/pid; do
		[ -f "$f" ] || continue
		flock -n -s "${f%/pid}/lock" true && continue
		g=$(sed -n 's/^pgid: //p' "$f")
		s=$(sed -n 's/^supervisor: //p' "$f")
		[ -n "$g" ] && kill -KILL -"$g" 2>/dev/null
		[ -f "${f%/pid}/workers" ] && awk '$2 > 1 { print $2 }' \
		    "${f%/pid}/workers" | while read -r w; do kill -KILL -"$w" 2>/dev/null; done
		[ -n "$s" ] && kill -KILL "$s" 2>/dev/null
	done
}
cleanup() {
	[ -n "$WPID" ] && kill -TERM "$WPID" 2>/dev/null
	stop_jobs "$W/local"
	stop_jobs "$W/slurm"
	if [ -n "${SLURM_DIR:-}" ]; then
		bf-apply --cleanup -d "$W/slurm" >/dev/null 2>&1
		slurm_stop
	fi
	sleep 0.5
	if [ -n "${KEEP:-}" ]; then
		echo "bench/elastic.sh: kept $W" >&2
	else
		rm -rf "$W"
	fi
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

now() { date +%s.%N | cut -c1-14; }
T0=$(now)
say() { echo "bench/elastic.sh: $(awk -v a="$(now)" -v b="$T0" \
	'BEGIN { printf "%4.0f s", a - b }'): $*" >&2; }
event() { echo "$(now) $*" >>"$W/events"; }
as_user() { setpriv --reuid=$USER_UID --regid=$USER_UID --clear-groups "$@"; }

# The job file: the recipe's own, paths filled in, samples out of reach.
jobfile() {	# checkpoint-dir
	sed -e "s|@EXAMPLES@|$W|" -e "s|@CHECKPOINT@|$1|" \
	    -e 's|^samples: .*|samples: 1000000000|' "$ROOT/examples/torch/mlp.yaml"
}
jobfile "$W/ckpt" >"$W/mlp.yaml" && chmod 644 "$W/mlp.yaml"
DECL_UP=$(sed -n 's/^rescale_up: *\([0-9.]*\).*/\1/p' "$W/mlp.yaml")
DECL_DOWN=$(sed -n 's/^rescale_down: *\([0-9.]*\).*/\1/p' "$W/mlp.yaml")
submit() {	# spool checkpoint-dir
	mkdir "$2" && chown $USER_UID "$2" &&
	jobfile "$2" >"$W/job.tmp" && chmod 644 "$W/job.tmp" &&
	as_user cp "$W/job.tmp" "$1/incoming/mlp.yaml"
}
lines() { cat "$SP/progress/mlp.log" 2>/dev/null | wc -l; }
# Until the log, past its first SKIP lines, has MINREP reports at COUNT at
# least DECL s after the first of them, and HOLD s have passed; MAXHOLD at most.
hold() {	# count skip
	h0=$(now)
	while :; do
		k=$(tail -n +$(($2 + 1)) "$SP/progress/mlp.log" 2>/dev/null |
		    awk -v c="$1" -v g="$DECL_UP" '$2 == c { if (f == "") f = $1
			if ($1 >= f + g) k++ } END { print k + 0 }')
		el=$(awk -v a="$(now)" -v b="$h0" 'BEGIN { printf "%d", a - b }')
		if [ "$el" -ge 5 ] && { ! [ -e "$SP/run/mlp/lock" ] ||
		    flock -n -s "$SP/run/mlp/lock" true 2>/dev/null; }; then
			# Its supervisor is gone: something else ended the job
			# (another user's "pkill -u nobody", say).
			say "the job ended under us; see $SP/history/runs/"
			exit 70
		fi
		[ "$el" -ge "$HOLD" ] && [ "$k" -ge "$MINREP" ] && return 0
		if [ "$el" -ge "$MAXHOLD" ]; then
			say "only $k steady reports at $1 nodes after ${MAXHOLD} s"
			return 1
		fi
		sleep 1
	done
}
holes() {	# hostlist ("" for none)
	{
		printf 'time: %s\nsource: bench/elastic.sh\n' "$(date +%s)"
		if [ -n "$1" ]; then
			printf 'idle:\n  - nodes: "%s"\n' "$1"
		else
			echo 'idle: []'
		fi
	} >"$SP/holes/.new" && mv "$SP/holes/.new" "$SP/holes/current.yaml"
}
retired() { ls "$SP"/history/runs/*-mlp-*.yaml >/dev/null 2>&1; }
# The run's logs, from history/runs/ once it ended, else from the spool.
keep_logs() {	# backend
	r=$(ls -d "$SP"/history/runs/*-mlp-*/ 2>/dev/null | head -1)
	for f in progress.log workers.log pilots.log output; do
		if [ -n "$r" ] && [ -f "$r/$f" ]; then
			cp "$r/$f" "$W/$1.$f"
		fi
	done
	[ -f "$W/$1.progress.log" ] || cp "$SP/progress/mlp.log" "$W/$1.progress.log"
	[ -f "$W/$1.workers.log" ] || cp "$SP/run/mlp/workers.log" "$W/$1.workers.log" 2>/dev/null
	[ -f "$W/$1.pilots.log" ] || cp "$SP/run/mlp/pilots.log" "$W/$1.pilots.log" 2>/dev/null
	[ -f "$W/$1.output" ] || cp "$SP/run/mlp/output" "$W/$1.output" 2>/dev/null
}

load0=$(cut -d' ' -f1 /proc/loadavg)

# ---- local backend: grows 1->2->4, shrinks 4->3->1, with notice ----
if [ "$LOCAL" = 1 ]; then
	SP=$W/local
	bf-submit -d "$SP" /dev/null 2>/dev/null
	submit "$SP" "$W/ckpt" && bf-submit --intake -d "$SP" 2>/dev/null &&
	    [ -f "$SP/jobs/mlp.yaml" ] || { echo "bench/elastic.sh: intake failed" >&2; exit 70; }
	step() {	# event from to hostlist
		n=$(lines)
		event local "$1" "$2" "$3"
		holes "$4"
		bf-solve -d "$SP" >/dev/null && bf-apply -d "$SP" -g 10 >>"$W/local.apply" ||
		    { echo "bench/elastic.sh: bf-apply failed" >&2; exit 70; }
		say "local: $1 $2 -> $3"
		hold "$3" "$n"
	}
	step start 0 1 n1
	i=1
	while [ "$i" -le "$REPEATS" ]; do
		step grow 1 2 "n[1-2]"
		step grow 2 4 "n[1-4]"
		step shrink 4 3 "n[1-3]"
		step shrink 3 1 n1
		i=$((i + 1))
	done
	event local stop 1 0
	holes ""
	bf-solve -d "$SP" >/dev/null && bf-apply -d "$SP" -g 10 >>"$W/local.apply"
	n=0
	until retired || [ "$n" -ge 30 ]; do
		sleep 1
		bf-apply -d "$SP" -g 10 >>"$W/local.apply" 2>&1
		n=$((n + 1))
	done
	keep_logs local
	stop_jobs "$SP"
fi

# ---- Slurm backend: preemptions 2->1 by a main job, grows back 1->2 ----
if [ "$SLURM" = 1 ]; then
	SP=$W/slurm
	say "slurm: starting a private Slurm"
	slurm_start 2>"$W/slurm.start" || {
		cat "$W/slurm.start" >&2
		echo "bench/elastic.sh: the private Slurm did not start" >&2
		exit 70
	}
	trap cleanup EXIT
	trap 'exit 1' HUP INT TERM
	main=$(sbatch --parsable -p main -w "n[3-8]" -N6 --exclusive -t 30 -J main \
	    --wrap 'sleep 1800')
	slurm_wait 15 sh -c "[ \"\$(squeue -h -j $main -o %T)\" = RUNNING ]" ||
	    exit 70
	bf-submit -d "$SP" /dev/null 2>/dev/null
	timeout -s KILL 1200 bf-watch -d "$SP" --backend slurm -g 10 -r 1 \
	    --debounce 20 --no-profile --holes-cmd 'bf-holes --slurm' \
	    --holes-interval 1 2>"$W/slurm.watch" &
	tpid=$!
	holding() {	# count
		[ "$(sed -n 's/^  mlp: {nodes: \([0-9]*\),.*/\1/p' "$SP/state.yaml" \
		    2>/dev/null)" = "$1" ]
	}
	sleep 1
	WPID=$(cat "$SP/lock" 2>/dev/null)
	event slurm start 0 2
	submit "$SP" "$W/ckpt-slurm"
	slurm_wait 60 holding 2 || exit 70
	say "slurm: start 0 -> 2"
	hold 2 0
	# The pids of the job's processes on NODE: inside its pilot (slurmd
	# set SLURMD_NODENAME) and of this spool (bf-apply set BF_SPOOL).
	step_pids() {	# node
		grep -lzx "SLURMD_NODENAME=$1" /proc/[0-9]*/environ 2>/dev/null |
		    xargs -r grep -lzx "BF_SPOOL=$SP" 2>/dev/null |
		    sed 's|^/proc/\([0-9]*\)/environ$|\1|'
	}
	preempt() {	# kind: term (Slurm's own way) or kill (SIGKILL first)
		n=$(lines)
		pids=
		[ "$1" = kill ] && pids=$(step_pids n2)
		event slurm "preempt-$1" 2 1
		if [ "$1" = kill ]; then
			[ -n "$pids" ] && kill -KILL $pids ||
			    say "slurm: no process of the job on n2 to kill"
		fi
		pre=$(sbatch --parsable -p main -w n2 -N1 --exclusive -t 10 -J pre \
		    --wrap 'sleep 600')
		say "slurm: main job $pre on n2: preempt 2 -> 1 ($1)"
		slurm_wait 30 holding 1
		hold 1 "$n"
		n=$(lines)
		event slurm grow 1 2
		scancel "$pre"
		say "slurm: main job $pre cancelled: grow 1 -> 2"
		slurm_wait 60 holding 2
		hold 2 "$n"
	}
	i=1
	while [ "$i" -le "$REPEATS" ]; do
		preempt term
		preempt kill
		i=$((i + 1))
	done
	WPID=$(cat "$SP/lock" 2>/dev/null)
	kill -TERM "$WPID" 2>/dev/null
	wait "$tpid" 2>/dev/null
	WPID=
	event slurm stop 2 0
	holes ""
	bf-solve -d "$SP" >/dev/null &&
	    bf-apply -d "$SP" --backend slurm -g 10 >>"$W/slurm.apply" 2>&1
	n=0
	until retired || [ "$n" -ge 30 ]; do
		sleep 1
		bf-apply -d "$SP" --backend slurm -g 10 >>"$W/slurm.apply" 2>&1
		n=$((n + 1))
	done
	keep_logs slurm
	bf-apply --cleanup -d "$SP" >/dev/null 2>&1
	stop_jobs "$SP"
	scancel "$main" 2>/dev/null
fi
load1=$(cut -d' ' -f1 /proc/loadavg)
say "done; load average $load0 at the start, $load1 at the end"

# ---- the figures ----
$PY - "$W" "$DECL_UP" "$DECL_DOWN" "$REPEATS" "$load0" "$load1" "$USER_UID" <<'EOF'
import os, pwd, re, statistics, subprocess, sys

W, DUP, DDOWN = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
REPEATS, LOAD0, LOAD1 = sys.argv[4], sys.argv[5], sys.argv[6]
try:
    OWNER = f"{pwd.getpwuid(int(sys.argv[7])).pw_name} (uid {sys.argv[7]})"
except KeyError:
    OWNER = f"uid {sys.argv[7]}"
TARGET = 5.0
ANCHOR, OUTLIER = 5, 10.0          # lib/profile/profile.h: PROFILE_ANCHOR, PROFILE_OUTLIER

def read_log(path):
    out = []
    try:
        for l in open(path):
            f = l.split()
            if len(f) == 3:
                try:
                    out.append((float(f[0]), int(f[1]), int(f[2])))
                except ValueError:
                    pass
    except OSError:
        pass
    return out

def fit(pts):
    """lib/profile/profile.c fit_line and drop_outliers: (rate, span, used points)."""
    def line(p):
        if len(p) < 2:
            return None
        tb = sum(t for t, _ in p) / len(p)
        sb = sum(s for _, s in p) / len(p)
        stt = sum((t - tb) ** 2 for t, _ in p)
        if stt <= 0:
            return None
        return tb, sb, sum((t - tb) * (s - sb) for t, s in p) / stt
    l = line(pts)
    if l is None:
        return None
    tb, sb, r = l
    res = sorted(abs(s - sb - r * (t - tb)) for t, s in pts)
    m = len(res)
    med = res[m // 2] if m % 2 else (res[m // 2 - 1] + res[m // 2]) / 2
    keep = [(t, s) for t, s in pts if abs(s - sb - r * (t - tb)) <= OUTLIER * med + 1]
    if 2 <= len(keep) < len(pts):
        l2 = line(keep)
        if l2 is None:
            return None
        tb, sb, r = l2
        pts = keep
    span = max(t for t, _ in pts) - min(t for t, _ in pts)
    if r <= 0 or span <= 0:
        return None
    return r, span, pts

def segments(log):
    segs = []
    for i, (t, n, s) in enumerate(log):
        if i and n == segs[-1]["n"] and t - log[i - 1][0] <= 300:
            segs[-1]["b"] = i + 1
            continue
        segs.append({"a": i, "b": i + 1, "n": n,
                     "tc": log[i - 1][0] if i else None,
                     "sc": log[i - 1][2] if i else None})
    return segs

def events(backend):
    ev = []
    for l in open(os.path.join(W, "events")):
        f = l.split()
        if f[1] == backend and f[2] not in ("start", "stop"):
            ev.append((float(f[0]), f[2], int(f[3]), int(f[4])))
    return ev

def wlog(backend):
    """workers.log and pilots.log lines: (time, what, host)."""
    out = []
    for name in ("workers.log", "pilots.log"):
        try:
            for l in open(os.path.join(W, f"{backend}.{name}")):
                f = l.split()
                if len(f) >= 3:
                    out.append((int(f[0]), f[1], f[2]))
        except OSError:
            pass
    return sorted(out, key=lambda x: x[0])

def measure(log, te, kind, a, b):
    """One event at te from a to b nodes, by bf-profile's method."""
    gap = DUP if b > a else DDOWN
    j = next((i for i in range(1, len(log)) if log[i][0] >= te and log[i][1] != a), None)
    if j is None or log[j - 1][1] != a:
        return None
    tc, sc = log[j - 1][0], log[j - 1][2]
    k = next((i for i in range(j, len(log)) if log[i][1] == b), None)
    if k is None:
        return None
    e = k
    while e < len(log) and log[e][1] == b:
        e += 1
    seg = log[k:e]
    steady = [(t, s) for i, (t, n, s) in enumerate(seg) if i > 0 and t >= tc + gap]
    f = fit(steady)
    if f is None:
        return None
    r, _, used = f
    first = used[:ANCHOR]
    t0 = sum(t - (s - sc) / r for t, s in first) / len(first)
    via = [log[i][1] for i in range(j, k) if i == j or log[i][1] != log[i - 1][1]]
    return {"te": te, "tc": tc, "first": log[k][0], "cost": t0 - tc, "rate": r,
            "via": via, "kind": kind, "a": a, "b": b}

def profile(log, jobfile=True):
    """bf-profile [-j JOBFILE] LOGFILE: its rescale line and points."""
    cmd = ["bf-profile"] + (["-j", os.path.join(W, "mlp.yaml")] if jobfile else []) + [log]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
    except OSError:
        return {}, {}
    m = re.search(r"^rescale: \{(.*)\}", out, re.M)
    resc = dict(re.findall(r"(\w+): ([0-9.]+)", m.group(1))) if m else {}
    pts = {int(n): float(r) for n, r in re.findall(r"^  (\d+): ([0-9.]+)$", out, re.M)}
    return resc, pts

def fmt(x, w=7, p=2):
    return f"{x:{w}.{p}f}" if x is not None else f"{'-':>{w}}"

rows, thr, detail, stops, means = [], [], [], [], []
T_FIRST = float(open(os.path.join(W, "events")).readline().split()[0])
NAMES = {"preempt-term": "preempt", "preempt-kill": "kill+preempt"}
for backend in ("local", "slurm"):
    path = os.path.join(W, f"{backend}.progress.log")
    log = read_log(path)
    if not log:
        continue
    resc, pts = profile(path)
    # Throughput: every segment's rate, its warm-up cut as bf-profile cuts it.
    by = {}
    for sg in segments(log):
        rep = log[sg["a"]:sg["b"]]
        if sg["tc"] is None:
            steady = [(t, s) for t, _, s in rep[1:]]
        else:
            gap = DUP if sg["n"] > log[sg["a"] - 1][1] else DDOWN
            steady = [(t, s) for i, (t, _, s) in enumerate(rep) if i and t >= sg["tc"] + gap]
        f = fit(steady)
        if f:
            by.setdefault(sg["n"], []).append(f[0])
    one = statistics.median(by[1]) if 1 in by else None
    for n in sorted(by):
        med = statistics.median(by[n])
        thr.append((backend, n, len(by[n]), min(by[n]), med, max(by[n]), pts.get(n),
                    med / one if one else None))
    # How the training processes stopped (train.py's own lines in the output).
    try:
        out = open(os.path.join(W, f"{backend}.output"), errors="replace").read()
        st = re.findall(r"\] start: .*; import ([0-9.]+) s, init ([0-9.]+) s", out)
        stops.append((backend, len(re.findall(r"\] stop at step .*committed step", out)),
                      len(re.findall(r"\] collective failed at step", out)),
                      [float(a) for a, _ in st], [float(b) for _, b in st]))
    except OSError:
        pass
    # Events.
    wl = wlog(backend)
    got = {}
    for te, kind, a, b in events(backend):
        m = measure(log, te, kind, a, b)
        key = (kind, a, b)
        got.setdefault(key, []).append(m)
        if m:
            acts = [f"{w}:{h}@{t - int(te):+d}" for t, w, h in wl
                    if te - 1 <= t <= m["first"] + 1 and w in ("start", "term", "exit", "kill",
                                                                "leave", "run", "cancel")]
            detail.append((backend, f"{NAMES.get(kind, kind)} {a}->{b}", len(got[key]),
                te - T_FIRST, m["tc"] - te,
                m["first"] - m["tc"], m["cost"], "->".join(map(str, m["via"])) + f"->{b}"
                if len(m["via"]) > 1 else "", " ".join(acts)))
    mine = {d: [m["cost"] for ms in got.values() for m in ms if m and (m["b"] > m["a"]) == (d == "up")]
            for d in ("up", "down")}
    plain, _ = profile(path, False)
    means.append((backend, resc, plain, mine))
    for (kind, a, b), ms in got.items():
        ok = [m["cost"] for m in ms if m]
        up = b > a
        bp = resc.get("up" if up else "down")
        bo = resc.get("up_observations" if up else "down_observations", "0")
        gaps = [m["first"] - m["tc"] for m in ms if m]
        rows.append((f"{NAMES.get(kind, kind)} {a}->{b}", backend, len(ok), len(ms), DUP if up else DDOWN,
                     float(bp) if bp else None, bo, ok, gaps))

print(f"examples/torch under bftrainer as {OWNER}: {REPEATS} repeats; "
      f"{os.cpu_count()} cores, load average {LOAD0} at the start, {LOAD1} at the end")
print()
print("throughput, samples/s: rate per steady segment (bf-profile's fit), and bf-profile's point")
print(f"{'backend':<8} {'nodes':>5} {'segs':>4} {'min':>7} {'median':>7} {'max':>7} "
      f"{'bf-profile':>10} {'median/1node':>12}")
for b, n, k, lo, med, hi, bp, ratio in thr:
    print(f"{b:<8} {n:>5} {k:>4} {lo:7.0f} {med:7.0f} {hi:7.0f} "
          f"{bp if bp is not None else '-':>10} {fmt(ratio, 12)}")
print()
print("seconds of progress lost per event: declared (job file), bf-profile -j (its "
      "average up or down over the whole log), this script per event (min median max),")
print(f"restart = last report at the old count to the first at the new; target: under {TARGET:g} s")
print(f"{'event':<17} {'backend':<7} {'n':>3} {'declared':>8} {'bf-profile':>14} "
      f"{'min':>6} {'median':>6} {'max':>6} {'restart':>7} {'under_5s':>8}")
for ev, b, k, tot, decl, bp, bo, c, g in rows:
    bps = f"{bp:.2f} ({bo} obs)" if bp is not None else "-"
    under = "-" if not c else ("yes" if max(c) < TARGET else f"{sum(x < TARGET for x in c)} of {len(c)}")
    print(f"{ev:<17} {b:<7} {k:>3} {decl:8g} {bps:>14} "
          f"{fmt(min(c) if c else None, 6)} {fmt(statistics.median(c) if c else None, 6)} "
          f"{fmt(max(c) if c else None, 6)} {fmt(statistics.median(g) if g else None, 7)} "
          f"{under:>8}" + ("" if k == tot else f"  ({tot - k} not measured)"))
print()
print("bf-profile's averages per log (observations): with -j JOBFILE its warm-up cut is the "
      "declared cost; without, the defaults 20 s up and 10 s down")
def obs(r, d):
    return f"{d} {float(r[d]):.2f} ({r[d + '_observations']})" if d in r else f"{d} -"
for b, resc, plain, mine in means:
    m = "  ".join(f"{d} {statistics.mean(mine[d]):.2f} ({len(mine[d])})" if mine[d] else f"{d} -"
                  for d in ("up", "down"))
    print(f"{b:<6} bf-profile -j: {obs(resc, 'up')}  {obs(resc, 'down')};  "
          f"plain: {obs(plain, 'up')}  {obs(plain, 'down')};  this script's mean: {m}")
print()
for b, c, f, imp, ini in stops:
    print(f"{b}: the group stopped {c} times with a commit (notice), "
          f"{f} times by a failed collective (no notice), by train.py's output")
    if imp:
        print(f"{b}: {len(imp)} training process starts: python and import torch "
              f"{min(imp):.2f} / {statistics.median(imp):.2f} / {max(imp):.2f} s, "
              f"init_process_group {min(ini):.2f} / {statistics.median(ini):.2f} / "
              f"{max(ini):.2f} s (min / median / max)")
print()
print("each event: at (s from the first event), action->t_c (when the old count's last "
      "report came, from the event), restart, cost; workers.log / pilots.log lines (s from the event)")
for b, ev, i, at, a2c, rs, cost, via, acts in detail:
    print(f"{b:<6} {ev:<17} #{i} {at:6.0f} {a2c:+6.2f} {rs:6.2f} {cost:6.2f} "
          f"{('via ' + via) if via else ''} {acts}")
EOF
