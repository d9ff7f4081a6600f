/*
 * NAME
 *	solve_horizon - the look-ahead of one decision: fixed, or the idle
 *	nodes' expected remaining idle time
 * DESCRIPTION
 *	See solve.h.  One T per decision, as bf-sim's --horizon learnt
 *	(simhorizon.h): the compact model and its dynamic program stay as
 *	they are, a column per job and count; the horizon is one pass over
 *	the idle nodes.  The free nodes are those a grow takes; with none
 *	free, T weighs only stops and shrinks, over all idle nodes.  A node
 *	older than the learnt data support has no expected time and is
 *	left out of the mean.  With a cap (--horizon-cap) T is at most the
 *	cap: T weighs a rescale's cost against the rate it buys for as long
 *	as the nodes stay idle, and an allocation changes again long before
 *	a mean of hours is over (bench/lifetimes.md, the cells with a cap);
 *	as bf-sim's, the cap bounds the fallback -T too.  T is rounded to
 *	the millisecond through its decimal text, so that the plan's tfwd
 *	read back (bf-audit) is the very T used; a cap that binds is taken
 *	down to the millisecond first, so that T never passes it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "solve/solve.h"

double
solve_horizon(struct solve *s, const struct solve_opts *o)
{
	struct lifetime_mean mean = LIFETIME_MEAN_INIT;
	double r, t;
	size_t i;
	char text[64];
	long long now = s->holes.time;

	s->horizon_nodes = 0;
	if (o->horizon == SOLVE_HORIZON_FIXED)
		return o->tfwd;	/* as given: -T is not rounded */
	for (i = 0; i < s->holes.n; i++) {
		const struct holes_node *n = &s->holes.nodes[i];
		if (n->until > 0)	/* the scheduler's word wins */
			r = n->until > now ? (double)(n->until - now) : 0;
		else if (o->life != NULL)
			r = lifetime_table_remaining(o->life, n->name, now);
		else
			continue;
		lifetime_mean_add(&mean, r, s->holder[i] < 0);
	}
	if (!lifetime_mean(&mean, &t, &s->horizon_nodes)) {
		if (o->horizon_cap <= 0 || o->tfwd <= o->horizon_cap)
			return o->tfwd;	/* as given, as fixed */
		t = o->tfwd;
	}
	if (o->horizon_cap > 0 && t > o->horizon_cap)
		t = floor(o->horizon_cap * 1000) / 1000;
	if (t > SOLVE_HORIZON_MAX)
		t = SOLVE_HORIZON_MAX;
	snprintf(text, sizeof text, "%.3f", t);
	return strtod(text, NULL);
}
