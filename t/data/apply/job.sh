#!/bin/sh
# A test job: says who it is and where it runs, then reports progress
# (100 samples per node every 0.1 s) until SIGTERM, which exits 0.
# "job.sh fail" exits 3 at once.
echo "start $BF_JOB nodes=$BF_NODES uid=$(id -u) gid=$(id -g)"
if [ "${1:-}" = fail ]; then
	exit 3
fi
trap 'echo "stop $BF_JOB"; exit 0' TERM
s=0
while :; do
	n=$(grep -c . "$BF_HOSTFILE")
	s=$((s + 100 * n))
	# A stop may kill date(1) first: no line without its time.
	d=$(date +%s) || exit 0
	echo "$d $n $s" >>"$BF_PROGRESS"
	sleep 0.1 &
	wait $!
done
