/*
 * NAME
 *	dp - exact dynamic program for the compact model without policies
 * SYNOPSIS
 *	struct dp_job jobs[n] = {{ nchoice, grow, value }, ...};
 *	dp_solve(jobs, n, free_nodes, choice, &best, &d);
 * DESCRIPTION
 *	Each job picks exactly one of its choices; choice i uses grow[i] of
 *	the free nodes and is worth value[i]; the grows together may not
 *	exceed capacity.  This is a multiple-choice knapsack, solved exactly
 *	over capacities 0..capacity in O(jobs x capacity x choices) time and
 *	jobs x (capacity + 1) choice indices of memory.  Every job must have
 *	a choice with grow 0 (keeping or shrinking), so that a solution
 *	always exists.  Ties go to the lowest choice index, and to the lower
 *	capacity, so the answer is deterministic.
 * DIAGNOSTICS
 *	-1 with d set: 70 when a job has no choice of grow 0, 71 out of memory.
 */
#ifndef BF_DP_H
#define BF_DP_H

#include <stddef.h>

#include "util/log.h"

struct dp_job {
	size_t n;
	const long *grow;
	const double *value;
};

int dp_solve(const struct dp_job *jobs, size_t njobs, long capacity,
    size_t *choice, double *best, struct diag *d);

#endif
