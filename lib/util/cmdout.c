/*
 * NAME
 *	cmdout - the whole standard output of a scheduler's command
 * DESCRIPTION
 *	See cmdout.h.  The exit status alone tells a missing command (the
 *	shell's 127) from a failing one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/cmdout.h"

int
cmdout_on_path(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	char buf[4096];

	for (p = path ? path : ""; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (end == NULL)
			end = p + strlen(p);
		snprintf(buf, sizeof buf, "%.*s/%s", (int)(end - p), p, prog);
		if (end > p && access(buf, X_OK) == 0)
			return 1;
	}
	return 0;
}

/*
 * Reads fp to its end into a buffer of at most CMDOUT_MAX bytes and a NUL;
 * -1 when more came (the rest is drained: pclose() waits for the command)
 * or memory ran out.
 */
static int
slurp(FILE *fp, char **out, size_t *lenp)
{
	const size_t most = (size_t)CMDOUT_MAX + 1;
	size_t len = 0, cap = 0, n;
	char *buf = NULL, sink[4096];
	int lost = 0;

	for (;;) {
		if (!lost && cap - len < 4096 && cap < most) {
			size_t ncap = cap ? 2 * cap : 16384;
			char *b = realloc(buf, ncap < most ? ncap : most);
			if (b == NULL)
				lost = 1;
			else {
				buf = b;
				cap = ncap < most ? ncap : most;
			}
		}
		if (lost || len + 1 >= cap) {
			n = fread(sink, 1, sizeof sink, fp);
			lost |= n > 0;
		} else
			len += n = fread(buf + len, 1, cap - len - 1, fp);
		if (n == 0)
			break;
	}
	if (lost) {
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	*out = buf;
	*lenp = len;
	return 0;
}

int
cmdout_run(const char *label, const char *cmd, const char *hint,
    char **out, size_t *len, struct diag *d)
{
	FILE *fp = popen(cmd, "r");
	char *buf = NULL;
	size_t n = 0;
	int status, rc;

	if (fp == NULL)
		return diag_errno(d, errno, "%s: cannot run", label);
	rc = slurp(fp, &buf, &n);
	status = pclose(fp);
	if (status != 0) {
		free(buf);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			return diag_set(d, EX_UNAVAILABLE, "%s: command not "
			    "found: %s", label, cmd);
		if (WIFEXITED(status))
			return diag_set(d, EX_TEMPFAIL, "%s exited with status "
			    "%d; %s", label, WEXITSTATUS(status), hint);
		return diag_set(d, EX_TEMPFAIL, "%s was killed by signal %d",
		    label, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	}
	if (rc < 0)
		return diag_set(d, EX_DATAERR, "%s: output larger than %d "
		    "bytes or out of memory", label, CMDOUT_MAX);
	*out = buf;
	*len = n;
	return 0;
}
