/*
 * NAME
 *	proc - run a program to its end: its input, its outputs, its status
 * SYNOPSIS
 *	char *const argv[] = { "gnuplot", NULL };
 *	struct proc p = { argv, .in = script, .inlen = len,
 *	    .out = PROC_NULL, .err = PROC_CAPTURE };
 *	struct proc_out o;
 *	int status;
 *	if (proc_run(&p, &status, &o, &d) < 0) ...	could not be run
 *	proc_run_bounded(&p, 30.0, 0, &status, &o, &d);	at most 30 s
 *	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ... o.err
 *	proc_out_free(&o);
 * DESCRIPTION
 *	proc_run() forks, and in the child: resets the signal mask and
 *	SIGPIPE, gives it in as standard input (through a pipe; /dev/null
 *	when in is NULL), out and err as standard output and error
 *	(PROC_INHERIT: the caller's; PROC_NULL: /dev/null; PROC_CAPTURE: a
 *	pipe read into o; else that descriptor), changes to dir when it is
 *	not NULL, calls setup(arg) when it is not NULL (to become a user),
 *	and executes argv[0], searched on PATH unless it has a slash.  The
 *	parent feeds the input and reads the captured outputs together
 *	(poll(2), so that no pipe fills while another is waited on), each
 *	at most PROC_MAX_CAPTURE bytes (the rest read and dropped), then
 *	waits.  *status is waitpid(2)'s: exit 127 when argv[0] was not
 *	found, 126 when it could not be run (the child says why on its
 *	standard error).  o may be NULL when nothing is captured; captured
 *	outputs are NUL-terminated, "" for none.
 *
 *	proc_run_bounded() is proc_run() with two bounds.  With timeout
 *	above 0, the child runs in a process group of its own
 *	and has timeout seconds, its outputs read and its exit waited for
 *	included: then its whole group is killed (SIGKILL), the pipes are
 *	closed unread, it is reaped, and o->timedout is set (*status then
 *	says killed by SIGKILL).  A command that hangs never blocks the
 *	caller longer than that.  A SIGTERM or SIGINT that the caller blocks
 *	(as bf-watch does outside its wait) and that arrives meanwhile ends
 *	the child the same way at once, within 0.1 s, with o->interrupted
 *	set too: the caller is being asked to end.  max, when not 0, is the most captured of
 *	each output instead of PROC_MAX_CAPTURE; o->lost is set when more
 *	came (read and dropped).
 * DIAGNOSTICS
 *	-1 with d set when no child could be started (71) or memory ran
 *	out (71); anything the child did is in *status.
 */
#ifndef BF_PROC_H
#define BF_PROC_H

#include <stddef.h>
#include <sys/wait.h>

#include "util/log.h"

#define PROC_INHERIT	(-1)
#define PROC_NULL	(-2)
#define PROC_CAPTURE	(-3)
#define PROC_MAX_CAPTURE	(16 * 1024 * 1024)

struct proc {
	char *const *argv;
	const char *dir;
	const char *in;
	size_t inlen;
	int out, err;
	void (*setup)(const void *arg);
	const void *arg;
};

struct proc_out {
	char *out, *err;
	size_t outlen, errlen;
	int timedout;		/* killed at the timeout, or interrupted */
	int interrupted;	/* killed for a SIGTERM or SIGINT pending */
	int lost;		/* more than max came of an output */
};

int proc_run(const struct proc *p, int *status, struct proc_out *o,
    struct diag *d);
int proc_run_bounded(const struct proc *p, double timeout, size_t max,
    int *status, struct proc_out *o, struct diag *d);
void proc_out_free(struct proc_out *o);
/* Every descriptor from 3 up closed but the n in keep (any order). */
void proc_close_others(const int *keep, size_t n);

#endif
