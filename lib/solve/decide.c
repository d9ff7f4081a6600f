/*
 * NAME
 *	decide - a plan from the inputs of a spool, in this process
 * DESCRIPTION
 *	See decide.h.  The model is written once solved, as solved (with
 *	the columns the solve fixed at 0), and the plan last, once every
 *	other step succeeded.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/fault.h"
#include "util/file.h"
#include "util/hostlist.h"
#include "util/ydoc.h"

#include "solve/decide.h"
#include "spool/holes.h"
#include "spool/policy.h"
#include "spool/job.h"
#include "spool/state.h"

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

/* The job file's min_nodes, or 1 when it cannot be read. */
static long
min_nodes_of(const struct inputs *in, const char *name)
{
	struct job job;
	struct diag ignored;
	long min = 1;
	size_t i;

	for (i = 0; i < in->njobs; i++)
		if (strcmp(in->jobs[i].name, name) == 0) {
			if (job_parse(&job, name, in->jobs[i].buf,
			    in->jobs[i].len, JOB_TRUSTED | JOB_QUIET,
			    &ignored) == 0) {
				min = job.min_nodes > 1 ? job.min_nodes : 1;
				job_free(&job);
			}
			break;
		}
	return min;
}

/* One job of the give-back plan: what it holds of the holes, or none. */
static int
give_back_job(const struct inputs *in, const struct state_job *sj,
    const struct holes *h, int have_holes, const char *why,
    struct plan_job *pj, struct hostlist *held, struct diag *d)
{
	struct hostlist keep;
	char note[DIAG_MAX + 128];
	size_t i, lost;

	memset(pj, 0, sizeof *pj);
	snprintf(pj->name, sizeof pj->name, "%s", sj->name);
	pj->was = (long)sj->hosts.n;
	hostlist_init(&keep);
	for (i = 0; have_holes && i < sj->hosts.n; i++)
		if (holes_find(h, sj->hosts.names[i]) != NULL &&
		    hostlist_add(&keep, sj->hosts.names[i]) < 0) {
			hostlist_free(&keep);
			return diag_errno(d, ENOMEM, "plan");
		}
	if ((long)keep.n < min_nodes_of(in, sj->name)) {
		hostlist_free(&keep);	/* below its minimum: all of it goes */
		hostlist_init(&keep);
	}
	lost = sj->hosts.n - keep.n;
	pj->nodes = (long)keep.n;
	if (keep.n > 0 && (pj->hosts = hostlist_compress(&keep)) == NULL) {
		hostlist_free(&keep);
		return diag_errno(d, ENOMEM, "plan");
	}
	for (i = 0; i < keep.n; i++)
		if (hostlist_add(held, keep.names[i]) < 0) {
			hostlist_free(&keep);
			return diag_errno(d, ENOMEM, "plan");
		}
	hostlist_free(&keep);
	snprintf(note, sizeof note, "no plan could be made (%s): %s", why,
	    lost == 0 ? "kept as it is" : !have_holes ? "every node given back" :
	    pj->nodes == 0 && lost > 0 ? "stopped: below its min_nodes or no "
	    "node left" : "nodes taken back");
	if (lost > 0 && pj->nodes > 0) {
		size_t n = strlen(note);
		snprintf(note + n, sizeof note - n, ": %zu of %zu", lost,
		    sj->hosts.n);
	}
	if ((pj->note = strdup(note)) == NULL)
		return diag_errno(d, ENOMEM, "plan");
	return 0;
}

int
decide_give_back(const struct inputs *in, const char *why, struct plan *p,
    struct diag *d)
{
	struct holes h;
	struct state st;
	struct hostlist held, unused;
	struct diag quiet;
	size_t i;
	int have_holes, rc = 0;

	plan_init(p);
	holes_init(&h);
	state_init(&st);
	hostlist_init(&held);
	hostlist_init(&unused);
	have_holes = holes_parse(&h, "holes/current.yaml", in->holes.buf,
	    in->holes.len, &quiet) == 0;
	if (in->have_state && state_parse(&st, "state.yaml", in->state.buf,
	    in->state.len, d) < 0) {
		rc = -1;	/* none can be made: the state is unreadable */
		goto out;
	}
	p->time = have_holes ? h.time : st.time;
	memcpy(p->holes, in->dig_holes, sizeof p->holes);
	memcpy(p->jobs_digest, in->dig_jobs, sizeof p->jobs_digest);
	memcpy(p->state, in->dig_state, sizeof p->state);
	memcpy(p->policy, in->dig_policy, sizeof p->policy);
	memcpy(p->profiles, in->dig_profiles, sizeof p->profiles);
	snprintf(p->solver, sizeof p->solver, "give-back");
	snprintf(p->model, sizeof p->model, "none");
	snprintf(p->status, sizeof p->status, "no-plan");
	if (st.n > 0 && (p->jobs = calloc(st.n, sizeof *p->jobs)) == NULL) {
		rc = diag_errno(d, ENOMEM, "plan");
		goto out;
	}
	for (i = 0; i < st.n && rc == 0; i++, p->njobs++)
		rc = give_back_job(in, &st.jobs[i], &h, have_holes, why,
		    &p->jobs[i], &held, d);
	hostlist_sort_uniq(&held);
	for (i = 0; rc == 0 && have_holes && i < h.n; i++)
		if (!hostlist_contains(&held, h.nodes[i].name) &&
		    hostlist_add(&unused, h.nodes[i].name) < 0)
			rc = diag_errno(d, ENOMEM, "plan");
	if (rc == 0 && unused.n > 0 &&
	    (p->free = hostlist_compress(&unused)) == NULL)
		rc = diag_errno(d, ENOMEM, "plan");
out:
	if (rc < 0)
		plan_free(p);
	hostlist_free(&held);
	hostlist_free(&unused);
	holes_free(&h);
	state_free(&st);
	return rc;
}

int
decide_give_back_spool(struct spool *sp, const struct inputs *in,
    const char *why, struct plan *p, char **text, size_t *len,
    struct diag *d)
{
	struct plan made;

	*text = NULL;
	plan_init(p);
	if (decide_give_back(in, why, &made, d) < 0)
		return -1;
	*text = plan_format(&made, len);
	plan_free(&made);
	if (*text == NULL)
		return diag_errno(d, ENOMEM, "plan");
	if (plan_parse(p, "plans/current.yaml", *text, *len, d) < 0 ||
	    spool_write(sp, SPOOL_PLANS, "current.yaml", *text, *len, 0644, 0,
	    d) < 0) {
		plan_free(p);
		free(*text);
		*text = NULL;
		return -1;
	}
	return 0;
}

enum check_kind { CHECK_JOB, CHECK_HOLES, CHECK_POLICY, CHECK_PROFILE };

/* What a file is, by its top-level keys. */
static enum check_kind
kind_of(const char *file, const char *buf, size_t len)
{
	struct ydoc doc;
	struct diag d;
	enum check_kind k = CHECK_JOB;
	const char *base = strrchr(file, '/');

	base = base ? base + 1 : file;
	if (strcmp(base, "policy.yaml") == 0)
		return CHECK_POLICY;
	if (ydoc_load(&doc, file, buf, len, &d) < 0)
		return CHECK_JOB;	/* its parser says what is wrong */
	if (doc.root != NULL && doc.root->kind == YDOC_MAPPING) {
		if (ydoc_get(doc.root, "idle") != NULL)
			k = CHECK_HOLES;
		else if (ydoc_get(doc.root, "users") != NULL ||
		    ydoc_get(doc.root, "groups") != NULL ||
		    ydoc_get(doc.root, "max_rescales") != NULL ||
		    ydoc_get(doc.root, "max_rate_per_node") != NULL)
			k = CHECK_POLICY;
		else if (ydoc_get(doc.root, "rates") != NULL ||
		    ydoc_get(doc.root, "fit") != NULL)
			k = CHECK_PROFILE;
	}
	ydoc_free(&doc);
	return k;
}

static const char *const kind_names[] = { "job file", "holes file",
	"policy", "profile" };

/* One file, checked as what it is: 0, or -1 with d set. */
static int
check_one(const char *file, const char *buf, size_t len, enum check_kind k,
    struct diag *d)
{
	struct policy pol;
	struct holes h;
	struct job j;
	struct solve s;
	int rc;

	switch (k) {
	case CHECK_POLICY:
		policy_init(&pol);
		rc = policy_parse(&pol, file, buf, len, d);
		policy_free(&pol);
		return rc;
	case CHECK_HOLES:
		holes_init(&h);
		rc = holes_parse(&h, file, buf, len, d);
		holes_free(&h);
		return rc;
	case CHECK_PROFILE:
		solve_init(&s);
		rc = solve_profile(&s, file, buf, len, d);
		solve_free(&s);
		return rc;
	case CHECK_JOB:
	default:
		if ((rc = job_parse(&j, file, buf, len, 0, d)) == 0)
			job_free(&j);
		return rc;
	}
}

int
decide_check_files(char *const files[], size_t n, FILE *out, struct diag *d)
{
	size_t i, bad = 0;
	char *buf;
	size_t len;
	struct diag e;

	for (i = 0; i < n; i++) {
		enum check_kind k;
		if (file_read_at(AT_FDCWD, files[i], INPUTS_MAX_FILE, 0, &buf,
		    &len, &e) < 0) {
			fprintf(out, "%s: %s\n", files[i], e.text);
			bad++;
			continue;
		}
		k = kind_of(files[i], buf, len);
		if (check_one(files[i], buf, len, k, &e) < 0) {
			fprintf(out, "%s\n", e.text);
			bad++;
		} else
			fprintf(out, "%s: a good %s\n", files[i], kind_names[k]);
		free(buf);
	}
	if (bad > 0)
		return diag_set(d, EX_DATAERR, "%zu of %zu files would be "
		    "refused", bad, n);
	return 0;
}

int
decide_check_spool(struct spool *sp, FILE *out, struct diag *d)
{
	struct solve_opts o = SOLVE_OPTS_DEFAULT;
	struct inputs in;
	struct solve s;
	int rc;

	if (inputs_read(&in, sp, 0, d) < 0)
		return -1;
	solve_init(&s);
	rc = decide_load(&s, &in, DECIDE_CHECK_NAMES, NULL, d);
	if (rc == 0)
		rc = solve_prepare(&s, &o, d);
	if (rc == 0)
		fprintf(out, "%s: holes/current.yaml, %zu job files, %zu "
		    "profiles%s and state.yaml make a plan\n", sp->path,
		    in.njobs, in.nprofiles, in.have_policy ? ", policy.yaml" :
		    "");
	solve_free(&s);
	inputs_free(&in);
	return rc;
}
