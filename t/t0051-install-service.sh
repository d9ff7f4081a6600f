#!/bin/sh
# make install puts a systemd unit per backend (bf-watch-local, -slurm,
# -pbs.service) under PREFIX/lib/systemd/system, naming the installed
# programs, and examples/ under PREFIX/share/doc/bftrainer; each unit
# passes systemd-analyze verify (its binaries and man pages where it says),
# with a PREFIX other than /usr/local, installed for real into a temporary
# one; with DESTDIR the units name PREFIX's paths, not DESTDIR's.
. "$(dirname "$0")/lib.sh"

PFX="$TRASH/pfx"
UNITS="local slurm pbs"

test_expect_success 'make install into a temporary PREFIX: three units, the installed paths' '
	make -s -C "$BF_ROOT" install PREFIX="$PFX" >/dev/null &&
	ls "$PFX/lib/systemd/system" >actual &&
	printf "bf-watch-%s.service\n" local pbs slurm >expect &&
	test_cmp expect actual &&
	for b in $UNITS; do
		u="$PFX/lib/systemd/system/bf-watch-$b.service"
		test "$(stat -c %a "$u")" = 644 &&
		! grep -n "@" "$u" | grep -v "^[0-9]*:#" &&
		grep -x "ExecStart=$PFX/bin/bf-watch --backend $b.*" "$u" &&
		grep -x "Environment=PATH=$PFX/bin:.*" "$u" || exit 1
	done &&
	grep -x "ExecStart=$PFX/bin/bf-watch --backend slurm --holes-cmd \"$PFX/bin/bf-holes --slurm\" --holes-interval 10" \
	    "$PFX/lib/systemd/system/bf-watch-slurm.service" &&
	grep -x "ExecStart=$PFX/bin/bf-watch --backend pbs --holes-cmd \"$PFX/bin/bf-holes --pbs\" --holes-interval 10" \
	    "$PFX/lib/systemd/system/bf-watch-pbs.service" &&
	grep -x "After=network-online.target slurmctld.service" "$PFX/lib/systemd/system/bf-watch-slurm.service" &&
	grep -x "After=network-online.target pbs.service" "$PFX/lib/systemd/system/bf-watch-pbs.service" &&
	grep -x "After=network-online.target" "$PFX/lib/systemd/system/bf-watch-local.service" &&
	grep -x "ReadWritePaths=-$(bf-watch -h | sed -n "s/^spool: \(.*\) (built in)$/\1/p")" \
	    "$PFX/lib/systemd/system/bf-watch-local.service"
'

if command -v systemd-analyze >/dev/null 2>&1; then
	for b in $UNITS; do
		test_expect_success "systemd-analyze verify bf-watch-$b.service: clean" '
			MANPATH="$PFX/share/man" systemd-analyze verify \
			    "$PFX/lib/systemd/system/bf-watch-'$b'.service" >out 2>&1 &&
			test_must_be_empty out
		'
	done
	test_expect_success 'systemd-analyze verify fails a unit whose program is not where it says' '
		sed "s|^ExecStart=$PFX/bin/|ExecStart=$PFX/nosuch/|" \
		    "$PFX/lib/systemd/system/bf-watch-local.service" >bf-watch-moved.service &&
		test_must_fail env MANPATH="$PFX/share/man" systemd-analyze verify \
		    "$PWD/bf-watch-moved.service" >out 2>&1 &&
		grep -q "is not executable" out
	'
else
	test_skip 'systemd-analyze verify on the three units' 'systemd-analyze is not installed'
fi

test_expect_success 'examples/ is installed under share/doc/bftrainer, scripts executable' '
	(cd "$BF_ROOT/examples" && find . -type f | sort) >expect &&
	(cd "$PFX/share/doc/bftrainer/examples" && find . -type f | sort) >actual &&
	test_cmp expect actual &&
	test "$(stat -c %a "$PFX/share/doc/bftrainer/examples/torch/worker.sh")" = 755 &&
	test "$(stat -c %a "$PFX/share/doc/bftrainer/examples/torch/README.md")" = 644 &&
	cmp "$BF_ROOT/examples/torch/train.py" "$PFX/share/doc/bftrainer/examples/torch/train.py" &&
	test ! -e "$BF_ROOT/examples/bf-watch.service"
'

test_expect_success 'with DESTDIR the units name PREFIX, not DESTDIR' '
	make -s -C "$BF_ROOT" install DESTDIR="$PWD/dest" PREFIX=/opt/bft >/dev/null &&
	grep -x "ExecStart=/opt/bft/bin/bf-watch --backend local" \
	    dest/opt/bft/lib/systemd/system/bf-watch-local.service &&
	! grep -q "$PWD/dest" dest/opt/bft/lib/systemd/system/*.service &&
	test -f dest/opt/bft/share/doc/bftrainer/examples/systemd/bf-watch.service.in
'

test_expect_success 'make uninstall removes units and examples' '
	make -s -C "$BF_ROOT" uninstall DESTDIR="$PWD/dest" PREFIX=/opt/bft &&
	find dest -type f >left && test_must_be_empty left &&
	make -s -C "$BF_ROOT" uninstall PREFIX="$PFX" &&
	find "$PFX" -type f >left && test_must_be_empty left
'

test_done
