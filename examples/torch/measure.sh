#!/bin/bash
# measure.sh - simulate bftrainer on one machine and measure the recipe's
# rescale costs and throughputs (README.md, "Measured").
#
#   measure.sh [OUTDIR]        (default /tmp/bf-torch-measure)
#
# Starts coordinator.py, then one worker.sh per emulated node n1..n4, each in
# its own session and process group, with the environment bftrainer gives;
# every D seconds (default 25): n1 alone, grow to 2 (n2), grow to 4 (n3, n4),
# shrink to 3 (SIGTERM to n4's process group: the shrink notice), preempt to 2
# (SIGKILL to n3's process group: no notice), stop (SIGTERM to everything).
# Then prints, per node count, the rate, and per rescale its cost by
# bf-profile's method (bf-profile(1), "The model").  Environment: PORT
# (default 29655), D, and BF_TORCH_* as worker.sh reads them.
set -u
here=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-/tmp/bf-torch-measure}
D=${D:-25}
mkdir -p "$OUT" || exit 73
rm -rf "$OUT/ckpt" "$OUT"/*.log "$OUT"/*.pid
export BF_JOB=toy BF_SPOOL=$OUT BF_PROGRESS=$OUT/progress.log BF_HOSTFILE=$OUT/hosts
export BF_SLOTS=1 BF_MIN_NODES=1 BF_MAX_NODES=4 BF_NODES=1
export BF_COORD_HOST=localhost BF_COORD_PORT=${PORT:-29655}
export BF_COORD=$BF_COORD_HOST:$BF_COORD_PORT PATH=/usr/local/bin:/usr/bin:/bin
hosts() { printf '%s:1\n' "$@" >"$OUT/hosts.tmp" && mv "$OUT/hosts.tmp" "$OUT/hosts"; }
event() { echo "$(date +%s.%N | cut -c1-14) $*" >>"$OUT/events.log"; }
start() { (BF_HOST=$1 setsid /bin/sh "$here/worker.sh" --checkpoint "$OUT/ckpt" \
	>"$OUT/agent-$1.log" 2>&1 & echo $! >"$OUT/agent-$1.pid"); }
signal() { kill -"$1" -- -"$(cat "$OUT/agent-$2.pid")"; }
running() { kill -0 -- -"$(cat "$OUT/agent-$1.pid")" 2>/dev/null; }

setsid /usr/bin/python3 "$here/coordinator.py" >"$OUT/coordinator.log" 2>&1 &
coord=$!
sleep 1
hosts n1; event start 1; start n1; sleep "$D"
hosts n1 n2; event grow 2; start n2; sleep "$D"
hosts n1 n2 n3 n4; event grow 4; start n3; start n4; sleep "$D"
hosts n1 n2 n3; event shrink 3 SIGTERM; signal TERM n4; sleep "$D"
hosts n1 n2; event preempt 2 SIGKILL; signal KILL n3; sleep "$D"
event stop; signal TERM n1; signal TERM n2; kill -TERM "$coord"
wait "$coord"
for i in $(seq 100); do running n1 || running n2 || break; sleep 0.1; done
for h in n1 n2 n3 n4; do running $h && echo "measure.sh: $h still runs" >&2; done

/usr/bin/python3 - "$OUT" <<'EOF'
import sys
out = sys.argv[1]
declared = 5.0      # warm-up cut after a rescale, as bf-profile with rescale_* = 5
pr = [tuple(map(float, l.split())) for l in open(out + "/progress.log") if l.strip()]
segs = []
for t, n, s in pr:
    if segs and segs[-1][0] == n:
        segs[-1][1].append((t, s))
    else:
        segs.append((n, [(t, s)]))

def rate(pts):
    if len(pts) < 2:
        return None
    mt = sum(t for t, _ in pts) / len(pts)
    ms = sum(s for _, s in pts) / len(pts)
    den = sum((t - mt) ** 2 for t, _ in pts)
    return sum((t - mt) * (s - ms) for t, s in pts) / den if den > 0 else None

for i, (n, reps) in enumerate(segs):
    steady = reps[1:]
    if i:
        tc, sc = segs[i - 1][1][-1]
        steady = [p for p in steady if p[0] >= tc + declared]
    r = rate(steady)
    line = f"{int(n)} nodes: {r:7.1f} samples/s" if r else f"{int(n)} nodes: too short"
    if i and r:
        first = steady[:5]
        cost = sum(t - (s - sc) / r for t, s in first) / len(first) - tc
        line += (f"   {int(segs[i - 1][0])}->{int(n)}: cost {cost:5.2f} s, last report at "
                 f"{int(segs[i - 1][0])} to first at {int(n)}: {reps[0][0] - tc:5.2f} s")
    print(line)
EOF
