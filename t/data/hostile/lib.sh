# t/data/hostile/lib.sh - helpers for the hostile-input tests (t009*),
# sourced after t/lib.sh.
#
#	bounded CMD...		CMD under a memory bound and a hang detector
#	listing DIR		every entry of a tree with type, mode, size, digest
#	canary_setup		a file of another user holding a secret
#	canary_arm / canary_untouched	it was neither read nor leaked

# Every hostile case runs with at most HOSTILE_VMEM KiB of virtual memory
# (ulimit -v), except when the programs are built with AddressSanitizer
# (make SANITIZE=1), whose shadow memory alone needs terabytes of address
# space; ASan bounds nothing then, and the time bound still holds.
HOSTILE_VMEM=524288
HOSTILE_SECONDS=60
if nm "$BF_ROOT/bin/bf-submit" 2>/dev/null | grep -q __asan_init ||
    ldd "$BF_ROOT/bin/bf-submit" 2>/dev/null | grep -q libasan; then
	HOSTILE_VMEM=
fi

# The command's own exit status; a command that had to be killed by the
# hang detector fails with 124 and says so.
bounded() {
	(
		if [ -n "$HOSTILE_VMEM" ]; then
			ulimit -v "$HOSTILE_VMEM" || exit 125
		fi
		exec timeout -k 5 "$HOSTILE_SECONDS" "$@"
	)
	_b_rc=$?
	case $_b_rc in
	124|137)
		echo "bounded: '$*' did not end within $HOSTILE_SECONDS s" >&2
		return 124 ;;
	esac
	return $_b_rc
}

# One line per entry below DIR, sorted, lock file aside (it holds the pid
# of its last holder): path, type, mode, and for a regular file its size
# and digest.  Symbolic links are listed, never followed.
listing() {	# dir
	find "$1" -path "$1/lock" -prune -o -printf '%p %y %m %s\n' |
		sort | while read -r _l_p _l_y _l_m _l_s; do
		if [ "$_l_y" = f ]; then
			echo "$_l_p $_l_y $_l_m $_l_s $(cksum <"$_l_p" | cut -d" " -f1)"
		else
			echo "$_l_p $_l_y $_l_m"
		fi
	done
}

# A file of another user, mode 0600, with a secret no program may ever
# print or copy: CANARY_FILE holds CANARY_SECRET, in a text that is a good
# job file, a good progress log line and a good hosts line, so that a
# program that followed a link to it would have every reason to show it.
# Its access time is set far in the past before each case; reading it
# would move it (relatime updates an access time older than the
# modification time), which canary_untouched checks when CANARY_ATIME=1.
CANARY_SECRET=Zq7canarySECRETx
canary_setup() {
	CANARY_DIR=$TRASH/canary.d
	CANARY_FILE=$CANARY_DIR/secret.yaml
	mkdir -p "$CANARY_DIR" &&
	cat >"$CANARY_FILE" <<-EOT &&
	name: $CANARY_SECRET
	command: echo $CANARY_SECRET
	max_nodes: 1
	EOT
	CANARY_OWNER=self
	if test_have_root; then
		chown 65534:65534 "$CANARY_FILE" && chmod 600 "$CANARY_FILE" &&
		CANARY_OWNER=nobody
	fi
	# Does this file system keep access times?
	CANARY_ATIME=0
	touch -a -d 2000-01-01T00:00:00Z "$CANARY_FILE" &&
	cat "$CANARY_FILE" >/dev/null &&
	if [ "$(stat -c %X "$CANARY_FILE")" != 946684800 ]; then
		CANARY_ATIME=1
	fi
	canary_arm
}

canary_arm() {
	touch -a -d 2000-01-01T00:00:00Z "$CANARY_FILE"
}

# Neither read (when access times tell) nor found in the files given or
# anywhere in the trees given (links not followed).
canary_untouched() {	# file-or-dir...
	if [ "$CANARY_ATIME" = 1 ] &&
	    [ "$(stat -c %X "$CANARY_FILE")" != 946684800 ]; then
		echo "the canary was read: $(stat -c %x "$CANARY_FILE")" >&2
		return 1
	fi
	if grep -r -l -F "$CANARY_SECRET" "$@" 2>/dev/null | grep -q .; then
		echo "the secret leaked into:" >&2
		grep -r -l -F "$CANARY_SECRET" "$@" >&2
		return 1
	fi
	return 0
}

# The first line of /etc/shadow, when there is one to look for.
shadow_line() {
	head -n 1 /etc/shadow 2>/dev/null | grep .
}
