/*
 * NAME
 *	simspool - a replay written down as a spool: bf-sim --spool
 * DESCRIPTION
 *	See simspool.h.  The files are made by the spool's own writers
 *	(holes_format(), state_format(), job_format(), plan_format(),
 *	history_enact_at(), history_record_run()), so that what bf-report
 *	reads from a replay is what it reads from bf-apply.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/file.h"
#include "util/hash.h"
#include "util/hostlist.h"

#include "sim/simspool.h"
#include "spool/history.h"
#include "spool/holes.h"
#include "spool/plan.h"
#include "spool/spool.h"
#include "spool/state.h"

struct wjob {
	char *text;		/* the job file, canonical, once admitted */
	size_t len;
	struct hostlist held;	/* after the last decision, sorted */
	FILE *log;		/* its progress log, in memory */
	char *logbuf;
	size_t loglen;
	double started;		/* when it first held nodes; 0 never */
	int recorded;		/* its run record is written */
};

struct simspool {
	struct spool sp;
	struct events *ev;
	char policy[16];
	double tfwd, prev;	/* the decision before: its time */
	size_t njobs;
	struct wjob *jobs;
	struct timespec last;	/* the last enacted time */
	int have_last;
	char *holes;		/* the last holes file */
	size_t holes_len;
};

static char true_command[] = "true";

int
simspool_open(struct simspool **wp, const char *dir, struct events *ev,
    const char *policy, double tfwd, size_t njobs, struct diag *d)
{
	char path[PATH_MAX];
	struct simspool *w;
	struct stat st;

	*wp = NULL;
	if ((size_t)snprintf(path, sizeof path, "%s/history", dir) >=
	    sizeof path)
		return diag_set(d, EX_USAGE, "%s: name too long", dir);
	if (lstat(path, &st) == 0)
		return diag_set(d, EX_CANTCREAT, "%s: has a history already "
		    "(--spool writes a new spool)", dir);
	if ((w = calloc(1, sizeof *w)) == NULL ||
	    (w->jobs = calloc(njobs + 1, sizeof *w->jobs)) == NULL) {
		free(w);
		return diag_errno(d, ENOMEM, "%s", dir);
	}
	if (spool_open(&w->sp, dir, SPOOL_CREATE, d) < 0) {
		free(w->jobs);
		free(w);
		return -1;
	}
	w->ev = ev;
	snprintf(w->policy, sizeof w->policy, "%s", policy);
	w->tfwd = tfwd;
	w->njobs = njobs;
	*wp = w;
	return 0;
}

void
simspool_free(struct simspool *w)
{
	size_t i;

	if (w == NULL)
		return;
	for (i = 0; i < w->njobs; i++) {
		free(w->jobs[i].text);
		hostlist_free(&w->jobs[i].held);
		if (w->jobs[i].log != NULL)
			fclose(w->jobs[i].log);
		free(w->jobs[i].logbuf);
	}
	free(w->jobs);
	free(w->holes);
	spool_close(&w->sp);
	free(w);
}

/* The job file, owned by whoever replays, with a command that does no harm. */
static int
admit(struct simspool *w, size_t i, const struct simspool_job *sj,
    struct diag *d)
{
	struct wjob *wj = &w->jobs[i];
	struct job j = *sj->job;

	if (wj->text != NULL)
		return 0;
	j.command = true_command;
	j.worker = NULL;
	j.owner_uid = (long long)getuid();
	j.submitted = sj->submit > 0 ? (long long)floor(sj->submit) : 0;
	if ((wj->text = job_format(&j, &wj->len)) == NULL ||
	    (wj->log = open_memstream(&wj->logbuf, &wj->loglen)) == NULL)
		return diag_errno(d, ENOMEM, "%s", j.name);
	return 0;
}

static int
report(struct wjob *wj, double t, size_t nodes, double done)
{
	return fprintf(wj->log, "%.6f %zu %.0f\n", t, nodes, done) < 0 ||
	    fflush(wj->log) != 0 ? -1 : 0;
}

/* history/runs/STEM.yaml and STEM/progress.log of a job that finished. */
static int
finished(struct simspool *w, size_t i, const struct simspool_job *sj,
    struct diag *d)
{
	struct wjob *wj = &w->jobs[i];
	char stem[JOB_NAME_MAX + 64], *hosts;
	struct history_run hr;
	int fd, sfd, rc;

	memset(&hr, 0, sizeof hr);
	hr.name = sj->job->name;
	hr.outcome = "finished";
	hr.job_buf = wj->text;
	hr.job_len = wj->len;
	hr.started = (long long)floor(wj->started);
	hr.ended = (long long)floor(sj->finish);	/* as a real one's */
	hr.nodes = (long)wj->held.n;
	if ((hosts = hostlist_compress(&wj->held)) == NULL)
		return diag_errno(d, ENOMEM, "%s", hr.name);
	hr.hosts = hosts;
	snprintf(stem, sizeof stem, "%lld-%s-0", hr.ended, hr.name);
	hr.stem = stem;
	rc = history_record_run(&w->sp, &hr, d);
	free(hosts);
	wj->recorded = 1;
	if (rc < 0 || (fd = history_subdir(&w->sp, "runs", d)) < 0)
		return -1;
	if (mkdirat(fd, stem, 0755) < 0 && errno != EEXIST) {
		close(fd);
		return diag_errno(d, errno, "unable to create %s/history/runs/"
		    "%s", w->sp.path, stem);
	}
	sfd = openat(fd, stem, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	close(fd);
	if (sfd < 0)
		return diag_errno(d, errno, "unable to open %s/history/runs/%s",
		    w->sp.path, stem);
	rc = file_write_atomic(w->sp.dirs[SPOOL_TMP], sfd, "progress.log",
	    wj->logbuf, wj->loglen, 0600, FILE_NOREPLACE, d);
	close(sfd);
	return rc;
}

static struct timespec
enacted_at(struct simspool *w, double t)
{
	struct timespec ts;
	double s = floor(t);

	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)llround((t - s) * 1e6) * 1000;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	/* Plans are ordered by when: two decisions at one moment, in turn. */
	if (w->have_last && (ts.tv_sec < w->last.tv_sec ||
	    (ts.tv_sec == w->last.tv_sec && ts.tv_nsec <= w->last.tv_nsec))) {
		ts = w->last;
		if ((ts.tv_nsec += 1000) >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
	}
	w->last = ts;
	w->have_last = 1;
	return ts;
}

static const struct simspool_job *sort_jobs;

static int
by_name(const void *a, const void *b)
{
	return strcmp(sort_jobs[*(const size_t *)a].job->name,
	    sort_jobs[*(const size_t *)b].job->name);
}

/* The files a plan is made of, and the plan. */
struct sim_decision {
	struct holes h;
	struct state st;
	struct plan p;
	struct hostlist *now;	/* per job: held after this decision */
	struct hostlist spare;	/* idle and held by none */
	size_t *order;		/* running jobs, by name */
	size_t n;
	struct inputs in;
	char *plan;
	size_t plan_len;
};

static void
decision_free(struct sim_decision *x, size_t njobs)
{
	size_t i;

	holes_free(&x->h);
	state_free(&x->st);
	plan_free(&x->p);
	for (i = 0; x->now != NULL && i < njobs; i++)
		hostlist_free(&x->now[i]);
	hostlist_free(&x->spare);
	free(x->now);
	free(x->order);
	free(x->in.holes.buf);
	free(x->in.state.buf);
	free(x->in.jobs);
	free(x->plan);
}

static int
nodes_now(struct simspool *w, struct sim_decision *x, double t,
    const unsigned char *idle, const long *own, size_t nnodes,
    struct diag *d)
{
	size_t i;
	int rc = 0;

	holes_init(&x->h);
	x->h.time = (long long)floor(t);
	snprintf(x->h.source, sizeof x->h.source, "bf-sim");
	for (i = 0; i < nnodes && rc == 0; i++) {
		const char *name = events_name(w->ev, (uint32_t)i);
		if (!idle[i])
			continue;
		rc = holes_add(&x->h, name, 0);
		if (rc == 0)
			rc = hostlist_add(own[i] >= 0 ? &x->now[own[i]] :
			    &x->spare, name);
	}
	if (rc < 0)
		return diag_errno(d, ENOMEM, "replay");
	for (i = 0; i < w->njobs; i++)
		hostlist_sort_uniq(&x->now[i]);
	hostlist_sort_uniq(&x->spare);
	return holes_finish(&x->h, "replay", d);
}

/* The state: what each job held after the decision before. */
static int
state_before(struct simspool *w, struct sim_decision *x,
    const struct simspool_job *jobs, struct diag *d)
{
	size_t i;
	char *hosts;
	int rc = 0;

	state_init(&x->st);
	x->st.time = (long long)floor(w->prev);
	for (i = 0; i < w->njobs && rc == 0; i++) {
		if (w->jobs[i].held.n == 0)
			continue;
		if ((hosts = hostlist_compress(&w->jobs[i].held)) == NULL)
			return diag_errno(d, ENOMEM, "replay");
		rc = state_add(&x->st, jobs[i].job->name, hosts, d);
		free(hosts);
	}
	return rc;
}

static int
plan_of(struct simspool *w, struct sim_decision *x, double t,
    const struct simspool_job *jobs, struct diag *d)
{
	struct plan *p = &x->p;
	char *free_hosts;
	size_t k;

	plan_init(p);
	p->time = (long long)floor(t);
	hash_format(x->in.holes.hash, p->holes);
	hash_format(x->in.state.hash, p->state);
	if (inputs_digest_list(x->in.jobs, x->in.njobs, p->jobs_digest,
	    d) < 0)
		return -1;
	snprintf(p->solver, sizeof p->solver, "%s", w->policy);
	snprintf(p->status, sizeof p->status, "replayed");
	p->tfwd = w->tfwd;
	if ((p->jobs = calloc(x->n + 1, sizeof *p->jobs)) == NULL)
		return diag_errno(d, ENOMEM, "replay");
	for (k = 0; k < x->n; k++) {
		size_t i = x->order[k];
		struct plan_job *pj = &p->jobs[k];
		p->njobs++;
		snprintf(pj->name, sizeof pj->name, "%s", jobs[i].job->name);
		pj->nodes = (long)x->now[i].n;
		pj->was = (long)w->jobs[i].held.n;
		if (pj->nodes > 0 &&
		    (pj->hosts = hostlist_compress(&x->now[i])) == NULL)
			return diag_errno(d, ENOMEM, "replay");
	}
	if ((free_hosts = hostlist_compress(&x->spare)) == NULL)
		return diag_errno(d, ENOMEM, "replay");
	p->free = free_hosts;
	if ((x->plan = plan_format(p, &x->plan_len)) == NULL)
		return diag_errno(d, ENOMEM, "replay");
	return 0;
}

/* The inputs as history_enact_at() stores them. */
static int
history_of(struct simspool *w, struct sim_decision *x,
    const struct simspool_job *jobs, struct diag *d)
{
	size_t i, k;

	if ((x->in.holes.buf = holes_format(&x->h, &x->in.holes.len)) ==
	    NULL || (x->in.state.buf = state_format(&x->st,
	    &x->in.state.len)) == NULL ||
	    (x->order = calloc(w->njobs + 1, sizeof *x->order)) == NULL ||
	    (x->in.jobs = calloc(w->njobs + 1, sizeof *x->in.jobs)) == NULL)
		return diag_errno(d, ENOMEM, "replay");
	x->in.holes.hash = hash_buf(x->in.holes.buf, x->in.holes.len);
	x->in.state.hash = hash_buf(x->in.state.buf, x->in.state.len);
	x->in.have_state = 1;
	for (i = 0; i < w->njobs; i++)
		if (jobs[i].state == SIMSPOOL_RUNNING)
			x->order[x->n++] = i;
	sort_jobs = jobs;
	qsort(x->order, x->n, sizeof *x->order, by_name);
	for (k = 0; k < x->n; k++) {
		struct input_file *f = &x->in.jobs[k];
		struct wjob *wj = &w->jobs[x->order[k]];
		snprintf(f->name, sizeof f->name, "%s",
		    jobs[x->order[k]].job->name);
		f->buf = wj->text;	/* borrowed: not freed with x */
		f->len = wj->len;
		f->hash = hash_buf(wj->text, wj->len);
	}
	x->in.njobs = x->n;
	return 0;
}

int
simspool_decision(struct simspool *w, double t, const unsigned char *idle,
    const long *own, size_t nnodes, const struct simspool_job *jobs,
    size_t njobs, struct diag *d)
{
	struct timespec ts;
	struct sim_decision x;
	size_t i;
	int rc;

	if (njobs != w->njobs)
		return diag_set(d, EX_SOFTWARE, "internal error: %zu jobs, "
		    "not %zu", njobs, w->njobs);
	memset(&x, 0, sizeof x);
	if ((x.now = calloc(njobs + 1, sizeof *x.now)) == NULL)
		return diag_errno(d, ENOMEM, "replay");
	rc = nodes_now(w, &x, t, idle, own, nnodes, d);
	for (i = 0; i < njobs && rc == 0; i++) {
		struct wjob *wj = &w->jobs[i];
		if (jobs[i].state == SIMSPOOL_WAITING || wj->recorded)
			continue;
		if ((rc = admit(w, i, &jobs[i], d)) < 0)
			break;
		if (wj->held.n > 0)
			rc = report(wj, t, wj->held.n, jobs[i].done);
		else if (x.now[i].n > 0)
			rc = report(wj, t, x.now[i].n, jobs[i].done);
		if (rc < 0)
			rc = diag_errno(d, ENOMEM, "replay");
		else if (jobs[i].state == SIMSPOOL_DONE)
			rc = finished(w, i, &jobs[i], d);
		if (x.now[i].n > 0 && wj->started == 0)
			wj->started = t;
	}
	if (rc == 0)
		rc = state_before(w, &x, jobs, d);
	if (rc == 0)
		rc = history_of(w, &x, jobs, d);
	if (rc == 0)
		rc = plan_of(w, &x, t, jobs, d);
	if (rc == 0) {
		ts = enacted_at(w, t);
		rc = history_enact_at(&w->sp, &x.in, NULL, x.plan,
		    x.plan_len, &x.p, &ts, d);
	}
	for (i = 0; i < njobs && rc == 0; i++) {	/* now the nodes move */
		hostlist_free(&w->jobs[i].held);
		w->jobs[i].held = x.now[i];
		hostlist_init(&x.now[i]);
	}
	if (rc == 0) {
		free(w->holes);
		w->holes = x.in.holes.buf;
		w->holes_len = x.in.holes.len;
		x.in.holes.buf = NULL;
		w->prev = t;
	}
	decision_free(&x, njobs);
	return rc;
}

/* The end: last reports, and the jobs left as a live spool has them. */
int
simspool_close(struct simspool *w, double end,
    const struct simspool_job *jobs, size_t njobs, struct diag *d)
{
	char file[JOB_NAME_MAX + 8], *buf;
	struct state st;
	size_t i, len;
	int rc = 0;

	state_init(&st);
	st.time = (long long)floor(end);
	for (i = 0; i < njobs && i < w->njobs && rc == 0; i++) {
		struct wjob *wj = &w->jobs[i];
		if (jobs[i].state != SIMSPOOL_RUNNING || wj->text == NULL)
			continue;
		if (wj->held.n > 0 && end > w->prev &&
		    report(wj, end, wj->held.n, jobs[i].done) < 0)
			rc = diag_errno(d, ENOMEM, "replay");
		snprintf(file, sizeof file, "%s.yaml", jobs[i].job->name);
		if (rc == 0)
			rc = spool_write(&w->sp, SPOOL_JOBS, file, wj->text,
			    wj->len, 0600, 0, d);
		snprintf(file, sizeof file, "%s.log", jobs[i].job->name);
		if (rc == 0 && wj->loglen > 0)
			rc = spool_write(&w->sp, SPOOL_PROGRESS, file,
			    wj->logbuf, wj->loglen, 0600, 0, d);
		if (rc == 0 && wj->held.n > 0) {
			char *hosts = hostlist_compress(&wj->held);
			rc = hosts ? state_add(&st, jobs[i].job->name, hosts,
			    d) : diag_errno(d, ENOMEM, "replay");
			free(hosts);
		}
	}
	if (rc == 0 && (buf = state_format(&st, &len)) == NULL)
		rc = diag_errno(d, ENOMEM, "replay");
	else if (rc == 0) {
		rc = file_write_atomic(w->sp.dirs[SPOOL_TMP], w->sp.fd,
		    "state.yaml", buf, len, 0644, 0, d);
		free(buf);
	}
	if (rc == 0 && w->holes != NULL)
		rc = spool_write(&w->sp, SPOOL_HOLES, "current.yaml", w->holes,
		    w->holes_len, 0644, 0, d);
	state_free(&st);
	return rc;
}
