/*
 * NAME
 *	cmdout - the whole standard output of a scheduler's command
 * DESCRIPTION
 *	See cmdout.h.  The exit status alone tells a missing command (the
 *	shell's 127) from a failing one.  proc_run() does the running, so
 *	that a command that hangs is killed at the timeout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/cmdout.h"
#include "util/env.h"
#include "util/log.h"
#include "util/proc.h"

int
cmdout_on_path(const char *prog)
{
	char buf[4096];

	return env_path_find(prog, buf, sizeof buf) == 0;
}

double
cmdout_timeout(void)
{
	return env_seconds("BF_SCHED_TIMEOUT", CMDOUT_TIMEOUT, 86400, 0);
}

int
cmdout_run(const char *label, const char *cmd, const char *hint,
    char **out, size_t *len, struct diag *d)
{
	char *argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };
	struct proc p = { argv, NULL, NULL, 0, PROC_CAPTURE, PROC_INHERIT,
	    NULL, NULL };
	struct proc_out o;
	double t = cmdout_timeout();
	int status;

	if (proc_run_bounded(&p, t, CMDOUT_MAX, &status, &o, d) < 0)
		return diag_prefix(d, "%s", label);
	if (o.interrupted) {
		proc_out_free(&o);
		return diag_set(d, EX_TEMPFAIL, "%s: killed: asked to end",
		    label);
	}
	if (o.timedout) {
		proc_out_free(&o);
		return diag_set(d, EX_TEMPFAIL, "%s: no answer in %g s "
		    "(BF_SCHED_TIMEOUT); killed; %s", label, t, hint);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		proc_out_free(&o);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			return diag_set(d, EX_UNAVAILABLE, "%s: command not "
			    "found: %s", label, cmd);
		if (WIFEXITED(status))
			return diag_set(d, EX_TEMPFAIL, "%s exited with status "
			    "%d; %s", label, WEXITSTATUS(status), hint);
		return diag_set(d, EX_TEMPFAIL, "%s was killed by signal %d",
		    label, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	}
	if (o.lost) {
		proc_out_free(&o);
		return diag_set(d, EX_DATAERR, "%s: output larger than %d "
		    "bytes or out of memory", label, CMDOUT_MAX);
	}
	free(o.err);
	*out = o.out;
	*len = o.outlen;
	return 0;
}
