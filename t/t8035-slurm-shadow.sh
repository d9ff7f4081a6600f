#!/bin/sh
# bf-watch --shadow against a live private Slurm 22.05 with 8 nodes
# (t/lib-slurm.sh), as a site trials bftrainer beside production: its holes
# from the real scheduler (--holes-cmd 'bf-holes --slurm'), --backend slurm
# named as the backend it stands in for.  It decides, logs and records
# every plan in history/ (a main job taking nodes is a decision too), but
# no pilot job is ever submitted, no process of a job runs; bf-report says
# what the holes would have given.
. "$(dirname "$0")/lib.sh"
. "$T_DIR/lib-slurm.sh"

TITLES='a private Slurm starts with 8 idle nodes
bf-watch --shadow --backend slurm decides: the jobs get all 8 nodes, no pilot submitted
a main job takes 3 nodes: the shadow plan gives them back, still no pilot
bf-audit makes every shadow plan again; bf-report says what the holes would have given
every daemon and job stopped by pid'

slurm_usable || test_slurm_skip_all "$TITLES"

t0=$(date +%s)
nodes_of() {	# job: its node count in the state
	sed -n "s/^  $1: {nodes: \([0-9]*\),.*/\1/p" sp/state.yaml
}
holding() {	# job nodes
	[ "$(nodes_of "$1")" = "$2" ]
}
held() {	# nodes: in all
	[ "$(sed -n 's/^  [a-z]*: {nodes: \([0-9]*\),.*/\1/p' sp/state.yaml |
	    awk '{ n += $1 } END { print n + 0 }')" = "$1" ]
}
no_pilot() {	# : nothing of bftrainer's in the queue, ever
	! squeue -h -o '%j' | grep -v "^main" | grep -q .
}

slurm_start 2>start.err
start_rc=$?
test_expect_success 'a private Slurm starts with 8 idle nodes' '
	cat "$TRASH/start.err" && test $start_rc = 0 &&
	test $(sinfo -h -N -p bf -t idle -o %N | wc -l) = 8
'

mkspool sp
timeout -s KILL 120 bf-watch -d sp --shadow --backend slurm --allow-root-jobs \
	-g 2 -r 1 --debounce 20 --no-profile --metrics "$PWD/m.prom" \
	--holes-cmd 'bf-holes --slurm' --holes-interval 1 2>watch.log &
tpid=$!
wait_for 5 test -s sp/lock >/dev/null 2>&1
wpid=$(cat sp/lock 2>/dev/null)
job sp a 6 "exec sleep 300" "samples: 1000000"
job sp b 6 "exec sleep 300" "samples: 1000000"

test_expect_success 'bf-watch --shadow --backend slurm decides: the jobs get all 8 nodes, no pilot submitted' '
	test -n "$wpid" && alive $wpid &&
	grep -q "^bf-watch: start: bftrainer [0-9.]*; spool $PWD/sp; backend shadow of slurm; " watch.log &&
	wait_for 30 held 8 &&
	wait_for 10 grep -q "decision: .*start a 0->[0-9]* (chosen)" watch.log &&
	wait_for 10 grep -q "decision: .*start b 0->[0-9]* (chosen)" watch.log &&
	no_pilot && test -f sp/run/a/shadow && test -f sp/run/b/shadow &&
	grep -x "backend: slurm" sp/run/a/shadow &&
	! pgrep -f "exec sleep 300" &&
	! grep -q "pilots: {" sp/state.yaml
'

test_expect_success 'a main job takes 3 nodes: the shadow plan gives them back, still no pilot' '
	sbatch --parsable -p main -w "n[1-3]" -N3 --exclusive -t 5 -J main3 \
		--wrap "sleep 300" >main3 &&
	slurm_wait 15 sh -c "[ \"\$(squeue -h -j $(cat main3) -o %T)\" = RUNNING ]" &&
	wait_for 20 held 5 &&
	wait_for 10 grep -q "decision: trigger [a-zA-Z]*; .*(taken back)" watch.log &&
	! grep -q "n[1-3]:" sp/run/a/hosts sp/run/b/hosts &&
	no_pilot && ! pgrep -f "exec sleep 300" &&
	grep -x "bftrainer_nodes_held 5" m.prom &&
	grep -x "bftrainer_nodes_idle 5" m.prom
'

kill -TERM "$wpid" 2>/dev/null
wait_for 10 eval '! alive $wpid' >/dev/null 2>&1 || kill -KILL "$wpid" 2>/dev/null
wait "$tpid"
watch_rc=$?

test_expect_success 'bf-audit makes every shadow plan again; bf-report says what the holes would have given' '
	test $watch_rc = 0 &&
	ls sp/history/*[0-9a-f].yaml >plans && test $(wc -l <plans) -ge 2 &&
	for f in $(cat plans); do
		s=$(basename $f .yaml) && bf-audit -d sp "$s" >out &&
		echo "history/$s.yaml: identical" >expect &&
		test_cmp expect out || exit 1
	done &&
	bf-report -d sp --csv >rep &&
	awk -F, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i }
	    \$1 == \"total\" { h = \$c[\"held_node_hours\"]; s = \$c[\"samples_done\"]; i = \$c[\"ideal_samples\"] }
	    END { exit !(h > 0 && s == 0 && i > 0) }" rep &&
	no_pilot
'

scancel -u root 2>/dev/null
test_slurm_stop 'every daemon and job stopped by pid'

echo "# t8035: $(($(date +%s) - t0)) s of wall time"
test_done
