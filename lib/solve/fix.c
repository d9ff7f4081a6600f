/*
 * NAME
 *	fix - bounds that let columns of the compact model be fixed at 0
 * DESCRIPTION
 *	See fix.h.  A kept row's knapsack is solved forwards (P[t][c]: the
 *	least reduced cost of its first t jobs within c) and backwards
 *	(S[t][c]: of its jobs from t on), so that the bound with one column
 *	forced is min over c of P[t][c] + S[t + 1][rhs - a - c], plus the
 *	column's own reduced cost: exact, in O(live columns x rhs).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solve/fix.h"

struct work {
	const struct milp *m;
	const struct fix_job *jobs;
	size_t njobs;
	char *role;		/* a copy: a kept row too large is priced */
	double *mult;
	double *r;		/* reduced cost per column */
	long *w;		/* weight in its job's kept row, per column */
	long *block;		/* kept row of each job, or -1 */
	int *live;		/* the columns not fixed at 0, job by job */
	size_t *live0;		/* job j's are live[live0[j] .. live0[j + 1]) */
};

static int
out(const struct milp *m, int q)
{
	return m->lb[q] == 0 && m->ub[q] == 0;
}

/* The multiplier's sign that keeps Lagrange's bound a bound. */
static double
valid_mult(char sense, double y)
{
	if (!isfinite(y) || (sense == 'L' && y > 0) || (sense == 'G' && y < 0))
		return 0;
	return y;
}

static int
integral(double v)
{
	return v >= 0 && v <= 1e9 && v == floor(v);
}

static int
live_columns(struct work *k)
{
	size_t j, q, n = 0;

	k->live = malloc((k->m->ncols + 1) * sizeof *k->live);
	k->live0 = malloc((k->njobs + 1) * sizeof *k->live0);
	if (k->live == NULL || k->live0 == NULL)
		return -1;
	for (j = 0; j < k->njobs; j++) {
		k->live0[j] = n;
		for (q = 0; q < k->jobs[j].n; q++)
			if (!out(k->m, k->jobs[j].col0 + (int)q))
				k->live[n++] = k->jobs[j].col0 + (int)q;
	}
	k->live0[k->njobs] = n;
	return 0;
}

/* Each column's job, from the jobs' ranges. */
static long *
col_jobs(const struct work *k)
{
	long *job = malloc((k->m->ncols + 1) * sizeof *job);
	size_t j, q;

	if (job == NULL)
		return NULL;
	for (q = 0; q < k->m->ncols; q++)
		job[q] = -1;
	for (j = 0; j < k->njobs; j++)
		for (q = 0; q < k->jobs[j].n; q++)
			job[k->jobs[j].col0 + (int)q] = (long)j;
	return job;
}

/*
 * Which kept row each job is in, and the weights; a kept row that is not
 * "<= rhs" with integer coefficients >= 0, or that shares a job with
 * another, is a caller's error.
 */
static int
assign_blocks(struct work *k, struct diag *d)
{
	const struct milp *m = k->m;
	long *job = col_jobs(k);
	size_t e, j;

	if (job == NULL)
		return diag_errno(d, ENOMEM, "fix");
	for (j = 0; j < k->njobs; j++)
		k->block[j] = -1;
	for (e = 0; e < m->nz; e++) {
		int i = m->trow[e], q = m->tcol[e];
		if (k->role[i] != FIX_BLOCK)
			continue;
		if (job[q] < 0 || m->sense[i] != 'L' || !integral(m->tval[e]) ||
		    !(m->rhs[i] >= 0) || (k->block[job[q]] >= 0 &&
		    k->block[job[q]] != i)) {
			free(job);
			return diag_set(d, EX_SOFTWARE, "fix: row %s cannot be "
			    "kept", m->rowname[i]);
		}
		k->block[job[q]] = i;
		k->w[q] = (long)m->tval[e];
	}
	free(job);
	return 0;
}

/* Reduced costs: the objective less the priced rows' multiples. */
static void
reduce(struct work *k)
{
	const struct milp *m = k->m;
	size_t e, i;

	for (i = 0; i < m->nrows; i++)
		if (k->role[i] == FIX_PRICE)
			k->mult[i] = valid_mult(m->sense[i], k->mult[i]);
		else
			k->mult[i] = 0;
	memcpy(k->r, m->obj, m->ncols * sizeof *k->r);
	for (e = 0; e < m->nz; e++)
		if (k->role[m->trow[e]] == FIX_PRICE)
			k->r[m->tcol[e]] -= k->mult[m->trow[e]] * m->tval[e];
}

static double
least(const struct work *k, size_t j)
{
	double best = INFINITY;
	size_t q;

	for (q = k->live0[j]; q < k->live0[j + 1]; q++)
		if (k->r[k->live[q]] < best)
			best = k->r[k->live[q]];
	return best;
}

/* One step of the knapsack: to[c] from from[] over job j's choices. */
static void
step(const struct work *k, size_t j, long cap, const double *from,
    double *to)
{
	long c;
	size_t q;

	for (c = 0; c <= cap; c++)
		to[c] = INFINITY;
	for (q = k->live0[j]; q < k->live0[j + 1]; q++) {
		int col = k->live[q];
		long a = k->w[col];
		double r = k->r[col];
		for (c = a; c <= cap; c++)
			if (from[c - a] + r < to[c])
				to[c] = from[c - a] + r;
	}
}

/*
 * One kept row over its jobs idx[0..n): its knapsack's least reduced cost
 * in *value, and in forced[col] the same with that column forced.
 */
static int
block(const struct work *k, const size_t *idx, size_t n, long cap,
    double *value, double *forced)
{
	size_t width = (size_t)cap + 1, t, q;
	double *P = malloc((n + 1) * width * sizeof *P);
	double *S = malloc((n + 1) * width * sizeof *S);
	long c;

	if (P == NULL || S == NULL) {
		free(P), free(S);
		return -1;
	}
	for (c = 0; c <= cap; c++)
		P[c] = S[n * width + (size_t)c] = 0;
	for (t = 0; t < n; t++)
		step(k, idx[t], cap, P + t * width, P + (t + 1) * width);
	for (t = n; t-- > 0;)
		step(k, idx[t], cap, S + (t + 1) * width, S + t * width);
	*value = P[n * width + (size_t)cap];
	for (t = 0; t < n; t++) {
		const double *p = P + t * width, *s = S + (t + 1) * width;
		for (q = k->live0[idx[t]]; q < k->live0[idx[t] + 1]; q++) {
			int col = k->live[q];
			long a = k->w[col];
			double best = INFINITY;
			for (c = 0; c + a <= cap; c++)
				if (p[c] + s[cap - a - c] < best)
					best = p[c] + s[cap - a - c];
			forced[col] = best + k->r[col];
		}
	}
	free(P), free(S);
	return 0;
}

/* The jobs of kept row i, in job order, and its useful capacity. */
static size_t
block_jobs(const struct work *k, size_t i, size_t *idx, long *cap)
{
	double most = 0;
	size_t j, n = 0, q;

	for (j = 0; j < k->njobs; j++) {
		long top = 0;
		if (k->block[j] != (long)i)
			continue;
		idx[n++] = j;
		for (q = k->live0[j]; q < k->live0[j + 1]; q++)
			if (k->w[k->live[q]] > top)
				top = k->w[k->live[q]];
		most += (double)top;
	}
	*cap = (long)(k->m->rhs[i] < most ? k->m->rhs[i] : most);
	return n;
}

/* Kept rows too large for their tables are priced instead. */
static int
price_large(struct work *k)
{
	size_t i, j, n, *idx = malloc((k->njobs + 1) * sizeof *idx);
	long cap;

	if (idx == NULL)
		return -1;
	for (i = 0; i < k->m->nrows; i++) {
		if (k->role[i] != FIX_BLOCK)
			continue;
		n = block_jobs(k, i, idx, &cap);
		if ((double)(n + 1) * ((double)cap + 1) <= (double)FIX_BLOCK_MAX)
			continue;
		k->role[i] = FIX_PRICE;
		for (j = 0; j < k->njobs; j++)
			if (k->block[j] == (long)i)
				k->block[j] = -1;
	}
	free(idx);
	return 0;
}

static int
bounds(struct work *k, double *colbound, double *bound)
{
	const struct milp *m = k->m;
	size_t i, j, q, *idx = malloc((k->njobs + 1) * sizeof *idx);
	double L = 0, *part = calloc(k->njobs + 1, sizeof *part);

	if (idx == NULL || part == NULL) {
		free(idx), free(part);
		return -1;
	}
	for (i = 0; i < m->nrows; i++)
		L += k->mult[i] * m->rhs[i];
	for (j = 0; j < k->njobs; j++)
		if (k->block[j] < 0) {
			part[j] = least(k, j);
			L += part[j];
		}
	for (q = 0; q < m->ncols; q++)
		colbound[q] = INFINITY;
	for (i = 0; i < m->nrows; i++) {
		long cap;
		size_t n;
		double v;
		if (k->role[i] != FIX_BLOCK)
			continue;
		if ((n = block_jobs(k, i, idx, &cap)) == 0)
			continue;
		if (block(k, idx, n, cap, &v, colbound) < 0) {
			free(idx), free(part);
			return -1;
		}
		for (q = 0; q < n; q++)
			part[idx[q]] = v;	/* the row's value, on its jobs */
		L += v;
	}
	/* colbound so far: a kept row's forced value; now the whole bound */
	for (j = 0; j < k->njobs; j++)
		for (q = k->live0[j]; q < k->live0[j + 1]; q++) {
			int col = k->live[q];
			double own = k->block[j] < 0 ? k->r[col] : colbound[col];
			colbound[col] = L - part[j] + own;
		}
	*bound = L;
	free(idx), free(part);
	return 0;
}

/*
 * A margin above the rounding of the bounds: each is a sum of at most
 * jobs + rows terms, each within a few DBL_EPSILON of its magnitude.
 */
static double
tolerance(const struct work *k)
{
	const struct milp *m = k->m;
	double sum = 0, *mag = calloc(m->ncols + 1, sizeof *mag);
	size_t e, i, j, q;

	if (mag == NULL)
		return INFINITY;	/* fixes nothing */
	for (q = 0; q < m->ncols; q++)
		mag[q] = fabs(m->obj[q]);
	for (e = 0; e < m->nz; e++)
		mag[m->tcol[e]] += fabs(k->mult[m->trow[e]] * m->tval[e]);
	for (i = 0; i < m->nrows; i++)
		sum += fabs(k->mult[i] * m->rhs[i]);
	for (j = 0; j < k->njobs; j++) {
		double top = 0;
		for (q = k->live0[j]; q < k->live0[j + 1]; q++)
			if (mag[k->live[q]] > top)
				top = mag[k->live[q]];
		sum += top;
	}
	free(mag);
	/* (jobs + rows) x DBL_EPSILON stays far below 1e-9 up to 1e6 jobs */
	return 1e-9 * sum + DBL_MIN;
}

static void
work_free(struct work *k)
{
	free(k->role), free(k->r), free(k->w), free(k->block);
	free(k->live), free(k->live0);
}

int
fix_bounds(const struct milp *m, const struct fix_job *jobs, size_t njobs,
    const char *role, double *mult, double *colbound, double *bound,
    double *tol, struct diag *d)
{
	struct work k;

	memset(&k, 0, sizeof k);
	k.m = m, k.jobs = jobs, k.njobs = njobs, k.mult = mult;
	k.role = malloc(m->nrows + 1);
	k.r = malloc((m->ncols + 1) * sizeof *k.r);
	k.w = calloc(m->ncols + 1, sizeof *k.w);
	k.block = malloc((njobs + 1) * sizeof *k.block);
	if (k.role == NULL || k.r == NULL || k.w == NULL || k.block == NULL ||
	    live_columns(&k) < 0) {
		work_free(&k);
		return diag_errno(d, ENOMEM, "fix: bounds");
	}
	memcpy(k.role, role, m->nrows);
	if (assign_blocks(&k, d) < 0) {
		work_free(&k);
		return -1;
	}
	if (price_large(&k) < 0 || (reduce(&k), bounds(&k, colbound,
	    bound)) < 0) {
		work_free(&k);
		return diag_errno(d, ENOMEM, "fix: bounds");
	}
	*tol = tolerance(&k);
	work_free(&k);
	return 0;
}

/*
 * L(y) with one row the only one priced, no row kept: for a row "<=" with
 * coefficients a >= 0, y = -lambda and L = -lambda rhs + sum over jobs of
 * min (c + lambda a), concave in lambda.  Its slope at lambda is
 * used(lambda) - rhs, used the sum of a at the jobs' minima (the least a
 * among equal minima: the slope to the right); bisection finds where it
 * turns.
 */
static double
used(const struct milp *m, const struct fix_job *jobs, size_t njobs,
    const double *a, double lambda)
{
	double s = 0, best, ab;
	size_t j, q;

	for (j = 0; j < njobs; j++) {
		best = INFINITY, ab = 0;
		for (q = 0; q < jobs[j].n; q++) {
			int col = jobs[j].col0 + (int)q;
			double v = m->obj[col] + lambda * a[col];
			if (out(m, col))
				continue;
			if (v < best || (v == best && a[col] < ab)) {
				best = v;
				ab = a[col];
			}
		}
		s += ab;
	}
	return s;
}

double
fix_price_one(const struct milp *m, const struct fix_job *jobs,
    size_t njobs, size_t row)
{
	double *a = calloc(m->ncols + 1, sizeof *a), lo = 0, hi = 0;
	size_t e, j, q;
	int it;

	if (a == NULL || m->sense[row] != 'L')
		return free(a), 0;
	for (e = 0; e < m->nz; e++)
		if ((size_t)m->trow[e] == row) {
			if (m->tval[e] < 0)
				return free(a), 0;
			a[m->tcol[e]] = m->tval[e];
		}
	/* beyond the widest spread of a job's costs, every job takes its
	 * least a: no lambda above helps */
	for (j = 0; j < njobs; j++) {
		double top = -INFINITY, bot = INFINITY;
		for (q = 0; q < jobs[j].n; q++) {
			int col = jobs[j].col0 + (int)q;
			if (out(m, col))
				continue;
			top = fmax(top, m->obj[col]);
			bot = fmin(bot, m->obj[col]);
		}
		if (top > bot && top - bot > hi)
			hi = top - bot;
	}
	if (!(used(m, jobs, njobs, a, 0) > m->rhs[row])) {
		free(a);
		return 0;	/* the row does not bind: lambda = 0 */
	}
	hi += 1;
	for (it = 0; it < 100 && hi - lo > 1e-12 * hi; it++) {
		double mid = lo + (hi - lo) / 2;
		if (used(m, jobs, njobs, a, mid) > m->rhs[row])
			lo = mid;
		else
			hi = mid;
	}
	free(a);
	return -hi;
}
