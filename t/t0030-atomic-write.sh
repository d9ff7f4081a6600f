#!/bin/sh
# A file appears in a spool directory complete or not at all, even when the
# writer is killed with SIGKILL at any step of the write.
. "$(dirname "$0")/lib.sh"
# Other uids run the programs and reach the spool: t/lib.sh.
test_public_trash

job() {	# name [padding lines]
	printf 'name: %s\ncommand: sleep 1\nmax_nodes: 4\n' "$1"
	[ "${2:-0}" -gt 0 ] && seq "$2" | sed 's/^/# padding to make the write take a while /'
	return 0
}

for point in atomic-after-write atomic-before-rename; do
	test_expect_success "killed at $point: nothing visible, tmp file left" "
		rm -rf sp && job a >a.yaml &&
		BF_FAULT=$point bf-submit -d sp a.yaml 2>/dev/null;
		test \$? -eq 137 &&
		find sp/incoming -mindepth 1 >visible &&
		test_must_be_empty visible &&
		ls sp/tmp >left &&
		test \$(wc -l <left) -eq 1
	"
done

if test_have_root && command -v setpriv >/dev/null; then
	test_expect_success 'another user delivers into a root spool it cannot read' '
		rm -rf shared && bf-submit -d shared /dev/null 2>/dev/null;
		job u >u.yaml && chmod 0644 u.yaml &&
		setpriv --reuid=4321 --regid=4321 --clear-groups \
			bf-submit -d "$PWD/shared" u.yaml &&
		stat -c "%u %a" shared/incoming/u.yaml >actual &&
		echo "4321 600" >expect &&
		test_cmp expect actual &&
		find shared/tmp -mindepth 1 >left &&
		test_must_be_empty left
	'
else
	test_skip 'another user delivers into a root spool it cannot read' 'needs root and setpriv'
fi

test_expect_success 'the tmp leftovers are removed by the next intake when old' '
	touch -d "3 days ago" sp/tmp/* &&
	bf-submit --intake -d sp 2>/dev/null &&
	find sp/tmp -mindepth 1 >left &&
	test_must_be_empty left
'

# Kills at random instants: every visible file must equal its source.
# The instants spread over one and a half times what a whole delivery
# takes on this machine (timed first, and its file removed): a fixed 0
# to 19 ms killed every one of them before it wrote on a VM where a fork
# and exec take several milliseconds.
test_expect_success 'SIGKILL at random instants never leaves a partial file' '
	rm -rf sp && mkdir src && bf-submit -n /dev/null 2>/dev/null;
	bf-submit -d sp src 2>/dev/null;
	job timed 20000 >src/timed.yaml &&
	t0=$(date +%s%N) && bf-submit -d sp src/timed.yaml >/dev/null 2>&1 &&
	t1=$(date +%s%N) && rm sp/incoming/timed.yaml &&
	span=$(( (t1 - t0) * 3 / 2 / 1000 )) && echo "span: $span us" &&
	i=0 && while [ $i -lt 60 ]; do
		job "j$i" 20000 >src/j$i.yaml
		# From 0 to span: before, inside or after the write and rename.
		delay=$(awk -v s=$span -v i=$i "BEGIN { printf \"%.6f\", s * ((i * 7) % 60) / 60 / 1e6 }")
		bf-submit -d sp src/j$i.yaml >/dev/null 2>&1 &
		pid=$!
		sleep $delay
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		i=$((i + 1))
	done &&
	for f in sp/incoming/*; do
		[ -e "$f" ] || continue
		cmp "$f" "src/$(basename "$f")" || exit 1
		echo "$f" >>complete
	done &&
	echo "complete: $(wc -l <complete), killed before delivery: $(ls sp/tmp | wc -l)" &&
	test "$(wc -l <complete)" -ge 1
'

test_done
