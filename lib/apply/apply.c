/*
 * NAME
 *	apply - enact a plan through a backend, one true state at a time
 * DESCRIPTION
 *	See apply.h.  The order of the writes is what makes a crash at any
 *	instant harmless: the backend acts first and state.yaml follows, so
 *	the state lags the truth by at most one action, and the first step
 *	of every run (reconcile) reads the truth back from run/.  A job that
 *	ended is recorded in history/ first, then dropped from the state,
 *	then its job file removed, and its run/ directory moved last: a job
 *	file without a run/ directory is a job never started, so it must
 *	never be left behind by a job that ran to its end.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/array.h"
#include "util/env.h"
#include "util/fault.h"
#include "util/file.h"
#include "util/now.h"

#include "apply/apply.h"
#include "apply/apply_int.h"
#include "spool/cancel.h"
#include "spool/history.h"
#include "spool/job_cache.h"
#include "spool/plan.h"
#include "spool/progress.h"
#include "spool/state.h"

void
apply_print(FILE *fp, const struct apply_action *a)
{
	if (strcmp(a->kind, "refused") == 0)
		fprintf(fp, "refused %s %s\n", a->name, a->note);
	else if (strcmp(a->kind, "adopt") == 0)
		fprintf(fp, "adopt %s %ld %s\n", a->name, a->nodes,
		    a->hosts ? a->hosts : "");
	else {
		fprintf(fp, "%s %s %ld->%ld", a->kind, a->name, a->was,
		    a->nodes);
		if (a->hosts != NULL)
			fprintf(fp, " %s", a->hosts);
		if (a->note[0] != '\0')
			fprintf(fp, " %s", a->note);
		fputc('\n', fp);
	}
}

void
apply_result_free(struct apply_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->acts[i].hosts);
	free(r->acts);
	memset(r, 0, sizeof *r);
}

static int
load_state(struct ctx *c)
{
	const struct inputs *in = c->o->inputs;
	char *buf;
	size_t len;
	int rc;

	if (in != NULL && !in->have_state) {
		state_init(&c->st);
		return 0;
	}
	if (in != NULL)
		return state_parse(&c->st, "state.yaml", in->state.buf,
		    in->state.len, c->d);
	if (file_read_at(c->sp->fd, "state.yaml", STATE_MAX_FILE,
	    FILE_NOFOLLOW, &buf, &len, c->d) < 0) {
		if (c->d->code != EX_NOINPUT)
			return -1;
		diag_clear(c->d);
		state_init(&c->st);
		return 0;
	}
	rc = state_parse(&c->st, "state.yaml", buf, len, c->d);
	free(buf);
	return rc;
}

/* Put a job in the state with these hosts (or take it out, hosts NULL). */
static int
set_hosts(struct ctx *c, const char *name, const char *hosts)
{
	struct diag ignored;

	state_remove(&c->st, name);
	if (hosts == NULL)
		return 0;
	if (state_add(&c->st, name, hosts, c->d) < 0) {
		state_remove(&c->st, name);
		return -1;
	}
	(void)ignored;
	return 0;
}

/* A job running in run/ is in the state with the hosts it was given. */
static int
adopt(struct ctx *c, const char *name)
{
	const struct state_job *sj = state_find(&c->st, name);
	const struct hostlist *hl;
	char *text;
	int rc = 0;

	if (backend_run_hosts(c->b, name, &hl, c->d) < 0) {
		diag_clear(c->d);
		return 0;
	}
	if (sj == NULL || !hostlist_equal(&sj->hosts, hl)) {
		long was = apply_held(c, name), n = (long)hl->n;
		/* hl is the backend's: nothing of it is used below. */
		if ((text = apply_compress(hl)) == NULL)
			rc = diag_errno(c->d, ENOMEM, "adopt");
		else if (set_hosts(c, name, text) < 0 ||
		    apply_act(c, "adopt", name, was, n, text, NULL) < 0)
			rc = -1;
		else {
			apply_reason(c, n < was ? "pilot lost" : "adopted");
			rc = apply_write_state(c);
		}
		free(text);
	}
	return rc;
}

/*
 * After a start or resize, the state holds what the backend obtained
 * (run/NAME/hosts): a backend may get fewer nodes than planned (Slurm:
 * a pilot job that did not run).  The local backend gets them all.
 */
static int
obtained(struct ctx *c, const char *name)
{
	const struct state_job *sj = state_find(&c->st, name);
	const struct hostlist *hl;
	struct hostlist missing;
	char *text;
	size_t i;
	int rc = 0;

	if (sj == NULL || backend_run_hosts(c->b, name, &hl, c->d) < 0) {
		diag_clear(c->d);
		return 0;
	}
	/* What it was to get and did not: not again from these holes. */
	hostlist_init(&missing);
	for (i = 0; i < sj->hosts.n && rc == 0; i++)
		if (!hostlist_contains(hl, sj->hosts.names[i]) &&
		    hostlist_add(&missing, sj->hosts.names[i]) < 0)
			rc = diag_errno(c->d, ENOMEM, "hosts");
	if (rc == 0 && missing.n > 0 && state_unobtained(&c->st,
	    c->plan.holes, &missing, c->o->now) < 0)
		rc = diag_errno(c->d, ENOMEM, "hosts");
	hostlist_free(&missing);
	if (rc == 0 && !hostlist_equal(&sj->hosts, hl)) {
		if ((text = apply_compress(hl)) == NULL)
			rc = diag_errno(c->d, ENOMEM, "hosts");
		else
			rc = set_hosts(c, name, text);
		free(text);
	}
	return rc;
}

static int
reconcile(struct ctx *c)
{
	struct backend_status bs;
	char **names;
	size_t n, i;

	if (spool_list(c->sp, SPOOL_RUN, &names, &n, c->d) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (!job_name_valid(names[i]) ||
		    apply_status(c, names[i], &bs) < 0)
			continue;
		if (bs.phase == BACKEND_RUNNING && adopt(c, names[i]) < 0)
			break;
	}
	spool_list_free(names, n);
	if (i < n)
		return -1;
	/* In the state but never started (or its run/ gone): not running. */
	for (i = c->st.n; i-- > 0;) {
		const char *name = c->st.jobs[i].name;
		if (apply_status(c, name, &bs) < 0)
			return -1;
		if (bs.phase != BACKEND_NONE)
			continue;
		if (apply_act(c, "lost", name, (long)c->st.jobs[i].hosts.n, 0,
		    NULL, "never started") < 0)
			return -1;
		apply_reason(c, "never started");
		state_remove(&c->st, name);
		if (apply_write_state(c) < 0)
			return -1;
	}
	return 0;
}

enum step { STEP_STOP, STEP_SHRINK, STEP_GROW, STEP_START, STEP_N };

struct step_job {
	const struct plan_job *pj;
	enum step step;
	const char *kind;
};

static int
classify(struct ctx *c, const struct plan_job *pj, struct step_job *sj)
{
	const struct state_job *cur = state_find(&c->st, pj->name);
	struct backend_status bs;
	int same;

	sj->pj = pj;
	if (cur == NULL && pj->nodes == 0)
		return 0;
	if (apply_status(c, pj->name, &bs) < 0)
		return -1;
	/* Ended since: retired below, not acted on. */
	if (bs.phase == BACKEND_EXITED || bs.phase == BACKEND_LOST)
		return 0;
	if (cur == NULL) {
		if (!apply_has_job_file(c, pj->name))
			return 0;	/* finished and gone */
		sj->step = STEP_START, sj->kind = "start";
		return 1;
	}
	if (pj->nodes == 0) {
		sj->step = STEP_STOP, sj->kind = "stop";
		return 1;
	}
	same = hostlist_equal(&pj->host_set, &cur->hosts);
	if (!same) {
		size_t n = pj->host_set.n;
		sj->step = n > cur->hosts.n ? STEP_GROW : STEP_SHRINK;
		sj->kind = n > cur->hosts.n ? "grow" :
		    n < cur->hosts.n ? "shrink" : "move";
	}
	return !same;
}

/*
 * A start up to the backend's: the job file read (into *j, the caller's
 * to free when 0), a refusal said (1), the state and action set (0).
 */
static int
start_prepare(struct ctx *c, const struct plan_job *pj, struct job *j)
{
	int rc;

	if (apply_load_job(c, pj->name, j, NULL, NULL) < 0)
		return -1;
	if (backend_may_run(j, c->b->allow_root, c->d) < 0) {
		c->r->refused++;
		rc = apply_act(c, "refused", pj->name, 0, 0, NULL, c->d->text);
		diag_clear(c->d);
		job_free(j);
		return rc < 0 ? -1 : 1;
	}
	if (set_hosts(c, pj->name, pj->hosts ? pj->hosts : "") < 0 ||
	    apply_act(c, "start", pj->name, 0, pj->nodes, pj->hosts,
	    NULL) < 0) {
		job_free(j);
		return -1;
	}
	apply_reason(c, "chosen");
	return 0;
}

/* After the backend's start, rc its result: the state says what it got. */
static int
start_done(struct ctx *c, const struct plan_job *pj, int rc)
{
	if (rc == 0)
		return obtained(c, pj->name) < 0 ? -1 : apply_write_state(c);
	/* The failure stands: skipped (65) or fatal, in enact(). */
	state_remove(&c->st, pj->name);
	/* None obtained: none again from these holes. */
	if (c->d->code == EX_DATAERR && state_unobtained(&c->st,
	    c->plan.holes, &pj->host_set, c->o->now) == 0) {
		struct diag keep = *c->d;
		if (apply_write_state(c) < 0)
			return -1;
		*c->d = keep;
	}
	return -1;
}

static int
do_start(struct ctx *c, const struct plan_job *pj)
{
	struct job j;
	int rc;

	if ((rc = start_prepare(c, pj, &j)) != 0)
		return rc < 0 ? -1 : 0;
	if (!c->o->dry_run) {
		fault_point("apply-before-start");
		apply_forget(c, pj->name);
		rc = start_done(c, pj, c->b->ops->start(c->b, &j,
		    &pj->host_set, c->d));
	}
	job_free(&j);
	return rc;
}

/*
 * A resize up to the backend's: the state and action set, the job file
 * read into *j (the caller's to free when 0) for the slots and owner;
 * 1 when that is all (-n).
 */
static int
resize_prepare(struct ctx *c, const struct step_job *s, struct job *j)
{
	const struct plan_job *pj = s->pj;
	long was = apply_held(c, pj->name);
	int taken = apply_taken_back(c, pj->name);

	if (set_hosts(c, pj->name, pj->hosts ? pj->hosts : "") < 0 ||
	    apply_act(c, s->kind, pj->name, was, pj->nodes, pj->hosts,
	    NULL) < 0)
		return -1;
	apply_reason(c, taken ? "taken back" : "chosen");
	if (c->o->dry_run)
		return 1;
	/* The job file gives the slots and owner; without it, one slot. */
	if (apply_load_job(c, pj->name, j, NULL, NULL) < 0) {
		diag_clear(c->d);
		memset(j, 0, sizeof *j);
		j->slots_per_node = 1;
		j->owner_uid = -1;
		snprintf(j->name, sizeof j->name, "%s", pj->name);
	}
	fault_point("apply-before-resize");
	return 0;
}

static int
do_resize(struct ctx *c, const struct step_job *s)
{
	struct job j;
	int rc;

	if ((rc = resize_prepare(c, s, &j)) != 0)
		return rc < 0 ? -1 : 0;
	rc = c->b->ops->resize(c->b, &j, &s->pj->host_set, c->d);
	job_free(&j);
	if (rc < 0 || obtained(c, s->pj->name) < 0)
		return -1;
	c->state_due = 1;	/* written once, after the plan's resizes */
	return 0;
}

static int
run_step(struct ctx *c, const struct step_job *s)
{
	switch (s->step) {
	case STEP_STOP:
		return apply_do_stop(c, s->pj->name, "plan");
	case STEP_START:
		return do_start(c, s->pj);
	default:
		return do_resize(c, s);
	}
}

/* Classify every plan job; with out NULL, only count the actions. */
static int
diff(struct ctx *c, struct step_job *out, size_t *n)
{
	struct step_job sj;
	size_t i;
	int k;

	*n = 0;
	for (i = 0; i < c->plan.njobs; i++) {
		memset(&sj, 0, sizeof sj);
		if ((k = classify(c, &c->plan.jobs[i], &sj)) < 0)
			return -1;
		if (k && out != NULL)
			out[*n] = sj;
		*n += (size_t)k;
	}
	return 0;
}

/*
 * The jobs a decision stops all get their notice first, then each is
 * waited for: one grace in all, since giving nodes back is what the main
 * queue waits for.  A job whose notice failed is stopped on its own below.
 */
static void
notify_stops(struct ctx *c, struct step_job *steps, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += steps[i].step == STEP_STOP;
	if (c->o->dry_run || k < 2)
		return;
	c->b->stop_since = now_mono();
	for (i = 0; i < n; i++)
		if (steps[i].step == STEP_STOP &&
		    backend_local_stop_begin(c->b, steps[i].pj->name, "plan",
		    c->d) < 0)
			diag_clear(c->d);
}

/*
 * A step that failed: skipped when the plan asked what cannot be (65: a
 * stale plan may hand out a node still held), else the end of enact().
 */
static int
step_failed(struct ctx *c, const struct step_job *s)
{
	if (c->d->code != EX_DATAERR)
		return -1;
	if (apply_act(c, "skipped", s->pj->name, apply_held(c, s->pj->name),
	    s->pj->nodes, NULL, c->d->text) < 0)
		return -1;
	diag_clear(c->d);
	return 0;
}

/* Starts begun at once at most: each holds its pipe until waited for. */
#define STARTS_OPEN_MAX 64

/*
 * The starts [from, to) waited for (their jobs freed): how many went
 * well; a fatal failure sets *rc and *first unless one came before.
 */
static int
starts_end(struct ctx *c, struct step_job *steps, size_t from, size_t to,
    struct job *jobs, const int *token, const char *staged,
    const char *begun, int *rc, struct diag *first)
{
	const struct plan_job *pj;
	int k, started = 0;
	size_t i;

	for (i = from; i < to; i++) {
		if (staged[i])
			job_free(&jobs[i]);
		if (!begun[i])
			continue;
		pj = steps[i].pj;
		k = c->b->ops->start_end(c->b, pj->name, token[i], c->d);
		if (k == 0 && (k = set_hosts(c, pj->name,
		    pj->hosts ? pj->hosts : "")) == 0)
			k = obtained(c, pj->name);
		if (k == 0)
			started++;
		else if (start_done(c, pj, k) < 0 &&
		    step_failed(c, &steps[i]) < 0 && *rc == 0) {
			*rc = -1;
			*first = *c->d;
		}
		diag_clear(c->d);
	}
	return started;
}

/*
 * The resizes and starts of a decision, where the backend starts in two
 * halves (start_begin; local): every hosts file written as one synced
 * group (backend_hosts_batch()), in the steps' order (shrinks, grows,
 * starts), then what the resizes obtained, then every start begun, then
 * each waited for, so that their supervisors start together (about 2 ms
 * each, one after the other, on the local backend); 64 at a time at
 * most, for each begun holds a pipe.  A fatal failure
 * still waits for those begun, then ends enact().  A job begun is out of
 * the state until its start is known; enact() writes the state once,
 * after the last, with the resizes and the starts that went well, so
 * that a full disk or a crash leaves no job in it that never ran (the
 * next run adopts those started that it lacks).
 */
static int
grouped_steps(struct ctx *c, struct step_job *steps, size_t n)
{
	struct job *jobs = calloc(n + 1, sizeof *jobs);
	int *token = calloc(n + 1, sizeof *token), rc = 0, k, s, started = 0;
	char *staged = calloc(n + 1, 1), *begun = calloc(n + 1, 1);
	struct diag first = { 0, "" };
	const struct plan_job *pj;
	size_t i, from, to, open;

	if (jobs == NULL || token == NULL || staged == NULL || begun == NULL) {
		free(jobs), free(token), free(staged), free(begun);
		return diag_errno(c->d, ENOMEM, "steps");
	}
	backend_hosts_batch(c->b);
	for (s = STEP_SHRINK; s < STEP_N && rc == 0; s++)
		for (i = 0; i < n && rc == 0; i++) {
			if ((int)steps[i].step != s)
				continue;
			pj = steps[i].pj;
			k = s == STEP_START ? start_prepare(c, pj, &jobs[i]) :
			    resize_prepare(c, &steps[i], &jobs[i]);
			if (k != 0) {
				if (k < 0 && step_failed(c, &steps[i]) < 0)
					rc = -1;
				continue;
			}
			if (s == STEP_START) {
				fault_point("apply-before-start");
				apply_forget(c, pj->name);
			}
			staged[i] = 1;
			if ((s == STEP_START ? backend_write_hosts(c->b,
			    pj->name, &pj->host_set, jobs[i].slots_per_node,
			    c->d) : c->b->ops->resize(c->b, &jobs[i],
			    &pj->host_set, c->d)) < 0)
				rc = -1;	/* a write that failed: fatal */
		}
	if (rc < 0)
		first = *c->d;
	if (backend_hosts_publish(c->b, c->d) < 0 && rc == 0) {
		rc = -1;
		first = *c->d;
	}
	for (i = 0; i < n; i++) {
		if (!staged[i] || steps[i].step == STEP_START)
			continue;
		c->state_due = 1;
		if (obtained(c, steps[i].pj->name) < 0 && rc == 0) {
			rc = -1;
			first = *c->d;
		}
	}
	/* At most STARTS_OPEN_MAX begun at once: each holds a pipe. */
	for (from = 0; from < n; from = to) {
		for (to = from, open = 0; to < n && open < STARTS_OPEN_MAX;
		    to++) {
			if (!staged[to] || steps[to].step != STEP_START)
				continue;
			pj = steps[to].pj;
			if (rc < 0)	/* never begun: not in the state */
				state_remove(&c->st, pj->name);
			else if (c->b->ops->start_begin(c->b, &jobs[to],
			    &pj->host_set, &token[to], c->d) == 0) {
				begun[to] = 1, open++;
				state_remove(&c->st, pj->name);
			} else if (start_done(c, pj, -1) < 0 &&
			    step_failed(c, &steps[to]) < 0) {
				rc = -1;
				first = *c->d;
			}
		}
		started += starts_end(c, steps, from, to, jobs, token, staged,
		    begun, &rc, &first);
	}
	c->state_due |= started > 0;	/* one state: enact() writes it */
	if (rc < 0)
		*c->d = first;
	free(jobs), free(token), free(staged), free(begun);
	return rc;
}

/*
 * The stops of a plan: each job stopped (two or more had their notices
 * together, notify_stops()), then those whose runs ended recorded
 * together and taken out of the state (apply_retire_stopped(): the
 * records as one group; the state is the plan's one write, after its
 * other steps, and the runs move after it).  A stop that failed is
 * skipped (65) or, fatal, ends the steps.
 */
static int
stops(struct ctx *c, struct step_job *steps, size_t n)
{
	struct backend_status *bs = calloc(n + 1, sizeof *bs);
	const char **names = calloc(n + 1, sizeof *names);
	struct diag first = { 0, "" };
	const char *name;
	size_t i, k = 0;
	int rc = 0;

	if (bs == NULL || names == NULL) {
		free(bs), free(names);
		return diag_errno(c->d, ENOMEM, "stops");
	}
	for (i = 0; i < n && rc == 0; i++) {
		if (steps[i].step != STEP_STOP)
			continue;
		name = steps[i].pj->name;
		if (apply_stop_one(c, name, "plan", &bs[k]) < 0) {
			if (step_failed(c, &steps[i]) < 0)
				rc = -1;
			continue;
		}
		if (bs[k].phase != BACKEND_RUNNING)
			names[k++] = name;
	}
	if (rc < 0)
		first = *c->d;
	if (k > 0 && apply_retire_stopped(c, names, bs, k) < 0 && rc == 0) {
		rc = -1;
		first = *c->d;
	}
	if (rc < 0)
		*c->d = first;
	free(bs), free(names);
	return rc;
}

/*
 * The plan's steps in order: stops, shrinks, grows, starts.  The state
 * is written once, after them (or, when a step fails, before enact()
 * returns), without the jobs stopped and with the resizes and starts;
 * then the stopped jobs' runs move to history/runs/ (bf-spool(5)).
 */
static int
enact(struct ctx *c, struct step_job *steps, size_t n)
{
	struct diag first;
	size_t i;
	int s, rc = 0;

	notify_stops(c, steps, n);
	for (s = 0; s < STEP_N && rc == 0; s++) {
		if (s == STEP_SHRINK)
			c->b->stop_since = 0;
		if (s == STEP_STOP && !c->o->dry_run) {
			rc = stops(c, steps, n);
			continue;
		}
		if (s == STEP_SHRINK && !c->o->dry_run &&
		    c->b->ops->start_begin != NULL) {
			rc = grouped_steps(c, steps, n);
			break;
		}
		for (i = 0; i < n && rc == 0; i++)
			if ((int)steps[i].step == s &&
			    run_step(c, &steps[i]) < 0 &&
			    step_failed(c, &steps[i]) < 0)
				rc = -1;
	}
	first = *c->d;
	if (c->state_due && apply_write_state(c) < 0 && rc == 0) {
		rc = -1;
		first = *c->d;
	}
	if (apply_retire_moves(c) < 0 && rc == 0) {
		rc = -1;
		first = *c->d;
	}
	if (rc < 0)
		*c->d = first;
	return rc;
}

/*
 * Nodes not obtained are asked for again apply_unobtained_secs() later
 * even from the same holes file: the record is dropped after this run's
 * plan (made from the state with it), so that the next bf-solve (bf-watch's
 * next pass: the state changed) plans them again.
 */
static int
expire_unobtained(struct ctx *c)
{
	if (!state_unobtained_expire(&c->st, c->o->now,
	    apply_unobtained_secs()))
		return 0;
	return apply_write_state(c);
}

double
apply_unobtained_secs(void)
{
	return env_seconds("BF_UNOBTAINED_SECS", STATE_UNOBTAINED_SECS, 1e9, 1);
}

/*
 * The nodes a start or grow of this plan could not obtain stay out of it
 * (state.yaml unobtained, while the holes file is the plan's): trying them
 * again would fail again and change the state again, so that the plan
 * would be enacted forever.  A job keeps the nodes it holds.
 */
static int
filter_unobtained(struct ctx *c)
{
	const struct state_job *cur;
	struct plan_job *pj;
	struct hostlist keep;
	size_t i, h;

	if (c->st.unobtained.n == 0 ||
	    strcmp(c->st.unobtained_holes, c->plan.holes) != 0)
		return 0;
	for (i = 0; i < c->plan.njobs; i++) {
		pj = &c->plan.jobs[i];
		cur = state_find(&c->st, pj->name);
		hostlist_init(&keep);
		for (h = 0; h < pj->host_set.n; h++) {
			const char *node = pj->host_set.names[h];
			if (state_is_unobtained(&c->st, c->plan.holes, node) &&
			    (cur == NULL || !hostlist_contains(&cur->hosts,
			    node)))
				continue;
			if (hostlist_add(&keep, node) < 0) {
				hostlist_free(&keep);
				return diag_errno(c->d, ENOMEM, "plan");
			}
		}
		if (keep.n == pj->host_set.n) {
			hostlist_free(&keep);
			continue;
		}
		free(pj->hosts);
		pj->hosts = keep.n > 0 ? hostlist_compress(&keep) : NULL;
		if (keep.n > 0 && pj->hosts == NULL) {
			hostlist_free(&keep);
			return diag_errno(c->d, ENOMEM, "plan");
		}
		hostlist_free(&pj->host_set);
		pj->host_set = keep;
		pj->nodes = (long)keep.n;
	}
	return 0;
}

/*
 * The caller's inputs when nothing was written since it read them (a
 * reconcile or a cancel writes state.yaml or removes a job file), else
 * the spool's now.
 */
static const struct inputs *
inputs_now(struct ctx *c, struct inputs *mine)
{
	if (c->o->inputs != NULL && !c->changed)
		return c->o->inputs;
	if (inputs_read(mine, c->sp, 0, c->d) < 0)
		return NULL;
	return mine;
}

static int
plan_part(struct ctx *c, const char *buf, size_t len)
{
	struct inputs mine = { .njobs = 0 };
	const struct inputs *in;
	struct step_job *steps;
	const char *changed;
	size_t n = 0;
	int enacted, rc = 0;

	if ((in = inputs_now(c, &mine)) == NULL)
		return -1;
	if (filter_unobtained(c) < 0) {
		inputs_free(&mine);
		return -1;
	}
	changed = inputs_stale(in, &c->plan);
	enacted = history_enacted(c->sp, buf, len, c->plan.time);
	if ((steps = calloc(c->plan.njobs + 1, sizeof *steps)) == NULL ||
	    diff(c, steps, &n) < 0)
		rc = steps ? -1 : diag_errno(c->d, ENOMEM, "actions");
	else if (n > 0 && changed != NULL && !enacted) {
		c->r->stale = changed;
		rc = diag_set(c->d, EX_TEMPFAIL, "the plan is stale: %s "
		    "changed since it was made (run bf-solve)", changed);
	} else if (n > 0 && changed == NULL && !enacted && !c->o->dry_run) {
		rc = history_enact(c->sp, in, c->o->jobs, buf, len,
		    &c->plan, c->d);
		c->r->enacted = rc == 0;
		fault_point("apply-after-history");
	}
	inputs_free(&mine);
	if (rc == 0)
		rc = enact(c, steps, n);
	free(steps);
	return rc;
}

int
apply_run(struct spool *sp, struct backend *b, const char *label,
    const char *buf, size_t len, const struct apply_opts *o,
    struct apply_result *r, struct diag *d)
{
	struct ctx c = { .sp = sp, .b = b, .o = o, .r = r, .d = d };
	size_t i;
	int rc;

	memset(r, 0, sizeof *r);
	if (spool_dirfd(sp, SPOOL_RUN, d) < 0 ||
	    spool_dirfd(sp, SPOOL_JOBS, d) < 0 ||
	    spool_dirfd(sp, SPOOL_TMP, d) < 0)
		return -1;
	if (buf != NULL && o->plan != NULL) {
		c.plan = *o->plan;	/* taken over */
		plan_init(o->plan);
	} else if (buf != NULL && plan_parse(&c.plan, label, buf, len, d) < 0)
		return -1;
	if ((rc = load_state(&c)) == 0)
		rc = reconcile(&c);
	/* The plan first: the answer to a holes change waits for nothing. */
	if (rc == 0 && buf != NULL)
		rc = plan_part(&c, buf, len);
	/* After the plan, which was made from the state with the record. */
	if (rc == 0)
		rc = expire_unobtained(&c);
	b->stop_since = 0;
	if (rc == 0)
		rc = apply_process_cancels(&c);
	if (rc == 0)
		rc = apply_check_done(&c);
	if (rc == 0)
		rc = apply_retire_ended(&c);
	for (i = 0, r->nodes = 0; i < c.st.n; i++)
		r->nodes += (long)c.st.jobs[i].hosts.n;
	r->jobs = (long)c.st.n;
	state_free(&c.st);
	plan_free(&c.plan);
	free(c.seen);
	return rc;
}
