#!/bin/sh
# make install puts every program and page under DESTDIR with the right modes;
# every page is lint-clean and its SYNOPSIS matches the program's usage.
. "$(dirname "$0")/lib.sh"

test_expect_success 'make install honours DESTDIR and PREFIX' '
	make -s -C "$BF_ROOT" install DESTDIR="$PWD/dest" PREFIX=/usr >/dev/null &&
	for p in "$BF_ROOT"/bin/bf-*.c; do
		n=$(basename "$p" .c)
		test "$(stat -c %a "dest/usr/bin/$n")" = 755 || exit 1
	done &&
	for m in "$BF_ROOT"/man/*.[157]; do
		s=${m##*.}
		test "$(stat -c %a "dest/usr/share/man/man$s/$(basename "$m")")" = 644 || exit 1
	done &&
	dest/usr/bin/bf-submit -V
'

test_expect_success 'make uninstall removes them again' '
	make -s -C "$BF_ROOT" uninstall DESTDIR="$PWD/dest" PREFIX=/usr &&
	find dest -type f >left &&
	test_must_be_empty left
'

test_expect_success 'every program has a page' '
	for p in "$BF_ROOT"/bin/bf-*.c; do
		test -f "$BF_ROOT/man/$(basename "$p" .c).1" || { echo "no page for $p"; exit 1; }
	done
'

for m in "$BF_ROOT"/man/*.[157]; do
	page=$(basename "$m")
	test_expect_success "$page is lint-clean and renders" "
		mandoc -T lint -W warning '$m' >lint 2>&1;
		test_must_be_empty lint &&
		MANWIDTH=80 man -l '$m' >rendered 2>err &&
		test_must_be_empty err &&
		grep -q NAME rendered
	"
done

for p in "$BF_ROOT"/bin/bf-*.c; do
	n=$(basename "$p" .c)
	test_expect_success "$n -h matches the SYNOPSIS of $n.1" "
		$n -h >usage &&
		sed '/^options:/,\$d; s/^usage: //; s/^ *//' usage >want &&
		mandoc -T ascii '$BF_ROOT/man/$n.1' | col -bx |
			sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | sed '1d;\$d;/^ *\$/d; s/^ *//' >have &&
		test_cmp want have
	"
done

test_done
