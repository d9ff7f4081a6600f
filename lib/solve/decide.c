/*
 * NAME
 *	decide - a plan from the inputs of a spool, in this process
 * DESCRIPTION
 *	See decide.h.  The model is written once solved, as solved (with
 *	the columns the solve fixed at 0), and the plan last, once every
 *	other step succeeded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fault.h"

#include "solve/decide.h"

/*
 * The job of this file: the cached one when the bytes are the same,
 * else parsed, and then cached.
 */
static int
load_job(struct solve *s, const struct input_file *f, const char *label,
    struct job_cache *c, struct diag *d)
{
	struct job job;

	if (c != NULL && job_cache_get(c, f->name, f->buf, f->len, &job) == 0)
		return solve_job_parsed(s, label, &job, f->hash, d);
	if (job_parse(&job, label, f->buf, f->len, JOB_TRUSTED, d) < 0)
		return -1;
	if (c != NULL)
		job_cache_put(c, f->name, f->buf, f->len, &job);
	return solve_job_parsed(s, label, &job, f->hash, d);
}

int
decide_load(struct solve *s, const struct inputs *in, int flags,
    struct job_cache *c, struct diag *d)
{
	char label[JOB_NAME_MAX + 32];
	size_t i;

	if (solve_holes(s, "holes/current.yaml", in->holes.buf, in->holes.len,
	    d) < 0)
		return -1;
	for (i = 0; i < in->njobs; i++) {
		snprintf(label, sizeof label, "jobs/%s.yaml", in->jobs[i].name);
		if (load_job(s, &in->jobs[i], label, c, d) < 0)
			return -1;
		if ((flags & DECIDE_CHECK_NAMES) && job_check_name(
		    &s->jobs[s->njobs - 1].job, in->jobs[i].name, label, d) < 0)
			return -1;
	}
	for (i = 0; i < in->nprofiles; i++) {
		snprintf(label, sizeof label, "profiles/%s.yaml",
		    in->profiles[i].name);
		if (solve_profile(s, label, in->profiles[i].buf,
		    in->profiles[i].len, d) < 0)
			return -1;
	}
	if (in->have_state && solve_state(s, "state.yaml", in->state.buf,
	    in->state.len, d) < 0)
		return -1;
	if (in->have_policy && solve_policy(s, in->policy_label ?
	    in->policy_label : "policy.yaml", in->policy.buf, in->policy.len,
	    d) < 0)
		return -1;
	if (c != NULL)
		job_cache_sweep(c);
	return 0;
}

/*
 * plans/TIME-HEX.mps (the holes' time, the XXH3 of the model's text),
 * staged: written, its writeback begun, synced with the plan.
 */
static int
stage_mps(struct solve *s, const struct solve_opts *o, struct spool *sp,
    struct file_staged *st, char *path, size_t pathlen, struct diag *d)
{
	char hex[HASH_TEXT_LEN];
	size_t len;
	char *mps = solve_mps(s, o, &len, d);
	int rc;

	if (mps == NULL)
		return -1;
	hash_format(hash_buf(mps, len), hex);
	snprintf(path, pathlen, "plans/%lld-%s.mps", s->holes.time, hex + 5);
	rc = spool_stage_unsynced(sp, SPOOL_PLANS, path + 6, mps, len, 0644,
	    st, d);
	free(mps);
	return rc;
}

int
decide_spool(struct spool *sp, const struct inputs *in,
    const struct solve_opts *o, struct job_cache *c, struct plan *p,
    char **text, size_t *len, struct diag *d)
{
	char mps[128];
	struct file_staged st[2];
	struct solve s;
	struct plan made;
	int rc = -1;

	*text = NULL;
	st[0].fd = st[1].fd = -1;
	st[0].tmpname[0] = st[1].tmpname[0] = '\0';
	plan_init(p);
	plan_init(&made);
	solve_init(&s);
	if (decide_load(&s, in, DECIDE_CHECK_NAMES, c, d) < 0 ||
	    solve_prepare(&s, o, d) < 0 || solve_run(&s, o, d) < 0 ||
	    stage_mps(&s, o, sp, &st[0], mps, sizeof mps, d) < 0 ||
	    solve_plan(&s, o, mps, &made, d) < 0)
		goto out;
	if ((*text = plan_format(&made, len)) == NULL) {
		diag_errno(d, ENOMEM, "plan");
		goto out;
	}
	/* Given back as bf-apply reads it (the host sets too). */
	if (plan_parse(p, "plans/current.yaml", *text, *len, d) < 0)
		goto out;
	/*
	 * The model and the plan synced together, then the model put in
	 * place and the plan, one directory fsync for both: a plan whose
	 * model a crash lost is one whose model is gone (bf-spool(5)).
	 */
	if (spool_stage_unsynced(sp, SPOOL_PLANS, "current.yaml", *text, *len,
	    0644, &st[1], d) < 0 || spool_sync_staged(sp, SPOOL_PLANS, st, 2,
	    d) < 0 || spool_publish(sp, &st[0], SPOOL_PLANS, mps + 6,
	    FILE_NODIRSYNC, d) < 0)
		goto out;
	fault_point("solve-before-plan");
	rc = spool_publish(sp, &st[1], SPOOL_PLANS, "current.yaml", 0, d);
out:
	file_unstage(&st[0]);
	file_unstage(&st[1]);
	solve_free(&s);
	plan_free(&made);
	if (rc < 0) {
		plan_free(p);
		free(*text);
		*text = NULL;
	}
	return rc;
}
