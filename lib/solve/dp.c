/*
 * NAME
 *	dp - exact dynamic program for the compact model without policies
 * DESCRIPTION
 *	See dp.h.  f[c] is the best value of the jobs so far using at most c
 *	free nodes; two rows of f and the table of choices are all it keeps.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "solve/dp.h"

static int
has_zero_grow(const struct dp_job *j)
{
	size_t i;

	for (i = 0; i < j->n; i++)
		if (j->grow[i] == 0)
			return 1;
	return 0;
}

/* One job's row: cur[c] from prev[] over all of its choices. */
static void
dp_row(const struct dp_job *j, long capacity, const double *prev,
    double *cur, uint32_t *pick)
{
	long c;
	size_t i;

	for (c = 0; c <= capacity; c++) {
		double best = 0;
		uint32_t bi = UINT32_MAX;
		for (i = 0; i < j->n; i++) {
			double v;
			if (j->grow[i] > c)
				continue;
			v = prev[c - j->grow[i]] + j->value[i];
			if (bi == UINT32_MAX || v > best) {
				best = v;
				bi = (uint32_t)i;
			}
		}
		cur[c] = best;
		pick[c] = bi;
	}
}

int
dp_solve(const struct dp_job *jobs, size_t njobs, long capacity,
    size_t *choice, double *best, struct diag *d)
{
	size_t width, j;
	double *prev, *cur;
	uint32_t *pick;
	long c;

	if (capacity < 0)
		capacity = 0;
	for (j = 0; j < njobs; j++)
		if (!has_zero_grow(&jobs[j]))
			return diag_set(d, EX_SOFTWARE, "dp: job %zu has no "
			    "choice without growth", j);
	width = (size_t)capacity + 1;
	prev = calloc(width, sizeof *prev);
	cur = calloc(width, sizeof *cur);
	pick = malloc((njobs ? njobs : 1) * width * sizeof *pick);
	if (prev == NULL || cur == NULL || pick == NULL) {
		free(prev), free(cur), free(pick);
		return diag_errno(d, ENOMEM, "dp: %zu x %zu table", njobs,
		    width);
	}
	for (j = 0; j < njobs; j++) {
		double *t;
		dp_row(&jobs[j], capacity, prev, cur, pick + j * width);
		t = prev, prev = cur, cur = t;
	}
	*best = prev[capacity];
	for (c = capacity, j = njobs; j-- > 0;) {
		size_t i = pick[j * width + (size_t)c];
		choice[j] = i;
		c -= jobs[j].grow[i];
	}
	free(prev), free(cur), free(pick);
	return 0;
}
