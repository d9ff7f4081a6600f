/*
 * NAME
 *	backend_shadow - a backend that enacts nothing: bf-watch --shadow
 * SYNOPSIS
 *	backend_open(&b, "shadow", &sp, &d);
 *	b.shadowing = "slurm";		(what it stands in for, for the records)
 * DESCRIPTION
 *	See backend.h.  For trialling bftrainer beside production: every
 *	decision is made, logged and recorded in history/ as with any
 *	backend, and the state says what the jobs would hold, but no process
 *	starts, no pilot is submitted, nothing is signalled.  A job
 *	"started" has run/NAME/ as a local one would (hosts, a pid record
 *	with no supervisor and no process group, and RUNDIR_SHADOW naming
 *	the backend it stands in for), "runs" until a plan stops it, and is
 *	then recorded as stopped by the plan (preempted, its job file kept):
 *	it never ends by itself, since nothing of it runs.  bf-report over
 *	such a history says what the holes would have given (node-hours
 *	held, ideal samples by the declared curves) and that it was a
 *	shadow.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/file.h"

#include "apply/backend.h"
#include "run/rundir.h"

static int
shadow_start(struct backend *b, const struct job *j,
    const struct hostlist *hosts, struct diag *d)
{
	struct rundir_pid pid = { 0, 0, (long)j->owner_uid,
	    (long long)time(NULL) };
	char text[64];
	int rfd, tmpfd, rc;

	if (backend_may_run(j, b->allow_root, d) < 0 ||
	    backend_write_hosts(b, j->name, hosts, j->slots_per_node, d) < 0 ||
	    (tmpfd = spool_dirfd(b->sp, SPOOL_TMP, d)) < 0 ||
	    (rfd = rundir_make(b->sp, j->name, d)) < 0)
		return -1;
	snprintf(text, sizeof text, "backend: %s\n", b->shadowing[0] ?
	    b->shadowing : "local");
	(void)unlinkat(rfd, RUNDIR_STOPPING, 0);
	(void)unlinkat(rfd, RUNDIR_EXIT, 0);
	rc = file_write_atomic(tmpfd, rfd, RUNDIR_SHADOW, text, strlen(text),
	    0644, 0, d);
	if (rc == 0)
		rc = rundir_pid_write(tmpfd, rfd, j->name, &pid, d);
	close(rfd);
	return rc;
}

static int
shadow_resize(struct backend *b, const struct job *j,
    const struct hostlist *hosts, struct diag *d)
{
	return backend_write_hosts(b, j->name, hosts, j->slots_per_node, d);
}

/* Why, as a local stop records it, then the end: nothing to wait for. */
static int
shadow_stop(struct backend *b, const char *name, const char *why,
    struct diag *d)
{
	int rfd = rundir_open(b->sp, name), tmpfd, rc = 0;

	if (rfd < 0)
		return 0;
	if ((tmpfd = spool_dirfd(b->sp, SPOOL_TMP, d)) < 0) {
		close(rfd);
		return -1;
	}
	if (faccessat(rfd, RUNDIR_EXIT, F_OK, AT_SYMLINK_NOFOLLOW) < 0)
		rc = rundir_stopping_write(tmpfd, rfd, why, d) < 0 ||
		    rundir_exit_write(tmpfd,
		    rfd, name, 15 /* SIGTERM, as waitpid says it */, d) < 0 ?
		    -1 : 0;
	close(rfd);
	return rc;
}

static int
shadow_status(struct backend *b, const char *name, struct backend_status *st,
    struct diag *d)
{
	struct rundir_record r;
	int rfd = rundir_open(b->sp, name);

	(void)d;
	memset(st, 0, sizeof *st);
	st->code = -1;
	if (rfd < 0)
		return 0;
	rundir_record_open(rfd, RUNDIR_PID, &r);
	if (rundir_record_key(&r, "started", &st->started) == 0)
		st->phase = BACKEND_RUNNING;
	rundir_record_close(&r);
	rundir_stopping_read(rfd, st->stopping, sizeof st->stopping,
	    &st->cancelled_by);
	if (rundir_exit_read(rfd, &st->ended, &st->signal, &st->code) == 0)
		st->phase = BACKEND_EXITED;
	close(rfd);
	return 0;
}

static int
shadow_retire(struct backend *b, const char *name, const char *stem,
    struct diag *d)
{
	/* Nothing runs: the local backend's move into history/runs/. */
	return backend_local.retire(b, name, stem, d);
}

const struct backend_ops backend_shadow = {
	"shadow", shadow_start, shadow_resize, shadow_stop, shadow_status,
	shadow_retire, NULL, NULL, NULL,
};
