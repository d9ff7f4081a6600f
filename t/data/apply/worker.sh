#!/bin/sh
# A test worker, one per host of its job: says where it runs, then waits.
# On SIGTERM it says whether its host had already left the hosts file (a
# shrink's notice comes after the file changed) and exits 0.
# "worker.sh ignore" ignores SIGTERM (SIGKILL after the grace ends it);
# "worker.sh fail" exits 1 at once.
echo "worker $BF_HOST nodes=$BF_NODES coord=$BF_COORD uid=$(id -u)" \
	"slurm=${SLURM_JOB_ID:-none}"
case "${1:-}" in
ignore)
	trap '' TERM ;;
fail)
	exit 1 ;;
*)
	trap 'if grep -q "^$BF_HOST:" "$BF_HOSTFILE"; then
		echo "notice $BF_HOST while still listed"
	else
		echo "notice $BF_HOST"
	fi
	exit 0' TERM ;;
esac
while :; do
	sleep 0.1 &
	wait $!
done
