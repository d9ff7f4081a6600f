/*
 * NAME
 *	curve - a job's rate at any node count, from its measured points
 * DESCRIPTION
 *	See curve.h.  Binary search keeps a whole-machine table of rates
 *	(jobs x nodes) cheap to build.
 */
#include "profile/curve.h"

static double
beyond_last(const struct job_point *p, size_t n, long nodes)
{
	const struct job_point *last = &p[n - 1];
	double linear = last->rate * (double)nodes / (double)last->nodes;
	double slope, r;

	if (n == 1)
		return linear;
	slope = (last->rate - p[n - 2].rate) /
	    (double)(last->nodes - p[n - 2].nodes);
	r = last->rate + slope * (double)(nodes - last->nodes);
	if (r > linear)
		r = linear;
	if (r < last->rate)
		r = last->rate;
	return r;
}

double
curve_rate(const struct job_point *p, size_t n, long nodes)
{
	size_t lo = 0, hi;

	if (nodes <= 0)
		return 0;
	if (n == 0)
		return CURVE_PROVISIONAL_RATE * (double)nodes;
	if (nodes <= p[0].nodes)
		return p[0].rate * (double)nodes / (double)p[0].nodes;
	if (nodes >= p[n - 1].nodes)
		return nodes == p[n - 1].nodes ? p[n - 1].rate :
		    beyond_last(p, n, nodes);
	/* p[lo].nodes < nodes <= p[hi].nodes */
	hi = n - 1;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (p[mid].nodes < nodes)
			lo = mid;
		else
			hi = mid;
	}
	if (nodes == p[hi].nodes)
		return p[hi].rate;
	return p[lo].rate + (p[hi].rate - p[lo].rate) *
	    (double)(nodes - p[lo].nodes) / (double)(p[hi].nodes - p[lo].nodes);
}
