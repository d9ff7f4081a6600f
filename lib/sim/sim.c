/*
 * NAME
 *	sim - replay an idle-node event stream with malleable jobs, and measure
 * DESCRIPTION
 *	See sim.h and bf-sim(1).  Time is a double of unix seconds: trace
 *	events fall on whole seconds, finishes anywhere between them.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"

#include "profile/curve.h"
#include "sim/sim.h"
#include "sim/simprof.h"
#include "sim/simspool.h"

enum run_state { WAITING, RUNNING, DONE };

struct ranked {
	double remaining;	/* expected idle time left, < 0 unknown */
	size_t node;
};

struct run {
	const struct jobcsv_job *src;
	enum run_state state;
	long n;			/* nodes held */
	double done, debt, ideal, loss;
	double start, finish;
	size_t rescales;
	double hit_at;		/* when the main scheduler last took nodes
				 * from it (once per job and event), or -1 */
	double stall_s;		/* --stall: this event's stall, seconds: the
				 * longest of its causes, charged at the
				 * count the event's decision leaves */
	struct simprof prof;	/* online profiling only */
	struct job_point *shared;	/* --share-fits: a sibling's points;
					 * --voi: the prior, when not declared */
	long vprobe;		/* --voi: the count probed, 0 none */
	double vsince;		/* when that probe was decided */
	struct job vjob;	/* its optimistic belief meanwhile */
};

struct sim {
	const struct sim_opts *o;
	struct sim_result *r;
	struct events *ev;
	size_t nnodes;		/* taking part */
	unsigned char *idle;
	long *own;		/* run index or -1 */
	long nidle;
	struct run *runs;
	size_t nruns, next;	/* next to admit */
	size_t *slot;		/* run index per slot, or SIZE_MAX */
	size_t running;
	double t;
	FILE *steps;
	FILE *fits;		/* fits.csv, online */
	size_t dcap;
	struct solve_count *c;
	size_t *ci;		/* run index of c[i] */
	struct simspool *w;	/* --spool: the replay written down */
	struct simspool_job *wj;
	struct simhorizon hz;	/* each decision's look-ahead */
	size_t hcap;
	struct ranked *rank;	/* --place longest: free nodes by time left */
	size_t nrank, rankcap, taken;
	struct solve_count *vc;	/* --voi: the plan with a probe */
	size_t vdone, vok;	/* --voi: probes measured, confirmed */
	double *vrates;		/* --voi: rates per node, for the median */
};

static double
rate(const struct run *u, long n)
{
	const struct job *j = &u->src->job;

	if (n < j->min_nodes)
		return 0;
	return curve_rate(j->points, j->npoints, n);
}

static double
remaining(const struct run *u)
{
	return (double)u->src->job.samples - u->done;
}

/* The progress reports due by t1, at the rate r of the interval. */
static int
report(struct sim *s, struct run *u, double r, double t1, struct diag *d)
{
	for (; u->prof.next <= t1; u->prof.next += u->prof.every) {
		double prod = r * (u->prof.next - s->t);
		double need = u->debt + remaining(u);
		double pay;
		if (u->prof.next <= s->t)
			continue;	/* not running then */
		if (prod > need)
			prod = need;
		pay = prod < u->debt ? prod : u->debt;
		if (simprof_report(&u->prof, u->prof.next, u->n,
		    u->done + prod - pay, r, d) < 0)
			return -1;
	}
	return 0;
}

/*
 * The report of the commit a rescale's stop makes (examples/torch: the
 * group commits its last step and reports it at the old count), before
 * the count changes; none when a node was just taken back (a killed peer:
 * the last commit stands) or a report was made at this time already.
 */
static int
commit_report(struct sim *s, struct run *u, struct diag *d)
{
	double r;

	if (s->o->profile != SIM_ONLINE || u->state != RUNNING ||
	    u->hit_at == s->t || u->prof.last_t >= s->t ||
	    (r = rate(u, u->n)) <= 0)
		return 0;
	return simprof_report(&u->prof, s->t, u->n, u->done, r, d);
}

/* Move time to t1: production, repayment of debts, I and A. */
static int
progress(struct sim *s, double t1, struct diag *d)
{
	double dt = t1 - s->t;
	size_t i;

	if (dt <= 0)
		return 0;
	s->r->idle_ns += (double)s->nidle * dt;
	for (i = 0; i < s->nruns; i++) {
		struct run *u = &s->runs[i];
		double r, prod, pay, need;
		if (u->state != RUNNING || (r = rate(u, u->n)) <= 0)
			continue;
		if (s->o->profile == SIM_ONLINE && report(s, u, r, t1, d) < 0)
			return -1;
		need = u->debt + remaining(u);
		prod = r * dt;
		if (prod > need)	/* rounding at a finish */
			prod = need;
		pay = prod < u->debt ? prod : u->debt;
		u->debt -= pay;
		u->loss += pay;
		u->done += prod - pay;
		u->ideal += prod;
		s->r->alloc_ns += (double)u->n * (prod / r);
	}
	for (i = 0; s->o->profile == SIM_ONLINE && i < s->nruns; i++) {
		struct simprof *p = &s->runs[i].prof;
		/* a job without nodes reports nothing: skip its turns */
		if (s->runs[i].state == RUNNING && p->next <= t1)
			p->next += p->every * (floor((t1 - p->next) /
			    p->every) + 1);
	}
	s->t = t1;
	return 0;
}

/* When the earliest running job finishes at its present rate. */
static double
next_finish(const struct sim *s)
{
	double best = INFINITY;
	size_t i;

	for (i = 0; i < s->nruns; i++) {
		const struct run *u = &s->runs[i];
		double r, t;
		if (u->state != RUNNING || (r = rate(u, u->n)) <= 0)
			continue;
		t = s->t + (u->debt + remaining(u)) / r;
		if (t < best)
			best = t;
	}
	return best;
}

static void
release_all(struct sim *s, size_t run)
{
	size_t i;

	for (i = 0; i < s->nnodes; i++)
		if (s->own[i] == (long)run)
			s->own[i] = -1;
	s->runs[run].n = 0;
}

/*
 * Jobs whose work is done leave.  Done means within 10 us of work: unix
 * times as doubles are exact to 0.24 us, so a finish computed from them
 * can fall short by that much of the job's rate, never by 10 us of it.
 */
static int
settle(struct sim *s)
{
	size_t i, k;
	int any = 0;

	for (i = 0; i < s->nruns; i++) {
		struct run *u = &s->runs[i];
		if (u->state != RUNNING || u->debt + remaining(u) >
		    1e-6 + 1e-5 * rate(u, u->n))
			continue;
		u->done = (double)u->src->job.samples;
		u->debt = 0;
		u->state = DONE;
		u->finish = s->t;
		release_all(s, i);
		for (k = 0; k < s->o->max_jobs; k++)
			if (s->slot[k] == i)
				s->slot[k] = SIZE_MAX;
		s->running--;
		s->r->finished++;
		any = 1;
	}
	return any;
}

static double
submit_time(const struct sim *s, size_t i)
{
	return (double)s->o->epoch + s->runs[i].src->submit;
}

/*
 * --share-fits: the measured points of the job of the same model with
 * the most of them (the latest admitted among equals), copied.
 */
static int
share(struct sim *s, size_t run, struct diag *d)
{
	struct run *u = &s->runs[run], *best = NULL;
	size_t i;

	for (i = 0; i < run; i++) {
		struct run *v = &s->runs[i];
		if (v->prof.measured > 0 && strcmp(v->src->model,
		    u->src->model) == 0 && (best == NULL ||
		    v->prof.measured >= best->prof.measured))
			best = v;
	}
	if (best == NULL)
		return 0;
	u->shared = malloc(best->prof.measured * sizeof *u->shared);
	if (u->shared == NULL)
		return diag_errno(d, ENOMEM, "%s", u->src->job.name);
	memcpy(u->shared, best->prof.meas, best->prof.measured *
	    sizeof *u->shared);
	return simprof_share(&u->prof, u->shared, best->prof.measured, d);
}

/* How far back --voi looks for a sibling or the site's rates. */
#define VOI_RECENT	256

/*
 * --voi: the rate per node of the jobs measured so far (the latest
 * VOI_RECENT before run, each at its smallest measured count): the
 * median and the highest, 0 when none was measured.
 */
static void
site_rates(struct sim *s, size_t run, double *med, double *max)
{
	size_t i, n = 0;

	*med = *max = 0;
	for (i = run; i-- > 0 && n < VOI_RECENT;) {
		const struct simprof *p = &s->runs[i].prof;
		if (p->measured > 0)
			s->vrates[n++] = p->meas[0].rate /
			    (double)p->meas[0].nodes;
	}
	if (n == 0)
		return;
	*med = array_median(s->vrates, n);	/* sorted */
	*max = s->vrates[n - 1];
}

/*
 * --voi: the prior of a job that declares nothing and has measured
 * nothing yet: the points of the latest job of its model with the most,
 * else a line at the site's median rate per node, else none (bf-solve's
 * provisional curve).  Made again at each decision until it measures.
 */
static int
prior(struct sim *s, size_t run, struct diag *d)
{
	struct run *u = &s->runs[run], *best = NULL;
	size_t i, n;
	double med, top;
	struct job_point *pts;

	if (u->src->ndeclared > 0 || u->prof.measured > 0)
		return 0;
	for (i = run, n = 0; i-- > 0 && n < VOI_RECENT; n++) {
		struct run *v = &s->runs[i];
		if (v->prof.measured > 0 && strcmp(v->src->model,
		    u->src->model) == 0 && (best == NULL ||
		    v->prof.measured > best->prof.measured))
			best = v;
	}
	if (best != NULL) {
		n = best->prof.measured;
		if ((pts = realloc(u->shared, n * sizeof *pts)) == NULL)
			return diag_errno(d, ENOMEM, "%s", u->src->job.name);
		memcpy(pts, best->prof.meas, n * sizeof *pts);
	} else {
		site_rates(s, run, &med, &top);
		if (med <= 0)
			return 0;
		/* a line to max_nodes: the fits scale it, no law bends it */
		if ((pts = realloc(u->shared, 2 * sizeof *pts)) == NULL)
			return diag_errno(d, ENOMEM, "%s", u->src->job.name);
		pts[0].nodes = 1;
		pts[0].rate = med;
		pts[1].nodes = u->src->job.max_nodes;
		pts[1].rate = med * (double)pts[1].nodes;
		n = pts[1].nodes > 1 ? 2 : 1;
	}
	u->shared = pts;
	simprof_prior(&u->prof, pts, n);
	return 0;
}

/* Admit waiting jobs submitted by now while a slot is free. */
static int
admit(struct sim *s, struct diag *d)
{
	size_t k;
	int any = 0;

	while (s->next < s->nruns && s->running < s->o->max_jobs &&
	    submit_time(s, s->next) <= s->t) {
		for (k = 0; s->slot[k] != SIZE_MAX; k++)
			;
		s->slot[k] = s->next;
		s->runs[s->next].state = RUNNING;
		s->runs[s->next].start = s->t;
		s->runs[s->next].hit_at = -1;
		if (s->o->profile != SIM_ORACLE)
			simprof_start(&s->runs[s->next].prof,
			    &s->runs[s->next].src->job,
			    s->runs[s->next].src->declared,
			    s->runs[s->next].src->ndeclared, s->t,
			    (uint64_t)s->next + 1, s->o->report_every,
			    s->o->noise);
		if (s->o->profile == SIM_ONLINE && s->o->share &&
		    share(s, s->next, d) < 0)
			return -1;
		if (s->o->voi && prior(s, s->next, d) < 0)
			return -1;
		s->runs[s->next].prof.peak = s->o->voi;
		s->next++;
		s->running++;
		s->r->admitted++;
		any = 1;
	}
	return any;
}

static int
take_back(struct sim *s, const uint32_t *leave, size_t n)
{
	size_t i;
	int any = 0;

	for (i = 0; i < n; i++) {
		uint32_t node = leave[i];
		long j;
		if (node >= s->nnodes || !s->idle[node])
			continue;
		s->idle[node] = 0;
		s->nidle--;
		simhorizon_leave(&s->hz, node, s->t);
		any = 1;
		if ((j = s->own[node]) < 0)
			continue;
		/*
		 * Charged once per job and event: at the rate it had, or with
		 * --stall as a stall the event's decision charges (stalls()).
		 */
		if (s->runs[j].hit_at != s->t) {
			s->runs[j].hit_at = s->t;
			if (!s->o->stall)
				s->runs[j].debt +=
				    s->runs[j].src->job.rescale_down *
				    rate(&s->runs[j], s->runs[j].n);
			else
				s->runs[j].stall_s = fmax(s->runs[j].stall_s,
				    s->runs[j].src->job.rescale_down);
		}
		s->own[node] = -1;
		s->runs[j].n--;
	}
	return any;
}

/* A trace may name a node first at any time: room for it. */
static int
ensure(struct sim *s, size_t n, struct diag *d)
{
	unsigned char *idle;
	long *own;
	size_t i;

	if (s->o->nodes && n > s->o->nodes)
		n = s->o->nodes;
	if (n <= s->nnodes)
		return 0;
	idle = realloc(s->idle, n + 1);
	if (idle != NULL)
		s->idle = idle;
	own = realloc(s->own, (n + 1) * sizeof *own);
	if (idle == NULL || own == NULL)
		return diag_errno(d, ENOMEM, "replay");
	s->own = own;
	for (i = s->nnodes; i < n; i++) {
		s->idle[i] = 0;
		s->own[i] = -1;
	}
	s->nnodes = n;
	return 0;
}

static int
give(struct sim *s, const uint32_t *join, size_t n, struct diag *d)
{
	size_t i;
	int any = 0;

	if (ensure(s, events_nodes(s->ev), d) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (join[i] < s->nnodes && !s->idle[join[i]]) {
			s->idle[join[i]] = 1;
			s->nidle++;
			any = 1;
			if (simhorizon_join(&s->hz, join[i], s->t, d) < 0)
				return -1;
		}
	return any;
}

static int
longest_first(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->remaining != y->remaining)
		return x->remaining < y->remaining ? 1 : -1;
	return (x->node > y->node) - (x->node < y->node);
}

/*
 * --place longest: the free idle nodes after a decision's shrinks, those
 * expected to stay idle longest first, ties (and nodes with no estimate,
 * last) by number, for the grows of the decision to take in turn.
 */
static int
rank_free(struct sim *s, struct diag *d)
{
	struct ranked *p = array_grow(s->rank, &s->rankcap, s->nnodes + 1,
	    sizeof *p, 1024);
	size_t i;

	if (p == NULL)
		return diag_errno(d, ENOMEM, "placement");
	s->rank = p;
	s->nrank = 0;
	s->taken = 0;
	for (i = 0; i < s->nnodes; i++)
		if (s->idle[i] && s->own[i] < 0) {
			p[s->nrank].remaining = simhorizon_remaining(&s->hz, i,
			    s->t);
			p[s->nrank++].node = i;
		}
	qsort(p, s->nrank, sizeof *p, longest_first);
	return 0;
}

/*
 * Counts to nodes: shrinkers give back their highest nodes first; growers
 * take the lowest-numbered free nodes, or with --place longest the next
 * ones of rank_free()'s order.
 */
static void
map_nodes(struct sim *s, size_t run, long want)
{
	struct run *u = &s->runs[run];
	size_t i;

	for (i = s->nnodes; i-- > 0 && u->n > want;)
		if (s->own[i] == (long)run) {
			s->own[i] = -1;
			u->n--;
		}
	for (; s->o->place_longest && u->n < want && s->taken < s->nrank;
	    s->taken++) {
		i = s->rank[s->taken].node;
		if (s->idle[i] && s->own[i] < 0) {
			s->own[i] = (long)run;
			u->n++;
		}
	}
	for (i = 0; i < s->nnodes && u->n < want; i++)
		if (s->idle[i] && s->own[i] < 0) {
			s->own[i] = (long)run;
			u->n++;
		}
}

static int
check(const struct sim *s, struct diag *d)
{
	long *count = calloc(s->nruns + 1, sizeof *count), held = 0;
	size_t i;
	int rc = 0;

	if (count == NULL)
		return diag_errno(d, ENOMEM, "check");
	for (i = 0; i < s->nnodes; i++) {
		if (s->own[i] < 0)
			continue;
		if (!s->idle[i])
			rc = -1;
		count[s->own[i]]++;
		held++;
	}
	for (i = 0; i < s->nruns; i++) {
		const struct job *j = &s->runs[i].src->job;
		long n = s->runs[i].n;
		if (count[i] != n || n > j->max_nodes || (n > 0 &&
		    n < j->min_nodes) || (n > 0 && s->runs[i].state !=
		    RUNNING) || s->runs[i].done < 0 || s->runs[i].debt < 0)
			rc = -1;
	}
	free(count);
	if (rc < 0 || held > s->nidle)
		return diag_set(d, EX_SOFTWARE, "internal error: the "
		    "allocation at %.3f breaks a rule of the replay", s->t);
	return 0;
}

static void
step_row(struct sim *s, const char *kind, double dsec)
{
	long alloc = 0;
	double done = 0;
	size_t i, k;

	for (i = 0; i < s->nruns; i++) {
		alloc += s->runs[i].n;
		done += s->runs[i].done;
	}
	fprintf(s->steps, "%.3f,%s,%ld,%ld,%zu,%zu,%.0f,%.6f", s->t -
	    (double)s->o->from, kind, s->nidle, alloc, s->running,
	    s->r->finished, done, dsec);
	for (k = 0; k < s->o->max_jobs; k++)
		fprintf(s->steps, ",%ld", s->slot[k] == SIZE_MAX ? 0 :
		    s->runs[s->slot[k]].n);
	fputc('\n', s->steps);
}

/* A decision's time and, when not fixed, its horizon. */
static int
keep_dsec(struct sim *s, double sec, double horizon, struct diag *d)
{
	double *p = array_grow(s->r->dsec, &s->dcap, s->r->events + 1,
	    sizeof *p, 1024);

	if (p == NULL)
		return diag_errno(d, ENOMEM, "decision times");
	s->r->dsec = p;
	if (s->o->horizon != SIMHORIZON_FIXED) {
		p = array_grow(s->r->horizons, &s->hcap, s->r->events + 1,
		    sizeof *p, 1024);
		if (p == NULL)
			return diag_errno(d, ENOMEM, "horizons");
		s->r->horizons = p;
		s->r->horizons[s->r->events] = horizon;
	}
	s->r->dsec[s->r->events++] = sec;
	return 0;
}

/* The jobs as the spool writer sees them. */
static void
spool_jobs(struct sim *s)
{
	static const enum simspool_state map[] = { SIMSPOOL_WAITING,
	    SIMSPOOL_RUNNING, SIMSPOOL_DONE };
	size_t i;

	for (i = 0; i < s->nruns; i++) {
		s->wj[i].job = &s->runs[i].src->job;
		s->wj[i].state = map[s->runs[i].state];
		s->wj[i].done = s->runs[i].done;
		s->wj[i].finish = s->runs[i].finish;
		s->wj[i].submit = submit_time(s, i);
	}
}

/*
 * A job's fit, as bf-profile makes it, its measured points beside the
 * true rates in fits.csv: 1 when it measured a new count or changed the
 * probe.
 */
static int
fit(struct sim *s, size_t run, struct diag *d)
{
	struct run *u = &s->runs[run];
	size_t before = u->prof.fits, i;

	if (simprof_update(&u->prof, s->t, d) < 0)
		return -1;
	if (u->prof.fits == before)
		return 0;
	s->r->fits++;
	if (run < SIM_FIT_JOBS) {
		if (s->r->fit_n[run]++ == 0)
			s->r->fit_first[run] = s->t - (double)s->o->from;
		s->r->fit_last[run] = s->t - (double)s->o->from;
	}
	for (i = 0; s->fits != NULL && i < u->prof.measured; i++)
		fprintf(s->fits, "%.3f,%s,%zu,%ld,%.3f,%.3f,%.2f,%d,%.2f,%d\n",
		    s->t - (double)s->o->from, u->src->job.name, run + 1,
		    u->prof.meas[i].nodes, u->prof.meas[i].rate,
		    rate(u, u->prof.meas[i].nodes), u->prof.cur.rescale_up,
		    u->prof.cur.up_obs, u->prof.cur.rescale_down,
		    u->prof.cur.down_obs);
	/* --voi, --passive: a count measured waits for the next decision */
	return s->o->voi || s->o->passive ? 0 : u->prof.changed;
}

/*
 * The next report due of a job whose fit is young (its count changed,
 * or fewer than SIMPROF_YOUNG reports at it): a fit then may measure a
 * count or move the probe, and that is an event.
 */
static double
next_measure(const struct sim *s)
{
	double best = INFINITY;
	size_t i;

	if (s->o->profile != SIM_ONLINE)
		return best;
	for (i = 0; i < s->nruns; i++) {
		const struct run *u = &s->runs[i];
		if (u->state != RUNNING || rate(u, u->n) <= 0 ||
		    (u->n == u->prof.last_nodes && u->prof.seg >=
		    SIMPROF_YOUNG))
			continue;
		if (u->prof.next < best)
			best = u->prof.next;
	}
	return best;
}

/* The fits at a report time: 1 when one of them calls for a decision. */
static int
measure(struct sim *s, struct diag *d)
{
	size_t k;
	int any = 0, rc;

	for (k = 0; k < s->o->max_jobs; k++) {
		if (s->slot[k] == SIZE_MAX)
			continue;
		if ((rc = fit(s, s->slot[k], d)) < 0)
			return -1;
		any |= rc;
	}
	return any;
}

/*
 * --voi: whether u's probe still waits for its point; one that got it,
 * lost nodes or waited SIM_VOI_WAIT seconds ends (its belief is the fit's
 * again).  A probe that got its point counts as confirmed when the rate
 * measured there is at least SIM_VOI_CONFIRM of the optimistic one.
 */
static int
pending(struct sim *s, struct run *u)
{
	size_t i;
	int got = 0;

	if (u->vprobe == 0)
		return 0;
	for (i = 0; i < u->prof.measured; i++)
		if (u->prof.meas[i].nodes == u->vprobe) {
			got = 1;
			s->vdone++;
			s->vok += u->prof.meas[i].rate >= SIM_VOI_CONFIRM *
			    curve_rate(u->vjob.points, u->vjob.npoints,
			    u->vprobe);
		}
	if (!got && u->n == u->vprobe && s->t - u->vsince < SIM_VOI_WAIT)
		return 1;
	free(u->vjob.points);
	u->vjob.points = NULL;
	u->vprobe = 0;
	return 0;
}

/* The objective's value of j at k nodes from was, over h seconds. */
static double
worth(const struct job *j, long was, long k, double h)
{
	double now = was >= j->min_nodes ? curve_rate(j->points, j->npoints,
	    was) : 0;
	double cost = k > was ? j->rescale_up * now : k < was ?
	    j->rescale_down * now : 0;

	return j->weight * (h * (k > 0 ? curve_rate(j->points, j->npoints,
	    k) : 0) - cost);
}

/*
 * --voi: the value-of-information test on the plan in s->c (sim.h): one
 * job's optimistic curve, and the plan taken when it would visit a count
 * never measured and what it may gain over the job's work left (at most
 * SIM_VOI_HORIZON seconds), times the odds that optimism is right (the
 * share of probes confirmed so far, (ok + 1) / (done + 2)), exceeds what
 * it costs under the belief while the count is measured (the rescale and
 * SIM_VOI_MEASURE seconds).
 */
static int
voi(struct sim *s, size_t n, long nfree, const struct solve_opts *so,
    struct diag *d)
{
	struct solve_result res;
	struct job_point *pts;
	struct run *u;
	long avail = nfree, used = 0, top, m;
	size_t i, k, best = SIZE_MAX;
	int below = 0;
	double med, site, gap = 1 + 1e-9, r = 0, gain = 0, cost = 0, h;

	for (i = 0; i < n; i++) {
		if (s->runs[s->ci[i]].vprobe != 0)
			return 0;	/* one experiment at a time */
		avail += s->c[i].was;
		used += s->c[i].nodes;
		below |= s->c[i].nodes < s->c[i].job->max_nodes;
	}
	if (used < avail || !below || s->o->no_probe)
		return 0;	/* uncontested: measure where the plan goes */
	site_rates(s, s->next, &med, &site);
	for (i = 0; i < n; i++) {
		const struct job *b;
		double opt, bel, rm, left;
		u = &s->runs[s->ci[i]];
		b = &u->prof.belief;
		top = b->max_nodes;
		m = u->prof.measured ? u->prof.meas[u->prof.measured -
		    1].nodes : 0;
		rm = m ? u->prof.meas[u->prof.measured - 1].rate : 0;
		opt = m ? rm * (double)top / (double)m : site * (double)top;
		bel = curve_rate(b->points, b->npoints, top);
		left = remaining(u) / (m ? rm : curve_rate(b->points,
		    b->npoints, b->min_nodes));
		if (m >= top || s->c[i].nodes > m || !(left >=
		    SIM_VOI_LEFT) || !(opt > gap * bel))
			continue;
		gap = opt / bel;
		best = i;
		r = opt;
	}
	if (best == SIZE_MAX)
		return 0;
	u = &s->runs[s->ci[best]];
	m = u->prof.measured;
	if ((pts = calloc((size_t)m + 1, sizeof *pts)) == NULL)
		return diag_errno(d, ENOMEM, "%s", u->src->job.name);
	if (m > 0)
		memcpy(pts, u->prof.meas, (size_t)m * sizeof *pts);
	pts[m].nodes = u->prof.belief.max_nodes;
	pts[m].rate = r;
	u->vjob = u->prof.belief;
	u->vjob.points = pts;
	u->vjob.npoints = (size_t)m + 1;
	memcpy(s->vc, s->c, n * sizeof *s->vc);
	s->vc[best].job = &u->vjob;
	top = m ? u->prof.meas[m - 1].nodes : 0;
	if (simpolicy_decide(SIMPOLICY_DP, so, s->vc, n, nfree, &res, d) < 0)
		goto fail;
	if (s->vc[best].nodes > top) {
		h = remaining(u) / curve_rate(pts, (size_t)m + 1,
		    s->vc[best].nodes);
		if (h > SIM_VOI_HORIZON)
			h = SIM_VOI_HORIZON;
		for (k = 0; k < n; k++) {
			const struct job *b = k == best ? &u->prof.belief :
			    s->c[k].job;
			gain += worth(s->vc[k].job, s->c[k].was,
			    s->vc[k].nodes, h) - worth(s->vc[k].job,
			    s->c[k].was, s->c[k].nodes, h);
			cost += worth(b, s->c[k].was, s->c[k].nodes,
			    SIM_VOI_MEASURE) - worth(b, s->c[k].was,
			    s->vc[k].nodes, SIM_VOI_MEASURE);
		}
	}
	/* the odds of optimism: the probes confirmed so far, Laplace's rule */
	if (!(gain * (double)(s->vok + 1) / (double)(s->vdone + 2) > cost)) {
		free(pts);
		u->vjob.points = NULL;
		return 0;
	}
	for (k = 0; k < n; k++)
		s->c[k].nodes = s->vc[k].nodes;
	s->c[best].job = &u->vjob;
	u->vprobe = s->vc[best].nodes;
	u->vsince = s->t;
	s->r->probes++;
	return 0;
fail:
	free(pts);
	u->vjob.points = NULL;
	return -1;
}

/*
 * A decision moves its job i (run ci[i]) to its count c[i]: the commit
 * report, a debt of cost seconds at the rate before (with --stall, a
 * stall of cost seconds that stalls() charges, unless the job runs from
 * nothing and was not hit: a start), the counts, the nodes.
 */
static int
rescale(struct sim *s, size_t i, double cost, struct diag *d)
{
	struct run *u = &s->runs[s->ci[i]];
	double before = rate(u, u->n);

	if (commit_report(s, u, d) < 0)
		return -1;
	if (!s->o->stall)
		u->debt += cost * before;
	else if (before > 0 || u->stall_s > 0)
		u->stall_s = fmax(u->stall_s, cost);
	u->rescales++;
	s->r->rescales++;
	map_nodes(s, s->ci[i], s->c[i].nodes);
	return 0;
}

/*
 * --stall: the stall of this event of each of the n jobs decided (every
 * job running: those a take-back hit among them), once, as long as the
 * longest of its causes (a take-back, a rescale), at the count the
 * decision leaves it: nothing where that count runs nothing.
 */
static void
stalls(struct sim *s, size_t n)
{
	size_t i;

	for (i = 0; s->o->stall && i < n; i++) {
		struct run *u = &s->runs[s->ci[i]];
		if (u->stall_s > 0)
			u->debt += u->stall_s * rate(u, u->n);
		u->stall_s = 0;
	}
}

/* The policy's decision, its costs charged, and the step recorded. */
static int
decide(struct sim *s, const char *kind, struct diag *d)
{
	struct solve_opts so = SOLVE_OPTS_DEFAULT;
	struct solve_result res;
	long nfree = s->nidle, demand = 0;
	size_t n = 0, k, i;
	int probe = s->o->profile == SIM_ONLINE && !s->o->no_probe &&
	    !s->o->voi && !s->o->passive;

	/* uncontested, every job may have what it wants: learn passively */
	for (k = 0; probe && s->o->probe_contested && k < s->o->max_jobs; k++)
		if (s->slot[k] != SIZE_MAX)
			demand += s->runs[s->slot[k]].src->job.max_nodes;
	if (probe && s->o->probe_contested && demand <= s->nidle)
		probe = 0;

	for (k = 0; k < s->o->max_jobs; k++) {
		struct run *u;
		if (s->slot[k] == SIZE_MAX)
			continue;
		u = &s->runs[s->slot[k]];
		s->ci[n] = s->slot[k];
		s->c[n].job = &u->src->job;
		s->c[n].probe = 0;
		s->c[n].measured = 0;
		if (s->o->profile == SIM_ONLINE && (fit(s, s->slot[k], d) < 0 ||
		    simprof_belief(&u->prof, d) < 0))
			return -1;
		if (s->o->voi && prior(s, s->slot[k], d) < 0)
			return -1;
		if (s->o->profile != SIM_ORACLE)
			s->c[n].job = &u->prof.belief;
		if (s->o->voi && pending(s, u))
			s->c[n].job = &u->vjob;
		if (probe)
			s->c[n].probe = u->prof.probe;
		if (u->prof.measured > 0)
			s->c[n].measured = u->prof.meas[0].rate /
			    (double)u->prof.meas[0].nodes;
		s->c[n].was = u->n;
		s->c[n].nodes = u->n;
		nfree -= u->n;
		n++;
	}
	if (simhorizon_decide(&s->hz, s->t, s->idle, s->own, s->nnodes,
	    &so.tfwd, d) < 0)
		return -1;
	so.seconds = s->o->limit;
	so.prior = s->o->passive;
	so.policy = s->o->admin;
	if (simpolicy_decide(s->o->policy, &so, s->c, n, nfree, &res, d) < 0)
		return -1;
	if (strcmp(res.status, "no-plan") == 0)
		s->r->no_plan++;
	else if (strncmp(res.status, "optimal", 7) != 0 &&
	    strcmp(res.status, "heuristic") != 0)
		s->r->not_optimal++;
	if (s->o->voi && voi(s, n, nfree, &so, d) < 0)
		return -1;
	for (i = 0; i < n; i++) {	/* shrink first: frees nodes */
		struct run *u = &s->runs[s->ci[i]];
		if (s->c[i].nodes < u->n &&
		    rescale(s, i, u->src->job.rescale_down, d) < 0)
			return -1;
	}
	if (s->o->place_longest && rank_free(s, d) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		struct run *u = &s->runs[s->ci[i]];
		if (s->c[i].probe > 0 && s->c[i].nodes == s->c[i].probe &&
		    s->c[i].nodes != u->n)
			s->r->probes++;
		if (s->c[i].nodes > u->n &&
		    rescale(s, i, u->src->job.rescale_up, d) < 0)
			return -1;
	}
	stalls(s, n);
	if (check(s, d) < 0 || keep_dsec(s, res.seconds, so.tfwd, d) < 0)
		return -1;
	step_row(s, kind, res.seconds);
	if (s->w == NULL)
		return 0;
	spool_jobs(s);
	return simspool_decision(s->w, s->t, s->idle, s->own, s->nnodes, s->wj,
	    s->nruns, d);
}

/* Finishes and admissions strictly before the trace's next event. */
static int
until(struct sim *s, double te, struct diag *d)
{
	for (;;) {
		double tf = next_finish(s), ta = INFINITY, tm = next_measure(s);
		int fin, adm, meas;
		if (s->next < s->nruns && s->running < s->o->max_jobs)
			ta = submit_time(s, s->next);
		if (ta < s->t)
			ta = s->t;
		if (tf >= te && ta >= te && tm >= te)
			return 0;
		if (tm < tf && tm < ta) {
			if (progress(s, tm, d) < 0 || (meas = measure(s, d)) < 0)
				return -1;
			if (meas && decide(s, "measure", d) < 0)
				return -1;
			continue;
		}
		if (progress(s, tf < ta ? tf : ta, d) < 0)
			return -1;
		fin = settle(s);
		if ((adm = admit(s, d)) < 0)
			return -1;
		if ((fin || adm) && decide(s, fin ? "finish" : "admit", d) < 0)
			return -1;
		if (s->running == 0 && s->next == s->nruns)
			return 0;
	}
}

static int
all_done(const struct sim *s)
{
	return s->running == 0 && s->next == s->nruns;
}

/* Done so far: of the time to --to, else of the jobs. */
static void
tell(const struct sim *s)
{
	double f;

	if (s->o->progress == NULL)
		return;
	if (s->o->have_to && s->o->to > s->o->from)
		f = (s->t - (double)s->o->from) / (double)(s->o->to -
		    s->o->from);
	else
		f = s->nruns ? (double)s->r->finished / (double)s->nruns : 1;
	s->o->progress(s->o->progress_arg, f);
}

/* A change of the idle set: a decision unless it changed nothing. */
static int
trace_event(struct sim *s, const struct event *e, struct diag *d)
{
	int changed, joined;

	if (progress(s, (double)e->time, d) < 0)
		return -1;
	changed = take_back(s, e->leave, e->nleave);
	if ((joined = give(s, e->join, e->njoin, d)) < 0)
		return -1;
	changed |= joined;
	changed |= settle(s);
	if ((joined = admit(s, d)) < 0)
		return -1;
	changed |= joined;
	return changed ? decide(s, "trace", d) : 0;
}

static int
replay(struct sim *s, struct event *first, struct diag *d)
{
	struct event e = *first;
	double end = (double)s->o->from;
	int rc = 0;

	s->t = (double)s->o->from;
	if (give(s, e.join, e.njoin, d) < 0)
		return -1;
	if (admit(s, d) < 0 || decide(s, "start", d) < 0)
		return -1;
	while (!all_done(s)) {
		rc = events_next(s->ev, s->o->have_to ? s->o->to : LLONG_MAX,
		    &e, d);
		if (rc < 0)
			return -1;
		/* the idle set is known up to --to, else to the last event */
		end = rc > 0 ? (double)e.time : s->o->have_to ?
		    (double)s->o->to : s->t;
		if (until(s, end, d) < 0)
			return -1;
		if (rc == 0 || all_done(s))
			break;
		if (trace_event(s, &e, d) < 0)
			return -1;
		tell(s);
	}
	if (!all_done(s) && rc == 0 && progress(s, end, d) < 0)
		return -1;
	if (s->w != NULL) {
		spool_jobs(s);
		if (simspool_close(s->w, s->t, s->wj, s->nruns, d) < 0)
			return -1;
	}
	if (s->o->progress != NULL)
		s->o->progress(s->o->progress_arg, 1);
	s->r->end = s->t;
	return 0;
}

static void
jobs_rows(const struct sim *s, FILE *fp)
{
	size_t i;

	fprintf(fp, "name,submit,start,finish,samples,done,ideal,"
	    "rescale_loss,rescales\n");
	for (i = 0; i < s->next; i++) {
		const struct run *u = &s->runs[i];
		fprintf(fp, "%s,%.3f,%.3f,", u->src->job.name,
		    submit_time(s, i) - (double)s->o->from,
		    u->start - (double)s->o->from);
		if (u->state == DONE)
			fprintf(fp, "%.3f", u->finish - (double)s->o->from);
		fprintf(fp, ",%lld,%.0f,%.0f,%.0f,%zu\n", u->src->job.samples,
		    u->done, u->ideal, u->loss, u->rescales);
	}
}

static void
totals(struct sim *s)
{
	size_t i;

	for (i = 0; i < s->nruns; i++) {
		s->r->ideal += s->runs[i].ideal;
		s->r->done += s->runs[i].done;
		s->r->loss += s->runs[i].loss;
	}
}

static int
setup(struct sim *s, const struct sim_opts *o, struct events *ev,
    const struct jobcsv_jobs *js, struct sim_result *r, struct diag *d)
{
	size_t i, all = events_nodes(ev);

	memset(s, 0, sizeof *s);
	s->o = o;
	s->r = r;
	s->ev = ev;
	s->nruns = js->n;
	/* a trace names nodes as it goes: room for what the stream may add */
	s->nnodes = o->nodes && o->nodes < all ? o->nodes : all;
	s->idle = calloc(s->nnodes + 1, 1);
	s->own = malloc((s->nnodes + 1) * sizeof *s->own);
	s->runs = calloc(js->n + 1, sizeof *s->runs);
	s->slot = malloc((o->max_jobs + 1) * sizeof *s->slot);
	s->c = calloc(o->max_jobs + 1, sizeof *s->c);
	s->ci = calloc(o->max_jobs + 1, sizeof *s->ci);
	s->vc = calloc(o->max_jobs + 1, sizeof *s->vc);
	s->vrates = calloc(VOI_RECENT, sizeof *s->vrates);
	s->steps = open_memstream(&r->steps, &r->steps_len);
	s->wj = calloc(js->n + 1, sizeof *s->wj);
	if (s->idle == NULL || s->own == NULL || s->runs == NULL ||
	    s->slot == NULL || s->c == NULL || s->ci == NULL ||
	    s->vc == NULL || s->vrates == NULL || s->steps == NULL || s->wj == NULL)
		return diag_errno(d, ENOMEM, "replay");
	if (simhorizon_open(&s->hz, o->horizon, o->tfwd, o->from,
	    o->have_to ? o->to : LLONG_MAX, o->nodes, o->ahead, d) < 0)
		return -1;
	s->hz.most = o->horizon_cap;
	if (o->spool != NULL && simspool_open(&s->w, o->spool, ev,
	    simpolicy_name(o->policy), o->tfwd, js->n, d) < 0)
		return -1;
	for (i = 0; i < s->nnodes; i++)
		s->own[i] = -1;
	for (i = 0; i < o->max_jobs; i++)
		s->slot[i] = SIZE_MAX;
	for (i = 0; i < js->n; i++)
		s->runs[i].src = &js->jobs[i];
	if (o->profile == SIM_ONLINE) {
		if ((s->fits = open_memstream(&r->fits_csv, &r->fits_len)) ==
		    NULL)
			return diag_errno(d, ENOMEM, "fits.csv");
		fprintf(s->fits, "t,name,job,nodes,measured,true,"
		    "rescale_up,up_obs,rescale_down,down_obs\n");
	}
	fprintf(s->steps, "t,event,idle,allocated,running,finished,done,"
	    "decision_seconds");
	for (i = 0; i < o->max_jobs; i++)
		fprintf(s->steps, ",slot%zu", i + 1);
	fputc('\n', s->steps);
	return 0;
}

static void
teardown(struct sim *s)
{
	size_t i;

	if (s->steps != NULL && fclose(s->steps) != 0) {
		free(s->r->steps);
		s->r->steps = NULL;
	}
	if (s->fits != NULL && fclose(s->fits) != 0) {
		free(s->r->fits_csv);
		s->r->fits_csv = NULL;
	}
	for (i = 0; s->runs != NULL && i < s->nruns; i++) {
		simprof_free(&s->runs[i].prof);
		free(s->runs[i].shared);
		free(s->runs[i].vjob.points);
	}
	free(s->idle);
	free(s->own);
	free(s->runs);
	free(s->slot);
	free(s->c);
	free(s->ci);
	free(s->vc);
	free(s->vrates);
	free(s->wj);
	free(s->rank);
	simspool_free(s->w);
	simhorizon_free(&s->hz);
}

int
sim_run(const struct sim_opts *o, struct events *ev,
    const struct jobcsv_jobs *js, struct sim_result *r, struct diag *d)
{
	struct sim s;
	struct event e;
	FILE *fp;
	int rc;

	memset(r, 0, sizeof *r);
	r->jobs = js->n;
	if (o->max_jobs == 0)
		return diag_set(d, EX_USAGE, "max_jobs must be at least 1");
	if (events_start(ev, o->from, &e, d) < 0)
		return -1;
	rc = setup(&s, o, ev, js, r, d);
	if (rc == 0)
		rc = replay(&s, &e, d);
	if (rc == 0) {
		r->nodes = s.nnodes;
		r->fallbacks = s.hz.fallbacks;
		r->holes = s.hz.holes;
		totals(&s);
		if ((fp = open_memstream(&r->jobs_csv, &r->jobs_len)) == NULL)
			rc = diag_errno(d, ENOMEM, "jobs.csv");
		else {
			jobs_rows(&s, fp);
			if (fclose(fp) != 0)
				rc = diag_errno(d, ENOMEM, "jobs.csv");
		}
	}
	teardown(&s);
	if (rc == 0 && r->steps == NULL)
		rc = diag_errno(d, ENOMEM, "steps.csv");
	if (rc == 0 && o->profile == SIM_ONLINE && r->fits_csv == NULL)
		rc = diag_errno(d, ENOMEM, "fits.csv");
	return rc;
}

void
sim_result_free(struct sim_result *r)
{
	free(r->dsec);
	free(r->steps);
	free(r->jobs_csv);
	free(r->fits_csv);
	free(r->horizons);
	memset(r, 0, sizeof *r);
}
