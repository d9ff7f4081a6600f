#!/bin/sh
# The build's checks of the layout (make layers, scripts/layers; HACKING.md):
# this tree passes both; an include of a folder above, a call to one, and
# a call cycle between two files of one folder are each refused with the
# file and what is wrong.  Every header compiles alone; compile_commands.json
# lists every C file.
. "$(dirname "$0")/lib.sh"

L="$BF_ROOT/scripts/layers"

test_expect_success 'this tree: its includes and its calls keep lib/LAYERS' '
	"$L" includes && "$L" calls
'

# A tree of three folders, spool below solve.
fake() {
	rm -rf f && mkdir -p f/lib/spool f/lib/solve f/lib/util &&
	printf "util:\nspool: util\nsolve: spool util\n" >f/lib/LAYERS &&
	printf "int s(void);\nint s(void) { return 1; }\n" >f/lib/spool/s.c &&
	printf "int v(void);\nint v(void) { return 2; }\n" >f/lib/solve/v.c
}
objects() {
	for c in f/lib/*/*.c; do cc -c -o "${c%.c}.o" "$c" || return 1; done
}

test_expect_success 'an include of a folder above is refused' '
	fake && printf "#include \"solve/v.h\"\n" >>f/lib/spool/s.c &&
	test_expect_code 1 env LAYERS_ROOT=$PWD/f "$L" includes >out &&
	echo "lib/spool/s.c: includes solve/, which lib/LAYERS does not let spool/ use" >expect &&
	test_cmp expect out
'

test_expect_success 'a folder named twice, or naming one below it, is refused' '
	fake && printf "util:\nspool: util solve\nsolve: spool util\n" >f/lib/LAYERS &&
	test_expect_code 1 env LAYERS_ROOT=$PWD/f "$L" includes >out &&
	grep -x "lib/LAYERS: spool may use solve, which is not above it" out
'

test_expect_success 'a call to a folder above is refused' '
	fake && printf "int v(void);\nint t(void);\nint t(void) { return v(); }\n" >f/lib/spool/t.c &&
	objects && test_expect_code 1 env LAYERS_ROOT=$PWD/f "$L" calls >out &&
	grep -x "lib/spool/t.o: calls v of lib/solve/v.o, which lib/LAYERS does not let spool/ use" out
'

test_expect_success 'a call cycle between two files of one folder is refused' '
	fake &&
	printf "int b(void);\nint a(int);\nint a(int n) { return n ? b() : 0; }\n" >f/lib/spool/a.c &&
	printf "int a(int);\nint b(void);\nint b(void) { return a(0); }\n" >f/lib/spool/b.c &&
	objects && test_expect_code 1 env LAYERS_ROOT=$PWD/f "$L" calls >out &&
	grep -x "lib/spool/a.o: in a call cycle with lib/spool/b.o (calls b, called back by a)" out
'

test_expect_success 'every header compiles alone (the build checked each)' '
	for h in "$BF_ROOT"/lib/*/*.h; do
		ok="$(dirname "$h")/.$(basename "$h").ok" &&
		test -f "$ok" && test ! "$ok" -ot "$h" || { echo "$h: not checked"; exit 1; }
	done
'

test_expect_success 'make compile_commands.json lists every C file of lib/, bin/ and t/' '
	(cd "$BF_ROOT" && make --no-print-directory compile_commands.json >/dev/null) &&
	n=$(ls "$BF_ROOT"/lib/*/*.c "$BF_ROOT"/bin/bf-*.c "$BF_ROOT"/t/t[0-9]*.c | wc -l) &&
	test "$(grep -c "\"file\": " "$BF_ROOT/compile_commands.json")" = "$n" &&
	python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$BF_ROOT/compile_commands.json"
'

test_done
