/*
 * NAME
 *	simpolicy - how bf-sim decides at an event: the solver or a heuristic
 * DESCRIPTION
 *	See simpolicy.h.  The heuristics are timed like the solver, so the
 *	decision-time figures of all policies compare.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "util/array.h"
#include "profile/curve.h"
#include "sim/simpolicy.h"

static const char *const names[] = { "milp", "dp", "per-node",
	"equal-share", "greedy" };

int
simpolicy_parse(const char *s, enum simpolicy *p)
{
	long i = array_index(names, sizeof names / sizeof names[0], s);

	if (i < 0)
		return -1;
	*p = (enum simpolicy)i;
	return 0;
}

const char *
simpolicy_name(enum simpolicy p)
{
	return names[p];
}

static void
equal_share(struct solve_count *c, size_t n, long nfree)
{
	long total = nfree, share, left;
	size_t j;

	for (j = 0; j < n; j++)
		total += c[j].was;
	share = n ? total / (long)n : 0;
	left = total;
	for (j = 0; j < n; j++) {
		long k = share < c[j].job->max_nodes ? share :
		    c[j].job->max_nodes;
		c[j].nodes = k >= c[j].job->min_nodes ? k : 0;
		left -= c[j].nodes;
	}
	for (j = 0; j < n && left > 0; j++) {
		long more = c[j].job->max_nodes - c[j].nodes;
		if (c[j].nodes == 0 && left < c[j].job->min_nodes)
			continue;
		if (more > left)
			more = left;
		c[j].nodes += more;
		left -= more;
	}
}

/* The objective's value of job c at k nodes (bf-solve(1)). */
static double
value(const struct solve_count *c, long k, double tfwd)
{
	const struct job *j = c->job;
	double now = c->was >= j->min_nodes ?
	    curve_rate(j->points, j->npoints, c->was) : 0;
	double cost = k > c->was ? j->rescale_up * now :
	    k < c->was ? j->rescale_down * now : 0;

	return j->weight * (tfwd * curve_rate(j->points, j->npoints, k) -
	    cost);
}

static void
greedy(struct solve_count *c, size_t n, long nfree, double tfwd)
{
	size_t j, best;
	double gain, top;
	long step, bstep = 0;

	for (j = 0; j < n; j++) {
		c[j].nodes = c[j].was >= c[j].job->min_nodes ? c[j].was : 0;
		nfree += c[j].was - c[j].nodes;
	}
	for (;;) {
		best = n;
		top = 0;
		for (j = 0; j < n; j++) {
			long k = c[j].nodes;
			step = k == 0 ? c[j].job->min_nodes : 1;
			if (k + step > c[j].job->max_nodes || step > nfree)
				continue;
			gain = (value(&c[j], k + step, tfwd) -
			    value(&c[j], k, tfwd)) / (double)step;
			if (gain > top) {
				top = gain;
				best = j;
				bstep = step;
			}
		}
		if (best == n)
			return;
		c[best].nodes += bstep;
		nfree -= bstep;
	}
}

/* Every job keeps what it holds, one below its min_nodes stopping. */
static void
keep_held(struct solve_count *c, size_t n)
{
	size_t j;

	for (j = 0; j < n; j++)
		c[j].nodes = c[j].was >= c[j].job->min_nodes ? c[j].was : 0;
}

/*
 * An admin policy no plan meets: bf-watch's give-back plan (bf-watch(1),
 * FAIL-SAFE), nothing growing or starting.
 */
static void
give_back(struct solve_count *c, size_t n, struct solve_result *res)
{
	keep_held(c, n);
	snprintf(res->status, sizeof res->status, "no-plan");
	res->objective = 0;
}

/* Per-node under its limit: a search stopped by time keeps what is. */
static void
keep_if_stopped(struct solve_count *c, size_t n,
    const struct solve_result *res)
{
	if (strncmp(res->status, "stopped", 7) == 0)
		keep_held(c, n);
}

static double
since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) +
	    (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

int
simpolicy_decide(enum simpolicy p, const struct solve_opts *o,
    struct solve_count *c, size_t n, long nfree, struct solve_result *res,
    struct diag *d)
{
	struct solve_opts so = *o;
	struct timespec t0;

	memset(res, 0, sizeof *res);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	switch (p) {
	case SIMPOLICY_EQUAL:
		equal_share(c, n, nfree);
		break;
	case SIMPOLICY_GREEDY:
		greedy(c, n, nfree, o->tfwd);
		break;
	default:
		so.solver = p == SIMPOLICY_DP ? SOLVE_DP : SOLVE_CBC;
		so.model = p == SIMPOLICY_PERNODE ? SOLVE_PERNODE :
		    SOLVE_COMPACT;
		if (solve_counts(&so, c, n, nfree, res, d) < 0) {
			if (so.policy == NULL ||
			    strcmp(res->status, "infeasible") != 0)
				return -1;
			give_back(c, n, res);
		}
		if (p == SIMPOLICY_PERNODE)
			keep_if_stopped(c, n, res);
		break;
	}
	if (p == SIMPOLICY_EQUAL || p == SIMPOLICY_GREEDY)
		snprintf(res->status, sizeof res->status, "heuristic");
	res->seconds = since(&t0);
	return 0;
}
