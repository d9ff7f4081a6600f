/*
 * NAME
 *	simprof - bf-sim's online profiling: progress reports and their fit
 * DESCRIPTION
 *	See simprof.h.  The log is kept in memory as the text a job would
 *	append, so the fit is bf-profile's own, reading what it reads: each
 *	fit reads the lines added since the last one (profile_log_update()).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"

#include "profile/profile.h"
#include "sim/simprof.h"

void
simprof_start(struct simprof *p, const struct job *job,
    const struct job_point *decl, size_t ndecl, double t, uint64_t seed,
    double every, double noise)
{
	memset(p, 0, sizeof *p);
	p->declared = job;
	p->decl = decl;
	p->ndecl = ndecl;
	p->every = every;
	p->noise = noise;
	p->belief = *job;
	/* the belief's points are never the true ones: cast away only */
	p->belief.points = (struct job_point *)(uintptr_t)decl;
	p->belief.npoints = ndecl;
	p->next = t + every;
	p->rng = seed;
	p->probe = job->min_nodes;	/* the advisor's first count */
}

/* splitmix64: small, and the same numbers on every machine */
static double
uniform(struct simprof *p)
{
	uint64_t z = (p->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (double)(z >> 11) / 9007199254740992.0 * 2 - 1;
}

int
simprof_report(struct simprof *p, double t, long nodes, double samples,
    double rate, struct diag *d)
{
	char line[128], *q;
	double noisy = samples + uniform(p) * p->noise * rate * p->every;
	int n;

	if (noisy < p->last)
		noisy = p->last;
	p->last = noisy = round(noisy);
	p->last_t = t;
	n = snprintf(line, sizeof line, "%.3f %ld %.0f\n", t, nodes, noisy);

	if ((q = array_grow(p->log, &p->cap, p->len + (size_t)n + 1, 1,
	    4096)) == NULL)
		return diag_errno(d, ENOMEM, "%s", p->declared->name);
	p->log = q;
	p->seg = nodes == p->last_nodes ? p->seg + 1 : 1;
	p->last_nodes = nodes;
	memcpy(p->log + p->len, line, (size_t)n + 1);
	p->len += (size_t)n;
	p->dirty = 1;
	return 0;
}

static int
believe(struct simprof *p, const struct profile *pr, struct diag *d)
{
	struct job_point *pts;
	size_t n;

	if (pr->npoints == 0)
		return 0;
	pts = calloc(p->ndecl + pr->npoints + PROFILE_LAW_POINTS,
	    sizeof *pts);
	if (pts == NULL)
		return diag_errno(d, ENOMEM, "%s", p->declared->name);
	/* What the job file declares, never the oracle curve. */
	n = profile_curve(pr, p->decl, p->ndecl, p->declared->max_nodes,
	    PROFILE_CURVE_SCALED, pts);
	free(p->points);
	p->points = pts;
	p->belief.points = pts;
	p->belief.npoints = n;
	return 0;
}

static int
by_nodes(const void *a, const void *b)
{
	const struct job_point *x = a, *y = b;

	return (x->nodes > y->nodes) - (x->nodes < y->nodes);
}

/*
 * The advisor's count on the job's own points and the shared ones at the
 * counts it has not measured: profile_advise() as bf-profile calls it.
 */
static int
advise_shared(struct simprof *p, const struct job_point *own, size_t nown,
    struct diag *d)
{
	struct profile m;
	size_t i, k;

	memset(&m, 0, sizeof m);
	m.points = calloc(p->ndecl + nown + 1, sizeof *m.points);
	if (m.points == NULL)
		return diag_errno(d, ENOMEM, "%s", p->declared->name);
	if (nown > 0)
		memcpy(m.points, own, nown * sizeof *own);
	m.npoints = nown;
	for (i = 0; i < p->ndecl; i++) {
		for (k = 0; k < nown && own[k].nodes != p->decl[i].nodes; k++)
			;
		if (k == nown)
			m.points[m.npoints++] = p->decl[i];
	}
	if (m.npoints > 1)
		qsort(m.points, m.npoints, sizeof *m.points, by_nodes);
	profile_advise(&m, p->declared->min_nodes, p->declared->max_nodes);
	p->probe = m.next_nodes;
	free(m.points);
	return 0;
}

int
simprof_share(struct simprof *p, const struct job_point *pts, size_t n,
    struct diag *d)
{
	p->decl = pts;
	p->ndecl = n;
	p->belief.points = (struct job_point *)(uintptr_t)pts;
	p->belief.npoints = n;
	p->shared = 1;
	return advise_shared(p, NULL, 0, d);
}

void
simprof_prior(struct simprof *p, const struct job_point *pts, size_t n)
{
	p->decl = pts;
	p->ndecl = n;
	p->belief.points = (struct job_point *)(uintptr_t)pts;
	p->belief.npoints = n;
}

/* p.peak: each count's rate the best fitted there so far. */
static int
keep_peak(struct simprof *p, struct profile *pr, struct diag *d)
{
	size_t i, k;

	for (i = 0; i < pr->npoints; i++) {
		for (k = 0; k < p->ntop && p->top[k].nodes !=
		    pr->points[i].nodes; k++)
			;
		if (k == p->ntop) {
			struct job_point *t = realloc(p->top, (k + 1) *
			    sizeof *t);
			if (t == NULL)
				return diag_errno(d, ENOMEM, "%s",
				    p->declared->name);
			p->top = t;
			p->top[p->ntop++] = pr->points[i];
		} else if (pr->points[i].rate > p->top[k].rate)
			p->top[k].rate = pr->points[i].rate;
		else
			pr->points[i].rate = p->top[k].rate;
	}
	return 0;
}

int
simprof_update(struct simprof *p, double t, struct diag *d)
{
	struct profile pr;
	int rc;

	p->changed = 0;
	if (!p->dirty || (p->seg > SIMPROF_YOUNG && t - p->fitted <
	    SIMPROF_REFIT))
		return 0;
	p->dirty = 0;
	p->fitted = t;
	memset(&pr, 0, sizeof pr);
	if (profile_log_update(&p->fitlog, &pr, p->declared->name,
	    p->declared->name, p->log, p->len, p->declared, d) < 0)
		return -1;
	if (p->peak && keep_peak(p, &pr, d) < 0) {
		profile_free(&pr);
		return -1;
	}
	/* the advisor reads the points only; the law waits for a decision */
	profile_advise(&pr, p->declared->min_nodes, p->declared->max_nodes);
	rc = 0;
	if (pr.npoints > 0) {
		struct job_point *m = realloc(p->meas, pr.npoints *
		    sizeof *m);
		if (m == NULL)
			rc = diag_errno(d, ENOMEM, "%s", p->declared->name);
		else {
			memcpy(m, pr.points, pr.npoints * sizeof *m);
			p->meas = m;
		}
	}
	if (rc == 0) {
		profile_rescale(&pr, p->declared, &p->belief.rescale_up,
		    &p->belief.rescale_down);
		long was = p->probe;
		p->probe = pr.next_nodes;
		if (p->shared)
			rc = advise_shared(p, pr.points, pr.npoints, d);
		p->changed = p->probe != was || p->measured != pr.npoints;
		p->measured = pr.npoints;
		p->fits++;
	}
	profile_free(&p->cur);
	p->cur = pr;
	p->stale = rc == 0;
	return rc;
}

/*
 * The belief from the last fit, its law fitted only where the curve uses
 * it (the rest of a fit never reads it) and only when the points moved.
 */
int
simprof_belief(struct simprof *p, struct diag *d)
{
	if (!p->stale)
		return 0;
	p->stale = 0;
	if (!p->peak && profile_curve_law(&p->cur, p->decl, p->ndecl,
	    p->declared->max_nodes))
		profile_log_fit(p->fitlog, &p->cur);
	return believe(p, &p->cur, d);
}

void
simprof_free(struct simprof *p)
{
	free(p->points);
	free(p->meas);
	free(p->top);
	free(p->log);
	profile_log_free(p->fitlog);
	profile_free(&p->cur);
	memset(p, 0, sizeof *p);
}
