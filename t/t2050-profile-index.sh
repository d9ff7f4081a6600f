#!/bin/sh
# bf-profile -d reads the allocation history from history/allocs.idx,
# which bf-apply appends to as it enacts each plan, instead of every plan
# in history/; a missing, cut or damaged index gives the same profiles.
. "$(dirname "$0")/lib.sh"

# One plan enacted for holes n[1-K]: u gets K nodes (max 8).
enact() {	# holes-time K
	holes sp "$1" "n[1-$2]" &&
	bf-solve -d sp && bf-apply -d sp --allow-root-jobs >/dev/null
}

# The plans enacted a second apart, made 100 s apart: the enacted times
# of their manifests and index lines moved alike, so that a log can
# measure each allocation.
retime() {
	i=0 && sed 1d sp/history/allocs.idx >lines &&
	while read -r t stem rest; do
		i=$((i + 1)) && e="$((1700000000 + 100 * i)).000000" &&
		sed -i "s/^enacted: .*/enacted: $e/" sp/history/$stem.inputs.yaml &&
		sed -i "s/^$t $stem /$e $stem /" sp/history/allocs.idx || return 1
	done <lines
}

# u's log: ten reports with NODES "-", 10 s apart, after each plan was
# enacted, 100 samples/s a node, from the index's times.
make_log() {
	awk 'BEGIN { s = 0 } NR > 1 {
		split($3, kv, "="); k = kv[2]
		for (t = int($1) + 1; t <= int($1) + 91; t += 10) {
			if (last) s += (t - last) * 100 * prev
			printf "%d - %d\n", t, s; last = t; prev = k
		}
	}' sp/history/allocs.idx >sp/progress/u.log
}

test_expect_success 'setup: three plans enacted give u 1, 2 and 4 nodes' '
	mkspool sp && job sp u 8 "exec sleep 100000" &&
	bf-submit --intake -d sp >/dev/null 2>&1 &&
	enact 1000 1 && enact 1001 2 && enact 1002 4 && retime &&
	test $(ls sp/history/*.inputs.yaml | wc -l) -eq 3
'

test_expect_success 'the index: its header and one line per plan enacted' '
	head -1 sp/history/allocs.idx >actual &&
	echo "# bftrainer allocation index 1" >expect && test_cmp expect actual &&
	sed 1d sp/history/allocs.idx | cut -d" " -f3- >actual &&
	printf "u=1\nu=2\nu=4\n" >expect && test_cmp expect actual &&
	for s in $(sed 1d sp/history/allocs.idx | cut -d" " -f2); do
		test -f sp/history/$s.yaml || exit 1
	done
'

test_expect_success 'bf-profile -d with the index' '
	make_log && bf-profile -d sp 2>err && test_must_be_empty err &&
	cp sp/profiles/u.yaml with-index.yaml &&
	sed -n "/^points:/,/^[a-z]/p" with-index.yaml >actual &&
	printf "points:\n  1: 100\n  2: 200\n  4: 400\nrescale: {down_observations: 0, up: 5, up_observations: 2}\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'with the index no plan of history/ is read' '
	cp -R sp idxonly && rm -rf idxonly/run &&
	for f in $(sed 1d sp/history/allocs.idx | cut -d" " -f2); do
		printf "time: [\n" >idxonly/history/$f.yaml || exit 1
	done &&
	bf-profile -d idxonly 2>err && test_must_be_empty err &&
	test_cmp with-index.yaml idxonly/profiles/u.yaml
'

same_profile() {
	rm -f sp/profiles/u.yaml && bf-profile -d sp 2>err &&
	test_must_be_empty err && test_cmp with-index.yaml sp/profiles/u.yaml
}

test_expect_success 'no index: every plan is read, the same profile' '
	mv sp/history/allocs.idx idx.saved && same_profile
'

test_expect_success 'the next enactment makes it again from history/' '
	enact 1003 2 && retime &&
	sed 1d sp/history/allocs.idx | cut -d" " -f3- >actual &&
	printf "u=1\nu=2\nu=4\nu=2\n" >expect && test_cmp expect actual &&
	head -4 sp/history/allocs.idx >expect && head -4 idx.saved >actual &&
	test_cmp expect actual && make_log &&
	bf-profile -d sp && cp sp/profiles/u.yaml with-index.yaml
'

test_expect_success 'an index cut short: history/ is read, the same profile' '
	cp sp/history/allocs.idx idx.full &&
	head -n 3 idx.full >sp/history/allocs.idx && same_profile &&
	: >sp/history/allocs.idx && same_profile &&
	cp idx.full sp/history/allocs.idx
'

test_expect_success 'a line whose plan is not in history/ (a crash before its copy): left out' '
	t=$(tail -1 idx.full | cut -d" " -f1) &&
	echo "$t 1003-00000000000000aa u=8" >>sp/history/allocs.idx &&
	tail -1 idx.full >>sp/history/allocs.idx &&
	same_profile
'

test_expect_success 'a torn last line: left out, ended by a tab, the next line afresh' '
	cp idx.full sp/history/allocs.idx &&
	printf "1700000000.000000 1003-00000000000000bb u=" >>sp/history/allocs.idx &&
	same_profile &&
	enact 1004 1 &&
	tail -1 sp/history/allocs.idx | cut -d" " -f3- >actual &&
	echo "u=1" >expect && test_cmp expect actual &&
	tail -2 sp/history/allocs.idx | head -1 >actual &&
	printf "1700000000.000000 1003-00000000000000bb u=\t\n" >expect &&
	test_cmp expect actual
'
kill_jobs sp

test_done
