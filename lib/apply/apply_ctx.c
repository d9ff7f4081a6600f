/*
 * NAME
 *	apply_ctx - what one run of bf-apply knows and has done: the statuses
 *	asked for, the actions said, the state, the job files
 * DESCRIPTION
 *	See apply_int.h.  The primitives that apply.c (the plan's steps)
 *	and apply_retire.c (ended, stopped and cancelled jobs) share, below
 *	both.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/array.h"
#include "util/fault.h"
#include "util/file.h"

#include "apply/apply_int.h"
#include "apply/pilots.h"
#include "spool/job_cache.h"
#include "spool/state.h"

/* Where name is in c->seen (by name), or would go: *found says which. */
static size_t
seen_at(const struct ctx *c, const char *name, int *found)
{
	return array_find_name(c->seen, c->nseen, sizeof *c->seen,
	    offsetof(struct seen, name), name, found);
}

/* A job's status, asked of the backend once per run unless it changed. */
int
apply_status(struct ctx *c, const char *name, struct backend_status *bs)
{
	struct seen *grown;
	int found;
	size_t i = seen_at(c, name, &found);

	if (found) {
		*bs = c->seen[i].bs;
		return 0;
	}
	if (c->b->ops->status(c->b, name, bs, c->d) < 0)
		return -1;
	if ((grown = array_grow(c->seen, &c->capseen, c->nseen + 1,
	    sizeof *grown, 64)) == NULL)
		return 0;	/* not kept, still right */
	c->seen = grown;
	memmove(&c->seen[i + 1], &c->seen[i], (c->nseen - i) * sizeof *grown);
	c->nseen++;
	snprintf(c->seen[i].name, sizeof c->seen[0].name, "%s", name);
	c->seen[i].bs = *bs;
	return 0;
}

/* The job was acted on: ask the backend again next time. */
void
apply_forget(struct ctx *c, const char *name)
{
	int found;
	size_t i = seen_at(c, name, &found);

	if (found) {
		memmove(&c->seen[i], &c->seen[i + 1],
		    (c->nseen - i - 1) * sizeof c->seen[0]);
		c->nseen--;
	}
}

int
apply_act(struct ctx *c, const char *kind, const char *name, long was,
    long nodes, const char *hosts, const char *note)
{
	struct apply_result *r = c->r;
	struct apply_action *a;

	if ((a = array_grow(r->acts, &r->cap, r->n + 1, sizeof *a, 16)) ==
	    NULL)
		return diag_errno(c->d, ENOMEM, "actions");
	r->acts = a;
	a = &r->acts[r->n];
	memset(a, 0, sizeof *a);
	snprintf(a->kind, sizeof a->kind, "%s", kind);
	snprintf(a->name, sizeof a->name, "%s", name);
	a->was = was;
	a->nodes = nodes;
	snprintf(a->note, sizeof a->note, "%s", note ? note : "");
	if (hosts != NULL && (a->hosts = strdup(hosts)) == NULL)
		return diag_errno(c->d, ENOMEM, "actions");
	r->n++;
	return 0;
}

int
apply_write_state(struct ctx *c)
{
	size_t len, i;
	char *text, *pilots;
	int tmpfd, rc;

	if (c->o->dry_run)
		return 0;
	c->st.time = c->o->now;
	/* The pilot jobs that hold each job's nodes (--backend slurm). */
	for (i = 0; i < c->st.n; i++) {
		pilots = pilots_ids(c->b, c->st.jobs[i].name);
		state_set_pilots(&c->st, c->st.jobs[i].name, pilots);
		free(pilots);
	}
	if ((tmpfd = spool_dirfd(c->sp, SPOOL_TMP, c->d)) < 0)
		return -1;
	if ((text = state_format(&c->st, &len)) == NULL)
		return diag_errno(c->d, ENOMEM, "state");
	fault_point("apply-before-state");
	c->changed = 1;
	c->state_due = 0;
	rc = file_write_atomic(tmpfd, c->sp->fd, "state.yaml", text, len,
	    0644, 0, c->d);
	free(text);
	if (rc < 0)
		return diag_prefix(c->d, "%s/state.yaml: ", c->sp->path);
	c->state_writes++;
	fault_point("apply-after-state");
	return 0;
}

long
apply_held(const struct ctx *c, const char *name)
{
	const struct state_job *sj = state_find(&c->st, name);

	return sj ? (long)sj->hosts.n : 0;
}

char *
apply_compress(const struct hostlist *hl)
{
	return hostlist_compress(hl);
}

int
apply_load_job(struct ctx *c, const char *name, struct job *j, char **buf,
    size_t *len)
{
	char file[JOB_NAME_MAX + 8], label[JOB_NAME_MAX + 16], *mine = NULL;
	int fd = spool_dirfd(c->sp, SPOOL_JOBS, c->d), rc;
	size_t mylen;

	if (fd < 0)
		return -1;
	snprintf(file, sizeof file, "%s.yaml", name);
	snprintf(label, sizeof label, "jobs/%s.yaml", name);
	if (buf == NULL)
		buf = &mine, len = &mylen;
	*buf = NULL;
	/* Read now, at the action; parsed unless it is the job decided on. */
	if (file_read_named(fd, file, label, FILE_MAX_JOB, FILE_NOFOLLOW, buf,
	    len, c->d) < 0)
		return -1;
	if (c->o->jobs != NULL && job_cache_get(c->o->jobs, name, *buf, *len,
	    j) == 0)
		rc = 0;
	else
		rc = job_parse(j, label, *buf, *len, JOB_TRUSTED | JOB_QUIET,
		    c->d);
	free(mine);
	return rc;
}

/*
 * The job as the caller's inputs of this pass hold it, parsed, without a
 * read: bf-watch's inputs (by name) and its cache of them parsed, when
 * both hold the job; else NULL (apply_load_job() then).  Valid until the
 * caller's next decision.  The bytes are the job file's still, even when
 * this run wrote since: a job file is never replaced while it exists
 * (intake writes it with FILE_NOREPLACE), and intake does not run within
 * a run of bf-apply.
 */
const struct job *
apply_job_peek(const struct ctx *c, const char *name)
{
	const struct inputs *in = c->o->inputs;
	size_t i;
	int found;

	if (in == NULL || c->o->jobs == NULL)
		return NULL;
	i = array_find_name(in->jobs, in->njobs, sizeof *in->jobs,
	    offsetof(struct input_file, name), name, &found);
	if (!found || in->jobs[i].buf == NULL)
		return NULL;
	return job_cache_peek(c->o->jobs, name, in->jobs[i].buf,
	    in->jobs[i].len);
}

/*
 * jobs/NAME.yaml is there, of whatever type (it is not opened here), or
 * cannot be known to be gone: only ENOENT says a job is gone.
 */
int
apply_has_job_file(struct ctx *c, const char *name)
{
	char file[JOB_NAME_MAX + 8];

	snprintf(file, sizeof file, "%s.yaml", name);
	return faccessat(c->sp->dirs[SPOOL_JOBS], file, F_OK,
	    AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT;
}

/* The reason of the action said last, for the daemon's log. */
void
apply_reason(struct ctx *c, const char *reason)
{
	if (c->r->n > 0)
		snprintf(c->r->acts[c->r->n - 1].reason,
		    sizeof c->r->acts[0].reason, "%s", reason);
}

/*
 * 1 when a node the job holds is not in the plan's holes (no job's and not
 * free): the scheduler took it back, bftrainer did not choose to let it go.
 */
int
apply_taken_back(const struct ctx *c, const char *name)
{
	const struct state_job *sj = state_find(&c->st, name);
	struct hostlist free_set;
	char err[128];
	size_t h, i;
	int in, gone = 0;

	if (sj == NULL)
		return 0;
	hostlist_init(&free_set);
	if (c->plan.free != NULL && hostlist_parse(&free_set, c->plan.free,
	    err, sizeof err) < 0) {
		hostlist_free(&free_set);
		return 0;
	}
	hostlist_sort_uniq(&free_set);
	for (h = 0; h < sj->hosts.n && !gone; h++) {
		const char *node = sj->hosts.names[h];
		in = hostlist_contains(&free_set, node);
		for (i = 0; i < c->plan.njobs && !in; i++)
			in = hostlist_contains(&c->plan.jobs[i].host_set, node);
		gone = !in;
	}
	hostlist_free(&free_set);
	return gone;
}
