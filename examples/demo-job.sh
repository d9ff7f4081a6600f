#!/bin/sh
# demo-job.sh - a stand-in for a malleable training job under bftrainer.
#
# Appends "UNIXTIME NODES SAMPLES" to $BF_PROGRESS every STEP seconds, at a
# rate of RATE samples/s per node with diminishing returns (efficiency 0.9
# per doubling), reading its node count from $BF_HOSTFILE each step as an
# elastic runtime would.  SIGTERM is a checkpoint-and-exit: exit 0.
# Environment: RATE (default 1000), STEP (default 0.2), SECONDS_MAX (exit
# 0 after that many seconds; default: run until stopped).
RATE=${RATE:-1000}
STEP=${STEP:-0.2}
samples=0
if [ -s "$BF_PROGRESS" ]; then
	samples=$(tail -n 1 "$BF_PROGRESS" | awk '{ print $3 + 0 }')
fi
start=$(date +%s)
trap 'echo "demo-job: $BF_JOB stopped at $samples samples"; exit 0' TERM INT
echo "demo-job: $BF_JOB starts on $BF_NODES nodes"
while :; do
	nodes=$(grep -c . "$BF_HOSTFILE" 2>/dev/null || echo 0)
	samples=$(awk -v s="$samples" -v n="$nodes" -v r="$RATE" -v t="$STEP" \
		'BEGIN { e = n > 0 ? n * 0.9 ^ (log(n) / log(2)) : 0;
			 printf "%d", s + r * e * t }')
	echo "$(date +%s) $nodes $samples" >>"$BF_PROGRESS"
	if [ -n "${SECONDS_MAX:-}" ] &&
	    [ $(($(date +%s) - start)) -ge "$SECONDS_MAX" ]; then
		echo "demo-job: $BF_JOB done"
		exit 0
	fi
	sleep "$STEP" &
	wait $!
done
