#!/bin/sh
# The site's spool (bf-spool(5), SITE): -d, else $BF_SPOOL, else the
# configuration file's spool:, else the one built in.  A user who forgets
# -d gets the site's spool or a one-line error naming the path and where
# it came from, exit 66, never a spool of her own; only bf-watch and an
# explicit -d make one, and say so.  A bad configuration file is refused
# with its file and line, exit 78.  Every program's -h prints its usage,
# a line per option of its page, and the spool it would use.
. "$(dirname "$0")/lib.sh"

JOB="$BF_ROOT/examples/jobs/vgg16.yaml"
# The built-in spool as this build has it: -h says, with no configuration.
builtin=$(bf-submit -h | sed -n 's/^spool: \(.*\) (built in)$/\1/p')
USERS="bf-apply bf-audit bf-cancel bf-hosts bf-profile bf-report bf-solve bf-submit"

test_expect_success '-h names the built-in spool, an absolute path' '
	case "$builtin" in /*) ;; *) echo "built in: [$builtin]"; exit 1 ;; esac
'

if [ -e "$builtin" ]; then
	test_skip 'a user who forgets -d: 66 naming the built-in spool, nothing made' \
	    "$builtin exists on this machine"
else
	test_expect_success 'a user who forgets -d: 66 naming the built-in spool, nothing made' '
		mkdir home && cd home &&
		test_expect_code 66 bf-submit "$JOB" >../out 2>../err &&
		test_must_be_empty ../out &&
		echo "bf-submit: no spool at $builtin (built in): name the site'"'"'s spool with -d or \$BF_SPOOL (bf-spool(5), SITE)" >../expect &&
		test_cmp ../expect ../err &&
		ls -A >../left && test_must_be_empty ../left &&
		test ! -e "$builtin" &&
		for p in bf-cancel bf-hosts; do
			test_expect_code 66 $p toy 2>../err &&
			echo "$p: no spool at $builtin (built in): name the site'"'"'s spool with -d or \$BF_SPOOL (bf-spool(5), SITE)" >../expect &&
			test_cmp ../expect ../err || exit 1
		done &&
		for p in bf-apply bf-profile bf-report bf-solve "bf-audit --log"; do
			test_expect_code 66 $p 2>../err &&
			grep -q "^${p%% *}: no spool at $builtin (built in): " ../err || exit 1
		done &&
		ls -A >../left && test_must_be_empty ../left
	'
fi

test_expect_success 'the configuration file names the site spool: users reach it without -d' '
	bf-submit -d site /dev/null 2>/dev/null; test -d site/jobs &&
	echo "spool: $PWD/site   # the site" >conf.yaml &&
	mkdir -p u && (cd u && BF_CONF=../conf.yaml bf-submit "$JOB" >../out 2>../err) &&
	echo "$PWD/site/incoming/vgg16.yaml" >expect &&
	test_cmp expect out && test_must_be_empty err &&
	ls -A u >left && test_must_be_empty left &&
	BF_CONF=conf.yaml bf-submit -h >help &&
	grep -x "spool: $PWD/site (from conf.yaml:1)" help
'

test_expect_success 'precedence: -d over $BF_SPOOL over the configuration over the built-in' '
	echo "spool: /conf/spool" >conf2.yaml &&
	BF_CONF=conf2.yaml BF_SPOOL=/env/spool bf-cancel -d /opt/spool -h >h1 &&
	BF_CONF=conf2.yaml BF_SPOOL=/env/spool bf-cancel -h >h2 &&
	BF_CONF=conf2.yaml bf-cancel -h >h3 &&
	BF_CONF=conf2.yaml BF_SPOOL= bf-cancel -h >h4 &&
	bf-cancel -h >h5 &&
	tail -n 1 h1 h2 h3 h4 h5 >actual &&
	cat >expect <<-EOF &&
	==> h1 <==
	spool: /opt/spool (from -d)

	==> h2 <==
	spool: /env/spool (from \$BF_SPOOL)

	==> h3 <==
	spool: /conf/spool (from conf2.yaml:1)

	==> h4 <==
	spool: /conf/spool (from conf2.yaml:1)

	==> h5 <==
	spool: $builtin (built in)
	EOF
	test_cmp expect actual
'

test_expect_success 'a missing spool named by $BF_SPOOL or the configuration: 66, saying which' '
	test_expect_code 66 env BF_SPOOL=$PWD/nosuch bf-cancel toy 2>err &&
	echo "bf-cancel: no spool at $PWD/nosuch (from \$BF_SPOOL): name the site'"'"'s spool with -d or \$BF_SPOOL (bf-spool(5), SITE)" >expect &&
	test_cmp expect err &&
	echo "spool: $PWD/gone" >conf3.yaml &&
	test_expect_code 66 env BF_CONF=conf3.yaml bf-submit "$JOB" 2>err &&
	echo "bf-submit: no spool at $PWD/gone (from conf3.yaml:1): name the site'"'"'s spool with -d or \$BF_SPOOL (bf-spool(5), SITE)" >expect &&
	test_cmp expect err &&
	test ! -e nosuch && test ! -e gone
'

test_expect_success 'an explicit -d to a new directory makes the spool and says so' '
	bf-submit -d mine "$JOB" >out 2>err &&
	echo "bf-submit: created spool mine (from -d)" >expect &&
	test_cmp expect err &&
	echo "mine/incoming/vgg16.yaml" >expect && test_cmp expect out &&
	bf-submit -d mine "$BF_ROOT/examples/jobs/alexnet.yaml" >out 2>err &&
	test_must_be_empty err
'

test_expect_success 'bf-submit -n checks without a spool and makes none' '
	mkdir -p n && cd n &&
	BF_SPOOL=$PWD/none bf-submit -n "$JOB" 2>../err &&
	test_must_be_empty ../err && ls -A >../left && test_must_be_empty ../left
'

test_expect_success 'bf-watch, the admin'"'"'s daemon, makes the configured spool and says so' '
	echo "spool: $PWD/daemon" >conf4.yaml &&
	BF_CONF=conf4.yaml bf-watch --once 2>err &&
	test -d daemon/incoming && test -d daemon/jobs &&
	grep -x "bf-watch: created spool $PWD/daemon (from conf4.yaml:1)" err
'

test_expect_success 'configuration errors: file:line and 78, for every program that uses a spool' '
	printf "spool: /x\nspol: /y\n" >bad1.yaml &&
	printf "spool: relative/sp\n" >bad2.yaml &&
	printf -- "- spool: /x\n" >bad3.yaml &&
	printf "spool: [a, b]\n" >bad4.yaml &&
	printf "spool: /x\nspool: /y\n" >bad5.yaml &&
	for p in $USERS; do
		case $p in bf-report|bf-solve) a= ;; *) a=x ;; esac
		test_expect_code 78 env BF_CONF=bad1.yaml $p -d sp $a 2>err &&
		echo "$p: bad1.yaml:2: unknown key '"'"'spol'"'"'" >expect &&
		test_cmp expect err || exit 1
	done &&
	test_expect_code 78 env BF_CONF=bad2.yaml bf-submit "$JOB" 2>err &&
	echo "bf-submit: bad2.yaml:1: spool must be an absolute path, not '"'"'relative/sp'"'"'" >expect &&
	test_cmp expect err &&
	test_expect_code 78 env BF_CONF=bad3.yaml bf-submit "$JOB" 2>err &&
	echo "bf-submit: bad3.yaml:1: expected a mapping" >expect &&
	test_cmp expect err &&
	test_expect_code 78 env BF_CONF=bad4.yaml bf-submit "$JOB" 2>err &&
	grep -q "^bf-submit: bad4.yaml:1: spool must be " err &&
	test_expect_code 78 env BF_CONF=bad5.yaml bf-submit "$JOB" 2>err &&
	grep -q "^bf-submit: bad5.yaml:2: " err &&
	test_expect_code 78 env BF_CONF=nosuch.yaml bf-submit "$JOB" 2>err &&
	echo "bf-submit: \$BF_CONF: unable to open nosuch.yaml: No such file or directory" >expect &&
	test_cmp expect err &&
	test_expect_code 78 env BF_CONF=bad1.yaml bf-watch --once -d w 2>err &&
	test ! -e w && test ! -e sp
'

test_expect_success 'an empty configuration file, or comments alone, is no error' '
	printf "# nothing yet\n" >empty.yaml &&
	BF_CONF=empty.yaml bf-submit -h >h &&
	grep -x "spool: $builtin (built in)" h
'

test_expect_success '-h with a bad configuration still prints the help, and says why the spool is unknown' '
	BF_CONF=bad1.yaml bf-cancel -h >h &&
	grep -x "spool: unknown: bad1.yaml:2: unknown key '"'"'spol'"'"'" h
'

# The first flag of each item of a page's OPTIONS: "--at", "-d".
page_flags() {	# page
	sed -n '/^\.Sh OPTIONS/,/^\.Sh [^O]/p' "$1" |
	sed -n 's/^\.It Fl \([^ ]*\).*/\1/p' |
	sed 's/^\\-/--/; s/^\([A-Za-z]\)$/-\1/'
}

# Every program: -h and --help exit 0 and print the usage, "options:",
# a line for every option its page lists under OPTIONS, and the spool.
for src in "$BF_ROOT"/bin/bf-*.c; do
	p=$(basename "$src" .c)
	test_expect_success "$p -h and --help: usage, every option of $p(1), the spool" '
		'$p' -h >h 2>err && test_must_be_empty err &&
		'$p' --help >h2 && test_cmp h h2 &&
		head -n 1 h | grep -q "^usage: '$p' " &&
		grep -qx "options:" h &&
		page_flags "$BF_ROOT/man/'$p'.1" >flags &&
		test $(wc -l <flags) -ge 3 &&
		while read -r f; do
			grep -qE -e "^  $f( |,|\$)" h || { echo "'$p' -h lacks $f"; exit 1; }
		done <flags &&
		case '$p' in
		bf-sim) ! grep -q "^spool:" h ;;
		bf-holes) grep -qx "spool: none unless -d names one" h ;;
		*) grep -qx "spool: $builtin (built in)" h ;;
		esac
	'
done

test_done
