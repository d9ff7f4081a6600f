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
#include "util/fault.h"
#include "util/file.h"

#include "apply.h"
#include "cancel.h"
#include "history.h"
#include "plan.h"
#include "progress.h"
#include "state.h"

struct seen {
	char name[JOB_NAME_MAX + 1];
	struct backend_status bs;
};

struct ctx {
	size_t nseen;
	struct seen *seen;	/* statuses asked for, until acted upon */
	struct spool *sp;
	struct backend *b;
	const struct apply_opts *o;
	struct apply_result *r;
	struct state st;
	struct plan plan;
	struct diag *d;
	int changed;		/* state.yaml or jobs/ written by this run */
};

/* A job's status, asked of the backend once per run unless it changed. */
static int
status(struct ctx *c, const char *name, struct backend_status *bs)
{
	struct seen *grown;
	size_t i;

	for (i = 0; i < c->nseen; i++)
		if (strcmp(c->seen[i].name, name) == 0) {
			*bs = c->seen[i].bs;
			return 0;
		}
	if (c->b->ops->status(c->b, name, bs, c->d) < 0)
		return -1;
	if ((grown = realloc(c->seen, (c->nseen + 1) * sizeof *grown)) ==
	    NULL)
		return 0;	/* not kept, still right */
	c->seen = grown;
	snprintf(c->seen[c->nseen].name, sizeof c->seen[0].name, "%s", name);
	c->seen[c->nseen++].bs = *bs;
	return 0;
}

/* The job was acted on: ask the backend again next time. */
static void
forget(struct ctx *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nseen; i++)
		if (strcmp(c->seen[i].name, name) == 0) {
			c->seen[i] = c->seen[--c->nseen];
			return;
		}
}

static int
act(struct ctx *c, const char *kind, const char *name, long was, long nodes,
    const char *hosts, const char *note)
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
write_state(struct ctx *c)
{
	size_t len, i;
	char *text, *pilots;
	int tmpfd, rc;

	if (c->o->dry_run)
		return 0;
	c->st.time = c->o->now;
	/* The pilot jobs that hold each job's nodes (--backend slurm). */
	for (i = 0; i < c->st.n; i++) {
		pilots = backend_pilots(c->b, c->st.jobs[i].name);
		state_set_pilots(&c->st, c->st.jobs[i].name, pilots);
		free(pilots);
	}
	if ((tmpfd = spool_dirfd(c->sp, SPOOL_TMP, c->d)) < 0)
		return -1;
	if ((text = state_format(&c->st, &len)) == NULL)
		return diag_errno(c->d, ENOMEM, "state");
	fault_point("apply-before-state");
	c->changed = 1;
	rc = file_write_atomic(tmpfd, c->sp->fd, "state.yaml", text, len,
	    0644, 0, c->d);
	free(text);
	if (rc < 0)
		return diag_prefix(c->d, "%s/state.yaml: ", c->sp->path);
	fault_point("apply-after-state");
	return 0;
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

static long
held(const struct ctx *c, const char *name)
{
	const struct state_job *sj = state_find(&c->st, name);

	return sj ? (long)sj->hosts.n : 0;
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

static char *
compress(const struct hostlist *hl)
{
	return hostlist_compress(hl);
}

/* run/NAME/hosts back into a hostlist: "host:slots" lines. */
static int
run_hosts(struct ctx *c, const char *name, struct hostlist *hl)
{
	char file[JOB_NAME_MAX + 16];

	snprintf(file, sizeof file, "%s/hosts", name);
	return backend_read_hosts(c->sp->dirs[SPOOL_RUN], file, hl, c->d);
}

/* A job running in run/ is in the state with the hosts it was given. */
static int
adopt(struct ctx *c, const char *name)
{
	const struct state_job *sj = state_find(&c->st, name);
	struct hostlist hl;
	char *text;
	int rc = 0;

	if (run_hosts(c, name, &hl) < 0) {
		diag_clear(c->d);
		return 0;
	}
	if (sj == NULL || !hostlist_equal(&sj->hosts, &hl)) {
		long was = held(c, name);
		if ((text = compress(&hl)) == NULL)
			rc = diag_errno(c->d, ENOMEM, "adopt");
		else if (set_hosts(c, name, text) < 0 ||
		    act(c, "adopt", name, was, (long)hl.n, text, NULL) < 0 ||
		    write_state(c) < 0)
			rc = -1;
		free(text);
	}
	hostlist_free(&hl);
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
	struct hostlist hl, missing;
	char *text;
	size_t i;
	int rc = 0;

	if (sj == NULL || run_hosts(c, name, &hl) < 0) {
		diag_clear(c->d);
		return 0;
	}
	/* What it was to get and did not: not again from these holes. */
	hostlist_init(&missing);
	for (i = 0; i < sj->hosts.n && rc == 0; i++)
		if (!hostlist_contains(&hl, sj->hosts.names[i]) &&
		    hostlist_add(&missing, sj->hosts.names[i]) < 0)
			rc = diag_errno(c->d, ENOMEM, "hosts");
	if (rc == 0 && missing.n > 0 && state_unobtained(&c->st,
	    c->plan.holes, &missing) < 0)
		rc = diag_errno(c->d, ENOMEM, "hosts");
	hostlist_free(&missing);
	if (rc == 0 && !hostlist_equal(&sj->hosts, &hl)) {
		if ((text = compress(&hl)) == NULL)
			rc = diag_errno(c->d, ENOMEM, "hosts");
		else
			rc = set_hosts(c, name, text);
		free(text);
	}
	hostlist_free(&hl);
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
		    status(c, names[i], &bs) < 0)
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
		if (status(c, name, &bs) < 0)
			return -1;
		if (bs.phase != BACKEND_NONE)
			continue;
		if (act(c, "lost", name, (long)c->st.jobs[i].hosts.n, 0, NULL,
		    "never started") < 0)
			return -1;
		state_remove(&c->st, name);
		if (write_state(c) < 0)
			return -1;
	}
	return 0;
}

static int
load_job(struct ctx *c, const char *name, struct job *j, char **buf,
    size_t *len)
{
	char file[JOB_NAME_MAX + 8], label[JOB_NAME_MAX + 16];
	int fd = spool_dirfd(c->sp, SPOOL_JOBS, c->d);

	if (fd < 0)
		return -1;
	snprintf(file, sizeof file, "%s.yaml", name);
	snprintf(label, sizeof label, "jobs/%s.yaml", name);
	if (buf != NULL) {
		*buf = NULL;
		if (file_read_named(fd, file, label, FILE_MAX_JOB,
		    FILE_NOFOLLOW, buf, len, c->d) < 0)
			return -1;
	}
	return job_load_at(j, fd, file, label, JOB_TRUSTED | JOB_QUIET, c->d);
}

enum step { STEP_STOP, STEP_SHRINK, STEP_GROW, STEP_START, STEP_N };

struct step_job {
	const struct plan_job *pj;
	enum step step;
	const char *kind;
};

/*
 * jobs/NAME.yaml is there, of whatever type (it is not opened here), or
 * cannot be known to be gone: only ENOENT says a job is gone.
 */
static int
has_job_file(struct ctx *c, const char *name)
{
	char file[JOB_NAME_MAX + 8];

	snprintf(file, sizeof file, "%s.yaml", name);
	return faccessat(c->sp->dirs[SPOOL_JOBS], file, F_OK,
	    AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT;
}

static int
classify(struct ctx *c, const struct plan_job *pj, struct step_job *sj)
{
	const struct state_job *cur = state_find(&c->st, pj->name);
	struct backend_status bs;
	int same;

	sj->pj = pj;
	if (cur == NULL && pj->nodes == 0)
		return 0;
	if (status(c, pj->name, &bs) < 0)
		return -1;
	/* Ended since: retired below, not acted on. */
	if (bs.phase == BACKEND_EXITED || bs.phase == BACKEND_LOST)
		return 0;
	if (cur == NULL) {
		if (!has_job_file(c, pj->name))
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

static int
retire(struct ctx *c, const char *name, const struct backend_status *bs);

static int
do_stop(struct ctx *c, const char *name, const char *why)
{
	struct backend_status bs;
	long was = held(c, name);

	if (act(c, "stop", name, was, 0, NULL, why) < 0)
		return -1;
	if (c->o->dry_run)
		return 0;
	forget(c, name);
	if (c->b->ops->stop(c->b, name, why, c->d) < 0 ||
	    status(c, name, &bs) < 0)
		return -1;
	fault_point("apply-after-stop");
	return bs.phase == BACKEND_RUNNING ? 0 : retire(c, name, &bs);
}

static int
do_start(struct ctx *c, const struct plan_job *pj)
{
	struct job j;
	int rc;

	if (load_job(c, pj->name, &j, NULL, NULL) < 0)
		return -1;
	if (backend_may_run(&j, c->b->allow_root, c->d) < 0) {
		c->r->refused++;
		rc = act(c, "refused", pj->name, 0, 0, NULL, c->d->text);
		diag_clear(c->d);
		job_free(&j);
		return rc;
	}
	if (set_hosts(c, pj->name, pj->hosts ? pj->hosts : "") < 0 ||
	    act(c, "start", pj->name, 0, pj->nodes, pj->hosts, NULL) < 0) {
		job_free(&j);
		return -1;
	}
	rc = 0;
	if (!c->o->dry_run) {
		fault_point("apply-before-start");
		forget(c, pj->name);
		rc = c->b->ops->start(c->b, &j, &pj->host_set, c->d);
		if (rc < 0) {
			/* The failure stands: skipped (65) or fatal, in enact(). */
			state_remove(&c->st, pj->name);
			/* None obtained: none again from these holes. */
			if (c->d->code == EX_DATAERR && state_unobtained(&c->st,
			    c->plan.holes, &pj->host_set) == 0 &&
			    write_state(c) < 0) {
				job_free(&j);
				return -1;
			}
		} else if ((rc = obtained(c, pj->name)) == 0)
			rc = write_state(c);
	}
	job_free(&j);
	return rc;
}

static int
do_resize(struct ctx *c, const struct step_job *s)
{
	const struct plan_job *pj = s->pj;
	struct job j;
	long was = held(c, pj->name);
	int rc;

	if (set_hosts(c, pj->name, pj->hosts ? pj->hosts : "") < 0 ||
	    act(c, s->kind, pj->name, was, pj->nodes, pj->hosts, NULL) < 0)
		return -1;
	if (c->o->dry_run)
		return 0;
	/* The job file gives the slots and owner; without it, one slot. */
	if (load_job(c, pj->name, &j, NULL, NULL) < 0) {
		diag_clear(c->d);
		memset(&j, 0, sizeof j);
		j.slots_per_node = 1;
		j.owner_uid = -1;
		snprintf(j.name, sizeof j.name, "%s", pj->name);
	}
	fault_point("apply-before-resize");
	rc = c->b->ops->resize(c->b, &j, &pj->host_set, c->d);
	job_free(&j);
	return rc < 0 || obtained(c, pj->name) < 0 ? -1 : write_state(c);
}

static int
run_step(struct ctx *c, const struct step_job *s)
{
	switch (s->step) {
	case STEP_STOP:
		return do_stop(c, s->pj->name, "plan");
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
	c->b->stop_since = backend_clock();
	for (i = 0; i < n; i++)
		if (steps[i].step == STEP_STOP &&
		    backend_stop_begin(c->b, steps[i].pj->name, "plan",
		    c->d) < 0)
			diag_clear(c->d);
}

static int
enact(struct ctx *c, struct step_job *steps, size_t n)
{
	size_t i;
	int s;

	notify_stops(c, steps, n);
	for (s = 0; s < STEP_N; s++) {
		if (s == STEP_SHRINK)
			c->b->stop_since = 0;
		for (i = 0; i < n; i++) {
			if ((int)steps[i].step != s)
				continue;
			/* A stale plan may hand out a node still held. */
			if (run_step(c, &steps[i]) < 0) {
				if (c->d->code != EX_DATAERR)
					return -1;
				if (act(c, "skipped", steps[i].pj->name,
				    held(c, steps[i].pj->name),
				    steps[i].pj->nodes, NULL, c->d->text) < 0)
					return -1;
				diag_clear(c->d);
			}
		}
	}
	return 0;
}

/* Lost: no exit record, because its supervisor vanished or never ran. */
static int
lost(const struct backend_status *bs)
{
	return bs->phase == BACKEND_LOST || bs->phase == BACKEND_NONE;
}

static const char *
outcome(const struct backend_status *bs)
{
	if (lost(bs))
		return "lost";
	if (strcmp(bs->stopping, "cancel") == 0)
		return "cancelled";
	if (strcmp(bs->stopping, "done") == 0)
		return "finished";
	if (strcmp(bs->stopping, "plan") == 0)
		return "preempted";
	return bs->signal == 0 && bs->code == 0 ? "finished" : "failed";
}

/*
 * A lost run has no exit record: it ended when it was found lost.  Found
 * again after a crash between its record and the move of its run/ (so
 * in a later second, maybe), it ends when its record says, so that one
 * run has one record, named ENDED-NAME-ID, beside its directory.
 */
static long long
lost_ended(struct ctx *c, const char *name, long long id)
{
	char suffix[JOB_NAME_MAX + 32];
	long long ended = c->o->now;
	struct dirent *e;
	struct diag ignored;
	size_t sl, l, digits;
	DIR *dp;
	int fd;

	if (c->o->dry_run ||
	    (fd = history_subdir(c->sp, "runs", &ignored)) < 0)
		return ended;
	if ((dp = fdopendir(fd)) == NULL) {
		close(fd);
		return ended;
	}
	sl = (size_t)snprintf(suffix, sizeof suffix, "-%s-%lld.yaml", name,
	    id);
	while ((e = readdir(dp)) != NULL) {
		l = strlen(e->d_name);
		digits = strspn(e->d_name, "0123456789");
		if (l > sl && digits > 0 && digits == l - sl &&
		    strcmp(e->d_name + digits, suffix) == 0) {
			ended = strtoll(e->d_name, NULL, 10);
			break;
		}
	}
	closedir(dp);
	return ended;
}

/*
 * progress/NAME.log and profiles/NAME.yaml into run/NAME/ (progress.log,
 * profile.yaml), which then moves to history/runs/.  A run that never
 * made a directory has no log either.
 */
static void
keep_with_run(struct ctx *c, const char *name)
{
	char log[JOB_NAME_MAX + 8], prof[JOB_NAME_MAX + 8];
	int rfd = backend_open_run(c->b, name);

	if (rfd < 0)
		return;
	snprintf(log, sizeof log, "%s.log", name);
	snprintf(prof, sizeof prof, "%s.yaml", name);
	if (spool_dirfd(c->sp, SPOOL_PROGRESS, c->d) >= 0 &&
	    renameat(c->sp->dirs[SPOOL_PROGRESS], log, rfd, "progress.log") == 0)
		fsync(c->sp->dirs[SPOOL_PROGRESS]);
	if (spool_dirfd(c->sp, SPOOL_PROFILES, c->d) >= 0 &&
	    renameat(c->sp->dirs[SPOOL_PROFILES], prof, rfd, "profile.yaml") == 0)
		fsync(c->sp->dirs[SPOOL_PROFILES]);
	diag_clear(c->d);
	fsync(rfd);
	close(rfd);
}

static int
retire(struct ctx *c, const char *name, const struct backend_status *bs)
{
	const struct state_job *sj = state_find(&c->st, name);
	struct history_run hr = { .name = name, .code = bs->code,
	    .signal = bs->signal, .started = bs->started };
	char stem[JOB_NAME_MAX + 64], note[64], file[JOB_NAME_MAX + 8];
	char *hosts = sj ? compress(&sj->hosts) : NULL, *buf = NULL;
	long was = held(c, name);
	struct job j;
	size_t len;
	int rc = 0, ended;

	hr.outcome = outcome(bs);
	hr.cancelled_by = bs->cancelled_by;
	hr.ended = lost(bs) ? lost_ended(c, name, bs->id) : bs->ended;
	hr.hosts = hosts;
	hr.nodes = was;
	if (bs->phase == BACKEND_NONE)
		snprintf(note, sizeof note, "never started");
	else if (bs->signal)
		snprintf(note, sizeof note, "signal %d", bs->signal);
	else if (bs->code >= 0)
		snprintf(note, sizeof note, "exit %d", bs->code);
	else
		snprintf(note, sizeof note, "exit unknown");
	if (act(c, hr.outcome, name, was, 0, NULL, note) < 0 ||
	    c->o->dry_run) {
		free(hosts);
		return c->o->dry_run ? 0 : -1;
	}
	if (load_job(c, name, &j, &buf, &len) == 0) {
		hr.job_buf = buf;
		hr.job_len = len;
		job_free(&j);
	}
	diag_clear(c->d);
	/* The same job may end twice in one second: the run's id tells. */
	snprintf(stem, sizeof stem, "%lld-%s-%lld", hr.ended, name, bs->id);
	hr.stem = stem;
	snprintf(file, sizeof file, "%s.yaml", name);
	if (history_record_run(c->sp, &hr, c->d) < 0)
		rc = -1;
	fault_point("apply-after-record");
	if (rc == 0 && state_remove(&c->st, name) == 0)
		rc = write_state(c);
	/* A job that ran to its end goes; one stopped or lost may run again. */
	ended = rc == 0 && (strcmp(hr.outcome, "finished") == 0 ||
	    strcmp(hr.outcome, "failed") == 0 ||
	    strcmp(hr.outcome, "cancelled") == 0);
	c->changed |= ended;
	if (ended && unlinkat(c->sp->dirs[SPOOL_JOBS], file, 0) == 0)
		fsync(c->sp->dirs[SPOOL_JOBS]);
	/* Its log and profile go with the run: a new job of the name starts
	 * afresh, and nobody else can write into or read its measurements. */
	if (ended)
		keep_with_run(c, name);
	fault_point("apply-before-retire");
	forget(c, name);
	if (rc == 0)
		rc = c->b->ops->retire(c->b, name, stem, c->d);
	free(buf);
	free(hosts);
	return rc;
}

/*
 * The samples of the last report in progress/NAME.log (progress_last():
 * the rules of every reader of the log); -1 when there is none.  Only the
 * tail is read: a report is one short line.
 */
static long long
progress_samples(struct ctx *c, const char *name)
{
	struct progress_report last;

	if (progress_last_at(c->sp->dirs[SPOOL_PROGRESS], name, &last) < 0)
		return -1;
	return last.samples;
}

/*
 * Only a job still running is stopped: one that ended already is in the
 * state only until it is retired below, and a stop now would rewrite why
 * it ended (a crash between its run record and the state write leaves
 * it there: its record says preempted, and a stop "done" would then
 * remove its job file as finished).
 */
static int
check_done(struct ctx *c)
{
	char name[JOB_NAME_MAX + 1];
	struct backend_status bs;
	struct job j;
	long long done, want;
	size_t i;

	for (i = c->st.n; i-- > 0;) {
		if (i >= c->st.n)
			continue;
		snprintf(name, sizeof name, "%s", c->st.jobs[i].name);
		if (status(c, name, &bs) < 0)
			return -1;
		if (bs.phase != BACKEND_RUNNING)
			continue;
		if (load_job(c, name, &j, NULL, NULL) < 0) {
			diag_clear(c->d);
			continue;
		}
		want = j.samples;
		job_free(&j);
		if (want <= 0 || (done = progress_samples(c, name)) < want)
			continue;
		if (do_stop(c, name, "done") < 0)
			return -1;
	}
	return 0;
}

/* A waiting job cancelled: its job file goes, its record says so. */
static int
cancel_waiting(struct ctx *c, const char *name, uid_t by)
{
	struct history_run hr = { .name = name, .outcome = "cancelled",
	    .code = -1, .cancelled_by = (long long)by };
	char stem[JOB_NAME_MAX + 64], file[JOB_NAME_MAX + 8];
	struct job j;
	char *buf = NULL;
	size_t len;
	int rc;

	if (load_job(c, name, &j, &buf, &len) == 0) {
		hr.job_buf = buf;
		hr.job_len = len;
		job_free(&j);
	}
	diag_clear(c->d);
	hr.ended = c->o->now;
	snprintf(stem, sizeof stem, "%lld-%s-0", hr.ended, name);
	hr.stem = stem;
	snprintf(file, sizeof file, "%s.yaml", name);
	c->changed = 1;
	if ((rc = history_record_run(c->sp, &hr, c->d)) == 0 &&
	    unlinkat(c->sp->dirs[SPOOL_JOBS], file, 0) == 0)
		fsync(c->sp->dirs[SPOOL_JOBS]);
	if (rc == 0) {
		keep_with_run(c, name);
		rc = act(c, "cancelled", name, 0, 0, NULL, "");
	}
	free(buf);
	return rc;
}

/*
 * The requests in cancel/ (bf-cancel(1)): the job's owner or root may
 * cancel it.  A running job is stopped as a plan stops one (notice, then
 * the grace), its record saying cancelled and by whom; a waiting one only
 * loses its job file.  Each request is answered, then removed.
 */
static int
process_cancels(struct ctx *c)
{
	struct cancel_req *reqs;
	struct backend_status bs;
	char text[256], why[32];
	size_t n, i;
	struct job j;
	int code, rc = 0;

	if (c->o->dry_run || cancel_list(c->sp, &reqs, &n, c->d) < 0)
		return c->o->dry_run ? 0 : -1;
	for (i = 0; i < n && rc == 0; i++) {
		const struct cancel_req *r = &reqs[i];
		if (load_job(c, r->name, &j, NULL, NULL) < 0) {
			if (c->d->code != EX_NOINPUT && c->d->code != EX_DATAERR)
				break;	/* cannot tell now: asked again later */
			diag_clear(c->d);
			code = CANCEL_NO_JOB;
			snprintf(text, sizeof text, "no job %s in jobs/",
			    r->name);
		} else if (r->uid != 0 && (long long)r->uid != j.owner_uid) {
			code = CANCEL_REFUSED;
			snprintf(text, sizeof text, "job %s is uid %lld's, not "
			    "uid %ld's: not cancelled", r->name, j.owner_uid,
			    (long)r->uid);
			job_free(&j);
		} else {
			job_free(&j);
			code = CANCEL_DONE;
			snprintf(text, sizeof text, "job %s cancelled", r->name);
			snprintf(why, sizeof why, "cancel:%ld", (long)r->uid);
			if ((rc = status(c, r->name, &bs)) == 0)
				rc = bs.phase == BACKEND_RUNNING ?
				    do_stop(c, r->name, why) :
				    cancel_waiting(c, r->name, r->uid);
		}
		if (rc == 0)
			rc = cancel_answer(c->sp, r, code, text, c->d);
	}
	cancel_list_free(reqs, n);
	return rc;
}

/*
 * A run/NAME/ of a start that never ran (a crash between its hosts file
 * and its supervisor, a start that failed), whose job is neither in the
 * state nor in jobs/ any more: nothing will start it again, so it goes
 * to history/runs/ like any run, lost, with whatever output it has.
 * With its job file still there it stays: the next start reuses it.
 */
static int
abandoned(struct ctx *c, const char *name, const struct backend_status *bs)
{
	return bs->phase == BACKEND_NONE && state_find(&c->st, name) == NULL &&
	    !has_job_file(c, name);
}

static int
retire_ended(struct ctx *c)
{
	struct backend_status bs;
	char **names;
	size_t n, i;
	int rc = 0;

	if (spool_list(c->sp, SPOOL_RUN, &names, &n, c->d) < 0)
		return -1;
	for (i = 0; i < n && rc == 0; i++) {
		if (!job_name_valid(names[i]))
			continue;
		forget(c, names[i]);	/* a job may have ended meanwhile */
		rc = status(c, names[i], &bs);
		if (rc == 0 && (bs.phase == BACKEND_EXITED ||
		    bs.phase == BACKEND_LOST || abandoned(c, names[i], &bs)))
			rc = retire(c, names[i], &bs);
	}
	spool_list_free(names, n);
	return rc;
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
		rc = history_enact(c->sp, in, buf, len, &c->plan, c->d);
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
	if (rc == 0)
		rc = process_cancels(&c);
	if (rc == 0 && buf != NULL)
		rc = plan_part(&c, buf, len);
	b->stop_since = 0;
	if (rc == 0)
		rc = check_done(&c);
	if (rc == 0)
		rc = retire_ended(&c);
	for (i = 0, r->nodes = 0; i < c.st.n; i++)
		r->nodes += (long)c.st.jobs[i].hosts.n;
	state_free(&c.st);
	plan_free(&c.plan);
	free(c.seen);
	return rc;
}
