/*
 * t0012-proc - tests for lib/util/proc.c: input fed, both outputs
 * captured together (a child filling its standard error before its
 * standard output is read must not block), exit status, a program not
 * found, the directory, the setup call, and PROC_NULL; and the bounds of
 * proc_run_bounded(): a timeout that kills the child's whole process
 * group, a SIGTERM pending in the caller that ends the child at once, and
 * the most captured.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/log.h"
#include "util/now.h"
#include "util/proc.h"

#include "tap.h"

static void
mark(const void *arg)
{
	(void)!setenv("T0012_MARK", arg, 1);
}

static int
bounded(char *const argv[], double timeout, size_t max, struct proc_out *o,
    int *status)
{
	struct proc p = { argv, NULL, NULL, 0, PROC_CAPTURE, PROC_CAPTURE,
	    NULL, NULL };
	struct diag d;

	diag_clear(&d);
	return proc_run_bounded(&p, timeout, max, status, o, &d);
}

/* Whether a process of that pid is still there (not a zombie of ours). */
static int
alive(pid_t pid)
{
	return pid > 0 && kill(pid, 0) == 0;
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

	/* A grandchild in the background: the timeout ends the group. */
	{
		static char *const hang[] = { "sh", "-c", "sleep 30 & echo $!; "
		    "exec sleep 31", NULL };
		static char *const lots[] = { "sh", "-c", "head -c 100000 "
		    "/dev/zero; exit 4", NULL };
		static char *const quick[] = { "sh", "-c", "echo hi", NULL };
		double t0 = now_mono(), took;
		sigset_t term, was;
		long grand = 0;

		ok(bounded(hang, 0.3, 0, &o, &st) == 0, "a child that hangs: run");
		took = now_mono() - t0;
		ok(took >= 0.3 && took < 5, "back after the timeout (%.2f s)",
		    took);
		ok(o.timedout && !o.interrupted, "timedout set, not interrupted");
		ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
		    "its status: killed by SIGKILL");
		ok(sscanf(o.out, "%ld", &grand) == 1 && grand > 0,
		    "its background child's pid read before the kill");
		for (i = 0; i < 200 && alive((pid_t)grand); i++) {
			struct timespec tick = { 0, 10 * 1000 * 1000 };
			nanosleep(&tick, NULL);
		}
		ok(!alive((pid_t)grand), "the background child killed too "
		    "(its process group)");
		proc_out_free(&o);

		ok(bounded(quick, 10, 0, &o, &st) == 0 && WIFEXITED(st) &&
		    WEXITSTATUS(st) == 0 && !o.timedout, "a quick child within "
		    "its bound: its exit, not timed out");
		is_str(o.out, "hi\n", "its output");
		proc_out_free(&o);

		ok(bounded(lots, 10, 1000, &o, &st) == 0 && WIFEXITED(st) &&
		    WEXITSTATUS(st) == 4, "100,000 bytes against a bound of "
		    "1,000: read to the end, exit 4");
		ok(o.lost && o.outlen == 1000, "1,000 kept, lost set");
		proc_out_free(&o);

		sigemptyset(&term);
		sigaddset(&term, SIGTERM);
		sigprocmask(SIG_BLOCK, &term, &was);
		raise(SIGTERM);
		t0 = now_mono();
		ok(bounded(hang, 30, 0, &o, &st) == 0,
		    "a SIGTERM pending in the caller: run");
		took = now_mono() - t0;
		ok(took < 2, "back at once, not at the timeout (%.2f s)", took);
		ok(o.interrupted && o.timedout, "interrupted and timedout set");
		ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "killed");
		proc_out_free(&o);
		{
			struct timespec zero = { 0, 0 };
			sigtimedwait(&term, NULL, &zero);	/* taken */
		}
		sigprocmask(SIG_SETMASK, &was, NULL);
	}
	return tap_done();
}
