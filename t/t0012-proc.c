/*
 * t0012-proc - tests for lib/util/proc.c: input fed, both outputs
 * captured together (a child filling its standard error before its
 * standard output is read must not block), exit status, a program not
 * found, the directory, the setup call, and PROC_NULL.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/log.h"
#include "util/proc.h"

#include "tap.h"

static void
mark(const void *arg)
{
	(void)!setenv("T0012_MARK", arg, 1);
}

static int
run(char *const argv[], const char *in, int out, int err, const char *dir,
    struct proc_out *o, int *status)
{
	struct proc p = { argv, dir, in, in ? strlen(in) : 0, out, err,
	    mark, "set by setup" };
	struct diag d;

	diag_clear(&d);
	return proc_run(&p, status, o, &d);
}

int
main(void)
{
	static char *const cat[] = { "cat", NULL };
	static char *const both[] = { "sh", "-c", "head -c 300000 /dev/zero "
	    "| tr '\\0' e >&2; head -c 200000 /dev/zero | tr '\\0' o; exit 3",
	    NULL };
	static char *const none[] = { "/nonexistent/prog", NULL };
	static char *const pwd[] = { "sh", "-c", "pwd; echo \"$T0012_MARK\"",
	    NULL };
	struct proc_out o;
	size_t i, es = 0, os = 0;
	char *big;
	int st;

	log_prog = "t0012";
	big = malloc(1000001);
	memset(big, 'x', 1000000);
	big[1000000] = '\0';
	ok(run(cat, big, PROC_CAPTURE, PROC_CAPTURE, NULL, &o, &st) == 0,
	    "cat of 1,000,000 bytes: run");
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "cat exits 0");
	is_int(o.outlen, 1000000, "every byte of the input came back");
	ok(memcmp(o.out, big, 1000000) == 0 && o.out[o.outlen] == '\0',
	    "the same bytes, NUL-terminated");
	is_int(o.errlen, 0, "nothing on standard error");
	proc_out_free(&o);
	free(big);

	ok(run(both, NULL, PROC_CAPTURE, PROC_CAPTURE, NULL, &o, &st) == 0,
	    "300 kB to stderr before 200 kB to stdout: no deadlock");
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 3, "its exit status 3");
	for (i = 0; i < o.errlen; i++)
		es += o.err[i] == 'e';
	for (i = 0; i < o.outlen; i++)
		os += o.out[i] == 'o';
	ok(o.errlen == 300000 && es == 300000, "standard error captured whole");
	ok(o.outlen == 200000 && os == 200000, "standard output captured whole");
	proc_out_free(&o);

	ok(run(none, NULL, PROC_NULL, PROC_CAPTURE, NULL, &o, &st) == 0,
	    "a program not found: the child ran");
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 127, "exit 127");
	is_str(o.err, "t0012: unable to run /nonexistent/prog: No such file "
	    "or directory\n", "the child says why on standard error");
	proc_out_free(&o);

	ok(run(pwd, NULL, PROC_CAPTURE, PROC_INHERIT, "/usr", &o, &st) == 0 &&
	    WIFEXITED(st) && WEXITSTATUS(st) == 0, "pwd in /usr");
	is_str(o.out, "/usr\nset by setup\n", "dir entered, setup called");
	proc_out_free(&o);

	ok(run(both, NULL, PROC_NULL, PROC_NULL, NULL, NULL, &st) == 0 &&
	    WIFEXITED(st) && WEXITSTATUS(st) == 3,
	    "outputs to /dev/null, nothing captured: status still 3");
	return tap_done();
}
