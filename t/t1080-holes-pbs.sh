#!/bin/sh
# bf-holes --pbs on output captured from real PBS Professional servers
# (t/data/pbs/SOURCES.md): each capture, and each variant derived from one,
# gives exactly the idle hosts and until written below, and the same as
# t/lib-pbs.py, an independent reading of the same output (Python's json,
# datetime and zoneinfo).  Then the failure exits and a replay through -d.
#
# Captures whose licence allows no copy (ALCF Polaris qstat -f -F json,
# Aurora pbs_rstat -f) are read in place from ../shared/data/schedulers/pbs;
# where that directory is missing, the cases that need them are reported as
# skipped, with the reason.  Variants are made here, at run time, by the
# edits each case names; json.dump re-serialises them (the layout of the
# JSON is not PBS's then, which bf-holes must not mind).
. "$(dirname "$0")/lib.sh"

P="$T_DIR/data/pbs"
S=$(cd "$BF_ROOT/../shared/data/schedulers/pbs" 2>/dev/null && pwd || echo "")
# ALCF prints Chicago time: PBS_TZID=America/Chicago in the Aurora capture,
# whose reserve_retry of the epoch reads "Wed Dec 31 18:00:00 1969".
TZ=America/Chicago
export TZ

# pbs NODES QSTAT RSTAT [option...]: bf-holes --pbs over captured files
# ("-" for a command that prints nothing).
pbs() {
	_n=$1 _q=$2 _r=$3
	shift 3
	bf-holes --pbs --pbsnodes "cat '$_n'" --qstat "$(cat_cmd "$_q")" \
	    --pbs-rstat "$(cat_cmd "$_r")" "$@"
}
cat_cmd() { if [ "$1" = - ]; then echo true; else echo "cat '$1'"; fi; }

# agree NODES QSTAT RSTAT [QUEUE]: the holes file in out says what the
# independent reading says.
agree() {
	{ sed -n 's/^time: /time /p' out; hosts_until out; } >got &&
	python3 "$T_DIR/lib-pbs.py" "$@" >want &&
	test_cmp want got
}

# derive IN OUT CODE: a copy of a JSON capture after the Python statements
# CODE edit it as d.
derive() {
	python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], 'w'), indent=4)
EOF
}

# ctime T: unix time T as qstat prints it, in TZ.
ctime() { date -d "@$1" '+%a %b %e %H:%M:%S %Y'; }

# The Polaris vnodes without their "resv" (M1150389, a reservation no
# pbs_rstat here knows).
NORESV='for n in d["nodes"].values(): n.pop("resv")'

have_shared() {
	[ -n "$S" ] && [ -f "$S/qstat-f-F-json.polaris-2023-11-10.excerpt.txt" ] &&
	[ -f "$S/pbs_rstat-f.aurora-2025-08-06.txt" ]
}
shared_case() {	# title body
	if have_shared; then
		test_expect_success "$1" "$2"
	else
		test_skip "$1" "needs ../shared/data/schedulers/pbs: its Polaris qstat and Aurora pbs_rstat captures may not be copied (t/data/pbs/SOURCES.md)"
	fi
}

test_expect_success 'the real Polaris pbsnodes: every vnode in reservation M1150389, which pbs_rstat does not show: none usable' '
	pbs "$P/pbsnodes-polaris.json" - - >out &&
	printf "time: 1699630815\nsource: pbs\nidle: []\n" >expect &&
	test_cmp expect out &&
	agree "$P/pbsnodes-polaris.json" - -
'

test_expect_success 'without the reservation: free is usable; job-exclusive with a job that is not ours, and down, are not' '
	derive "$P/pbsnodes-polaris.json" nores.json "$NORESV" &&
	pbs nores.json - - >out &&
	printf "time: 1699630815\nsource: pbs\nidle:\n  - nodes: x3006c0s13b1n0\n" >expect &&
	test_cmp expect out &&
	agree nores.json - - &&
	pbs nores.json - - --own large >out &&
	test_cmp expect out
'

# A host of two vnodes, x3006c0s13b1n0[0] and [1], as PBS names the vnodes
# of a multi-vnode host, made from the free Polaris vnode without its
# resources_available.host (so the name gives the host).
VNODES='import copy
n = d["nodes"]; v = n.pop("x3006c0s13b1n0"); del v["resources_available"]["host"]
n["x3006c0s13b1n0[0]"] = v; n["x3006c0s13b1n0[1]"] = copy.deepcopy(v)'

test_expect_success 'vnodes NAME[N] are host NAME, usable only when every one of its vnodes is' '
	derive nores.json vn.json "$VNODES" &&
	pbs vn.json - - >out &&
	printf "time: 1699630815\nsource: pbs\nidle:\n  - nodes: x3006c0s13b1n0\n" >expect &&
	test_cmp expect out &&
	agree vn.json - - &&
	derive vn.json vnbusy.json "d[\"nodes\"][\"x3006c0s13b1n0[1]\"][\"state\"] = \"job-busy\"" &&
	pbs vnbusy.json - - >out &&
	printf "time: 1699630815\nsource: pbs\nidle: []\n" >expect &&
	test_cmp expect out &&
	agree vnbusy.json - -
'

test_expect_success 'the Imperial qstat JSON is what qstat-text2json.py makes of the captured text' '
	python3 "$P/qstat-text2json.py" 1676319075 <"$P/qstat-imperial.txt" >made.json &&
	test_cmp "$P/qstat-imperial.json" made.json
'

# Imperial's two queued jobs are estimated to start on the vnode
# cx3-10-8.cx3.hpc.ic.ac.uk at "Tue Feb 14 02:10:01 2023" (London time); the
# Polaris free vnode is renamed to it and the clock set to the capture's
# moment, the jobs' mtime, Mon Feb 13 20:11:15 2023.
CX3='n = d["nodes"]; v = n.pop("x3006c0s13b1n0")
v["resources_available"]["host"] = v["resources_available"]["vnode"] = "cx3-10-8.cx3.hpc.ic.ac.uk"
n["cx3-10-8.cx3.hpc.ic.ac.uk"] = v; d["timestamp"] = 1676319075'

test_expect_success 'real queued jobs estimated to start on a vnode (Imperial CX3): its host until their start' '
	derive nores.json cx3.json "$CX3" &&
	TZ=Europe/London pbs cx3.json "$P/qstat-imperial.json" - >out &&
	u=$(TZ=Europe/London date -d "2023-02-14 02:10:01" +%s) && test $u = 1676340601 &&
	cat >expect <<-EOT &&
	time: 1676319075
	source: pbs
	idle:
	  - nodes: cx3-10-8.cx3.hpc.ic.ac.uk
	    until: $u
	EOT
	test_cmp expect out &&
	TZ=Europe/London agree cx3.json "$P/qstat-imperial.json" -
'

test_expect_success 'the same in another time zone is another until: TZ decides' '
	pbs cx3.json "$P/qstat-imperial.json" - >out &&
	grep "^    until: $(date -d "2023-02-14 02:10:01" +%s)$" out &&
	agree cx3.json "$P/qstat-imperial.json" -
'

test_expect_success 'estimates that do not count: a started job, a start passed, UNKNOWN' '
	export TZ=Europe/London &&
	printf "time: 1676319075\nsource: pbs\nidle:\n  - nodes: cx3-10-8.cx3.hpc.ic.ac.uk\n" >expect &&
	derive "$P/qstat-imperial.json" running.json \
		"for j in d[\"Jobs\"].values(): j[\"job_state\"] = \"R\"" &&
	pbs cx3.json running.json - >out && test_cmp expect out &&
	agree cx3.json running.json - &&
	derive cx3.json later.json "d[\"timestamp\"] = 1676340601" &&
	pbs later.json "$P/qstat-imperial.json" - >out.time && sed 1d out.time >out &&
	sed 1d expect >expect1 && test_cmp expect1 out &&
	derive "$P/qstat-imperial.json" unknown.json \
		"for j in d[\"Jobs\"].values(): j[\"estimated\"][\"start_time\"] = \"UNKNOWN\"" &&
	pbs cx3.json unknown.json - >out && test_cmp expect out &&
	agree cx3.json unknown.json -
'

test_expect_success 'two queued jobs claim the same vnode: the earliest start counts' '
	export TZ=Europe/London &&
	derive "$P/qstat-imperial.json" two.json \
		"d[\"Jobs\"][\"7013475.pbs\"][\"estimated\"][\"start_time\"] = \"Tue Feb 14 01:00:00 2023\"" &&
	pbs cx3.json two.json - >out &&
	grep "^    until: $(date -d "2023-02-14 01:00:00" +%s)$" out &&
	agree cx3.json two.json -
'

test_expect_success 'a job name PBS prints as a bare number too large for an integer is read' '
	export TZ=Europe/London &&
	sed "s/\"Job_Name\":\"job-01.pbs\"/\"Job_Name\":12345678901234567890123/" \
		"$P/qstat-imperial.json" >bignum.json &&
	grep -c ":12345678901234567890123,\$" bignum.json &&
	pbs cx3.json bignum.json - >out &&
	pbs cx3.json "$P/qstat-imperial.json" - >expect && test_cmp expect out
'

test_expect_success 'a job named inf, which PBS 2022 prints bare: 65, naming the qstat line' '
	sed "s/\"Job_Name\":\"job-01.pbs\"/\"Job_Name\":inf/" \
		"$P/qstat-imperial.json" >inf.json &&
	line=$(grep -n "\"Job_Name\":inf" inf.json | cut -d: -f1) && test "$line" = 6 &&
	test_expect_code 65 pbs cx3.json inf.json - >out 2>err &&
	test_must_be_empty out &&
	echo "bf-holes: qstat:6: invalid token near '"'"'inf'"'"'" >expect &&
	test_cmp expect err
'

test_expect_success 'the real pbsnodes excerpt, cut by its author with "...": 65 at the line jansson and Python name' '
	test_expect_code 65 pbs "$P/pbsnodes-polaris.excerpt.txt" - - >out 2>err &&
	test_must_be_empty out &&
	line=$(python3 -c "
import json, sys
try:
    json.load(open(sys.argv[1]))
except json.JSONDecodeError as e:
    print(e.lineno)" "$P/pbsnodes-polaris.excerpt.txt") &&
	test "$line" = 96 && sed -n 96p "$P/pbsnodes-polaris.excerpt.txt" | grep -x " *\.\.\." &&
	test $(wc -l <err) = 1 && grep "^bf-holes: pbsnodes:96: " err
'

test_expect_success 'pbsnodes cut after every line: 65 at the line where Python finds the end too' '
	n=$(wc -l <"$P/pbsnodes-polaris.json") && k=0 &&
	while [ $k -lt $n ]; do
		head -n $k "$P/pbsnodes-polaris.json" >cut.json &&
		want=$(python3 -c "
import json, sys
try:
    json.loads(open(sys.argv[1]).read())
except json.JSONDecodeError as e:
    print(e.lineno)" cut.json) &&
		test_expect_code 65 pbs cut.json - - 2>err >out &&
		test_must_be_empty out &&
		grep "^bf-holes: pbsnodes:$want: " err || exit 1
		k=$((k + 1))
	done
'

test_expect_success 'values of another kind than PBS prints: 65 naming the node or job' '
	derive "$P/pbsnodes-polaris.json" nots.json "del d[\"timestamp\"]" &&
	test_expect_code 65 pbs nots.json - - 2>err &&
	echo "bf-holes: pbsnodes: no \"timestamp\" of unix seconds" >expect &&
	test_cmp expect err &&
	derive "$P/pbsnodes-polaris.json" state.json \
		"d[\"nodes\"][\"x3009c0s19b0n0\"][\"state\"] = 5" &&
	test_expect_code 65 pbs state.json - - 2>err &&
	echo "bf-holes: pbsnodes: node x3009c0s19b0n0: no state" >expect &&
	test_cmp expect err &&
	derive "$P/qstat-imperial.json" nostate.json \
		"del d[\"Jobs\"][\"7013475.pbs\"][\"job_state\"]" &&
	test_expect_code 65 pbs "$P/pbsnodes-polaris.json" nostate.json - 2>err &&
	echo "bf-holes: qstat: job 7013475.pbs: no job_state or queue string" >expect &&
	test_cmp expect err &&
	derive "$P/qstat-imperial.json" badtime.json \
		"d[\"Jobs\"][\"7013475.pbs\"][\"estimated\"][\"start_time\"] = \"Feb 14 02:10:01 2023\"" &&
	test_expect_code 65 pbs "$P/pbsnodes-polaris.json" badtime.json - 2>err &&
	echo "bf-holes: qstat: job 7013475.pbs: estimated.start_time '"'"'Feb 14 02:10:01 2023'"'"' is not a time like '"'"'Thu Nov  9 13:04:14 2023'"'"'" >expect &&
	test_cmp expect err
'

test_expect_success 'no PBS commands on PATH: 69; a command the shell cannot find: 69' '
	prog=$(command -v bf-holes) &&
	PATH=/nonexistent test_expect_code 69 "$prog" --pbs >out 2>err &&
	test_must_be_empty out &&
	echo "bf-holes: pbsnodes: not found on PATH; is PBS installed?" >expect &&
	test_cmp expect err &&
	PATH=/nonexistent test_expect_code 69 "$prog" --pbs \
		--pbsnodes "/bin/cat $P/pbsnodes-polaris.json" 2>err &&
	echo "bf-holes: qstat: not found on PATH; is PBS installed?" >expect &&
	test_cmp expect err &&
	PATH=/nonexistent test_expect_code 69 "$prog" --pbs \
		--pbsnodes "/bin/cat $P/pbsnodes-polaris.json" --qstat /bin/true 2>err &&
	echo "bf-holes: pbs_rstat: not found on PATH; is PBS installed?" >expect &&
	test_cmp expect err &&
	test_expect_code 69 bf-holes --pbs --pbsnodes no-such-pbsnodes-here \
		--qstat true --pbs-rstat true 2>err &&
	grep "^bf-holes: pbsnodes: command not found: no-such-pbsnodes-here$" err
'

test_expect_success 'the server not answering (a command that fails): 75, the spool untouched' '
	pbs "$P/pbsnodes-polaris.json" - - -d sp &&
	cp sp/holes/current.yaml before &&
	for which in pbsnodes qstat pbs-rstat; do
		set -- --pbsnodes "cat $P/pbsnodes-polaris.json" --qstat true --pbs-rstat true &&
		case $which in
		pbsnodes) set -- --pbsnodes false --qstat true --pbs-rstat true ;;
		qstat) set -- --pbsnodes "cat $P/pbsnodes-polaris.json" --qstat "exit 1" --pbs-rstat true ;;
		pbs-rstat) set -- --pbsnodes "cat $P/pbsnodes-polaris.json" --qstat true --pbs-rstat "exit 2" ;;
		esac &&
		test_expect_code 75 bf-holes -d sp --pbs "$@" >out 2>err &&
		test_must_be_empty out || exit 1
	done &&
	echo "bf-holes: pbs_rstat exited with status 2; is the PBS server answering?" >expect &&
	test_cmp expect err &&
	test_cmp before sp/holes/current.yaml
'

test_expect_success 'a replayed sequence through -d: rewritten only when the hosts or their until change' '
	rm -rf sp &&
	pbs "$P/pbsnodes-polaris.json" - - -d sp &&
	printf "time: 1699630815\nsource: pbs\nidle: []\n" >expect &&
	test_cmp expect sp/holes/current.yaml &&
	ino=$(stat -c %i sp/holes/current.yaml) &&
	derive "$P/pbsnodes-polaris.json" step2.json "d[\"timestamp\"] += 60" &&
	pbs step2.json - - -d sp &&
	test_cmp expect sp/holes/current.yaml &&
	test $(stat -c %i sp/holes/current.yaml) = $ino &&
	derive nores.json step3.json "d[\"timestamp\"] += 120" &&
	pbs step3.json - - -d sp &&
	printf "time: 1699630935\nsource: pbs\nidle:\n  - nodes: x3006c0s13b1n0\n" >expect &&
	test_cmp expect sp/holes/current.yaml &&
	ino=$(stat -c %i sp/holes/current.yaml) &&
	derive nores.json step4.json "d[\"timestamp\"] += 180" &&
	pbs step4.json - - -d sp &&
	test_cmp expect sp/holes/current.yaml &&
	test $(stat -c %i sp/holes/current.yaml) = $ino &&
	TZ=Europe/London pbs cx3.json "$P/qstat-imperial.json" - -d sp &&
	printf "time: 1676319075\nsource: pbs\nidle:\n  - nodes: cx3-10-8.cx3.hpc.ic.ac.uk\n    until: 1676340601\n" >expect &&
	test_cmp expect sp/holes/current.yaml
'

test_expect_success 'options of --pbs go with --pbs only, and it reads the state now' '
	test_expect_code 64 bf-holes --slurm --qstat true 2>err &&
	echo "bf-holes: --pbsnodes, --qstat and --pbs-rstat go with --pbs" >expect &&
	test_cmp expect err &&
	test_expect_code 64 bf-holes --pbs --sinfo true 2>err &&
	echo "bf-holes: --sinfo and --squeue go with --slurm" >expect &&
	test_cmp expect err &&
	test_expect_code 64 bf-holes --pbs --at 0 2>err &&
	echo "bf-holes: --pbs reads the state now; --at, --from, --to and --events are for logs" >expect &&
	test_cmp expect err &&
	test_expect_code 64 bf-holes --pbs --slurm 2>err &&
	echo "bf-holes: give one source: --swf, --idle-trace, --slurm or --pbs" >expect &&
	test_cmp expect err
'

# --- captures read in place from ../shared (no licence to copy them) ---

# Polaris qstat -f -F json, 10 Nov 2023, cut by its author after three jobs
# with a dangling "},": that comma removed, the only edit.
if have_shared; then
	python3 - "$S/qstat-f-F-json.polaris-2023-11-10.excerpt.txt" <<'EOF' >polaris-qstat.json
import sys
t = open(sys.argv[1]).read()
a = '        },\n    }\n}'
assert t.count(a) == 1
sys.stdout.write(t.replace(a, '        }\n    }\n}'))
EOF
fi
Q=$TRASH/polaris-qstat.json
R=${S:+$S/pbs_rstat-f.aurora-2025-08-06.txt}

shared_case 'the real Polaris pbsnodes and qstat, the real Aurora pbs_rstat: none usable (M1150389 unknown), also --own large' '
	pbs "$P/pbsnodes-polaris.json" "$Q" "$R" >out &&
	printf "time: 1699630815\nsource: pbs\nidle: []\n" >expect &&
	test_cmp expect out &&
	agree "$P/pbsnodes-polaris.json" "$Q" "$R" &&
	pbs "$P/pbsnodes-polaris.json" "$Q" "$R" --own large >out &&
	test_cmp expect out &&
	agree "$P/pbsnodes-polaris.json" "$Q" "$R" large
'

shared_case 'the real link: job 1147579 of queue large holds x3008c0s37b1n0; with --own large it is ours' '
	grep -B6 "1147579.polaris" "$P/pbsnodes-polaris.json" | grep x3008c0s37b1n0 &&
	pbs nores.json "$Q" - --own large >out &&
	printf "time: 1699630815\nsource: pbs\nidle:\n  - nodes: x3006c0s13b1n0,x3008c0s37b1n0\n" >expect &&
	test_cmp expect out &&
	agree nores.json "$Q" - large &&
	pbs nores.json "$Q" - --own debug >out &&
	printf "time: 1699630815\nsource: pbs\nidle:\n  - nodes: x3006c0s13b1n0\n" >expect &&
	test_cmp expect out &&
	agree nores.json "$Q" - debug
'

shared_case 'a running job keeps its estimate (1147579): ignored even when moved after now; a queued one given it counts' '
	t=$((1699630815 + 3600)) &&
	derive "$Q" rfuture.json "d[\"Jobs\"][\"1147579.polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov\"][\"estimated\"][\"start_time\"] = \"$(ctime $t)\"" &&
	pbs nores.json rfuture.json - --own large >out &&
	printf "time: 1699630815\nsource: pbs\nidle:\n  - nodes: x3006c0s13b1n0,x3008c0s37b1n0\n" >expect &&
	test_cmp expect out &&
	agree nores.json rfuture.json - large &&
	derive rfuture.json qfuture.json "j = d[\"Jobs\"]; j[\"359322.polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov\"][\"estimated\"] = dict(j[\"1147579.polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov\"][\"estimated\"])" &&
	pbs nores.json qfuture.json - --own large >out &&
	cat >expect <<-EOT &&
	time: 1699630815
	source: pbs
	idle:
	  - nodes: x3006c0s13b1n0
	  - nodes: x3008c0s37b1n0
	    until: $t
	EOT
	test_cmp expect out &&
	agree nores.json qfuture.json - large &&
	derive qfuture.json qpast.json "d[\"Jobs\"][\"359322.polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov\"][\"estimated\"][\"start_time\"] = \"$(ctime 1699630815)\"" &&
	pbs nores.json qpast.json - --own large >out &&
	printf "time: 1699630815\nsource: pbs\nidle:\n  - nodes: x3006c0s13b1n0,x3008c0s37b1n0\n" >expect &&
	test_cmp expect out &&
	agree nores.json qpast.json - large
'

# The Aurora reservations of 6 Aug 2025, read at noon Chicago time (after
# the capture's last mtime, 11:40:08; before its first later start, 21:00):
# the Polaris free vnode is copied under names that the reservations list.
AURORA='v = d["nodes"]["x3006c0s13b1n0"]; d["timestamp"] = NOON
import copy
for name in ["x4102c5s2b0n0", "x4117c0s6b0n0", "x4318c3s3b0n0", "x4318c3s4b0n0",
             "x4520c0s4b0n0", "x4520c0s5b0n0", "x4520c1s0b0n0"]:
    w = copy.deepcopy(v)
    w["resources_available"]["host"] = w["resources_available"]["vnode"] = name
    d["nodes"][name] = w
d["nodes"]["x4520c0s5b0n0"]["resv"] = "R6711193.aurora-pbs-0001.hostmgmt.cm.aurora.alcf.anl.gov"
d["nodes"]["x4520c1s0b0n0"]["resv"] = "R1.nowhere, R6711193.aurora-pbs-0001.hostmgmt.cm.aurora.alcf.anl.gov"'

shared_case 'the real Aurora reservations: started ones take their vnodes, later ones give until their start' '
	noon=$(date -d "2025-08-06 12:00:00" +%s) &&
	derive nores.json aurora.json "NOON = $noon
$AURORA" &&
	pbs aurora.json - "$R" >out &&
	wed=$(date -d "2025-08-06 21:00:00" +%s) &&
	thu=$(date -d "2025-08-07 09:00:00" +%s) &&
	cat >expect <<-EOT &&
	time: $noon
	source: pbs
	idle:
	  - nodes: x3006c0s13b1n0
	  - nodes: x4318c3s3b0n0,x4318c3s4b0n0,x4520c0s5b0n0
	    until: $wed
	  - nodes: x4520c0s4b0n0
	    until: $thu
	EOT
	test_cmp expect out &&
	agree aurora.json - "$R"
'

shared_case 'a queued job before a reservation: the earlier of the two' '
	noon=$(date -d "2025-08-06 12:00:00" +%s) &&
	three=$(date -d "2025-08-06 15:00:00" +%s) &&
	derive "$Q" q3.json "d[\"Jobs\"][\"359322.polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov\"][\"estimated\"] = {\"exec_vnode\": \"(x4520c0s4b0n0:ncpus=64)+(x4318c3s3b0n0:ncpus=64)\", \"start_time\": \"$(ctime $three)\"}" &&
	pbs aurora.json q3.json "$R" >out &&
	wed=$(date -d "2025-08-06 21:00:00" +%s) &&
	cat >expect <<-EOT &&
	time: $noon
	source: pbs
	idle:
	  - nodes: x3006c0s13b1n0
	  - nodes: x4318c3s3b0n0,x4520c0s4b0n0
	    until: $three
	  - nodes: x4318c3s4b0n0,x4520c0s5b0n0
	    until: $wed
	EOT
	test_cmp expect out &&
	agree aurora.json q3.json "$R"
'

shared_case 'the real qstat excerpt, with its dangling comma: 65 at line 252' '
	test_expect_code 65 pbs "$P/pbsnodes-polaris.json" \
		"$S/qstat-f-F-json.polaris-2023-11-10.excerpt.txt" - >out 2>err &&
	test_must_be_empty out &&
	grep -n "^    }$" "$S/qstat-f-F-json.polaris-2023-11-10.excerpt.txt" | grep "^252:" &&
	grep "^bf-holes: qstat:252: " err
'

shared_case 'pbs_rstat lines that cannot be read: 65 with the line' '
	l=$(grep -n "^reserve_start" "$R" | head -1 | cut -d: -f1) &&
	sed "${l}s/:00:00 2025\$//" "$R" >r1.txt &&
	test_expect_code 65 pbs "$P/pbsnodes-polaris.json" - r1.txt 2>err &&
	echo "bf-holes: pbs_rstat:$l: reserve_start '"'"'Wed Aug 06 10'"'"' is not a time like '"'"'Wed Aug 06 10:00:00 2025'"'"'" >expect &&
	test_cmp expect err &&
	sed 1d "$R" >r2.txt &&
	test_expect_code 65 pbs "$P/pbsnodes-polaris.json" - r2.txt 2>err &&
	echo "bf-holes: pbs_rstat:1: NAME = VALUE before any '"'"'Resv ID:'"'"'" >expect &&
	test_cmp expect err &&
	l=$(grep -n "^Resource_List" "$R" | head -1 | cut -d: -f1) &&
	{ head -n $((l - 1)) "$R" && sed -n "${l}p" "$R" | cut -c1-10; } >r3.txt &&
	tail -1 r3.txt | grep -x "Resource_L" &&
	test_expect_code 65 pbs "$P/pbsnodes-polaris.json" - r3.txt 2>err &&
	echo "bf-holes: pbs_rstat:$l: not '"'"'Resv ID: ID'"'"' or '"'"'NAME = VALUE'"'"'" >expect &&
	test_cmp expect err &&
	l=$(grep -n "^resv_nodes" "$R" | head -1 | cut -d: -f1) &&
	sed "${l}s/)+(x4102c5s5b0n0.*//" "$R" >r4.txt &&
	test_expect_code 65 pbs "$P/pbsnodes-polaris.json" - r4.txt 2>err &&
	grep "^bf-holes: pbs_rstat:$l: bad resv_nodes '"'"'(x4102c5s2b0n0:ncpus=208:ngpus=6'"'"'\$" err
'

test_done
