/*
 * NAME
 *	simprof - bf-sim's online profiling: progress reports and their fit
 * DESCRIPTION
 *	See simprof.h.  The log is kept in memory as the text a job would
 *	append, so the fit is bf-profile's own, reading what it reads.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "simprof.h"

void
simprof_start(struct simprof *p, const struct job *declared, double t,
    uint64_t seed)
{
	memset(p, 0, sizeof *p);
	p->declared = declared;
	p->belief = *declared;
	p->belief.points = NULL;
	p->belief.npoints = 0;
	p->next = t + SIMPROF_EVERY;
	p->rng = seed;
	p->probe = declared->min_nodes;	/* the advisor's first count */
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
	char line[128];
	double noisy = samples + uniform(p) * SIMPROF_NOISE * rate *
	    SIMPROF_EVERY;
	int n;

	if (noisy < p->last)
		noisy = p->last;
	p->last = noisy = round(noisy);
	n = snprintf(line, sizeof line, "%.3f %ld %.0f\n", t, nodes, noisy);

	if (p->len + (size_t)n + 1 > p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 4096;
		char *q = realloc(p->log, cap);
		if (q == NULL)
			return diag_errno(d, ENOMEM, "%s", p->declared->name);
		p->log = q;
		p->cap = cap;
	}
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
	pts = calloc(pr->npoints + PROFILE_LAW_POINTS, sizeof *pts);
	if (pts == NULL)
		return diag_errno(d, ENOMEM, "%s", p->declared->name);
	/* Online, nothing is declared: the oracle curve stays unknown. */
	n = profile_curve(pr, NULL, 0, p->declared->max_nodes, pts);
	free(p->points);
	p->points = pts;
	p->belief.points = pts;
	p->belief.npoints = n;
	return 0;
}

int
simprof_update(struct simprof *p, double t, struct diag *d)
{
	struct profile pr;
	int rc;

	if (!p->dirty || (p->seg > SIMPROF_YOUNG && t - p->fitted <
	    SIMPROF_REFIT))
		return 0;
	p->dirty = 0;
	p->fitted = t;
	memset(&pr, 0, sizeof pr);
	if (profile_from_log(&pr, p->declared->name, p->declared->name,
	    p->log, p->len, p->declared, d) < 0)
		return -1;
	rc = believe(p, &pr, d);
	if (rc == 0) {
		profile_rescale(&pr, p->declared, &p->belief.rescale_up,
		    &p->belief.rescale_down);
		p->probe = pr.next_nodes;
	}
	profile_free(&pr);
	return rc;
}

void
simprof_free(struct simprof *p)
{
	free(p->points);
	free(p->log);
	memset(p, 0, sizeof *p);
}
