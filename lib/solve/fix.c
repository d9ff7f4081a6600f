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

#include "util/now.h"

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

/*
 * Lagrange's subproblem at the multipliers k->mult (reduced costs k->r):
 * its value, and in x[col] (0 or 1) a minimiser: per kept row a knapsack
 * solved forwards with its choices kept for the way back, per job outside
 * them its least reduced cost (the first of equals).
 */
static int
subproblem(const struct work *k, double *x, double *value)
{
	const struct milp *m = k->m;
	size_t i, j, t, q, n, width, *idx = malloc((k->njobs + 1) *
	    sizeof *idx);
	double L = 0;

	if (idx == NULL)
		return -1;
	memset(x, 0, m->ncols * sizeof *x);
	for (i = 0; i < m->nrows; i++)
		L += k->mult[i] * m->rhs[i];
	for (j = 0; j < k->njobs; j++) {
		double best = INFINITY;
		int at = -1;
		if (k->block[j] >= 0)
			continue;
		for (q = k->live0[j]; q < k->live0[j + 1]; q++)
			if (k->r[k->live[q]] < best) {
				best = k->r[k->live[q]];
				at = k->live[q];
			}
		if (at >= 0)
			x[at] = 1;
		L += best;
	}
	for (i = 0; i < m->nrows; i++) {
		long cap, c;
		double *P;
		int *pick;
		if (k->role[i] != FIX_BLOCK)
			continue;
		if ((n = block_jobs(k, i, idx, &cap)) == 0)
			continue;
		width = (size_t)cap + 1;
		P = malloc((n + 1) * width * sizeof *P);
		pick = malloc((n + 1) * width * sizeof *pick);
		if (P == NULL || pick == NULL) {
			free(P), free(pick), free(idx);
			return -1;
		}
		for (c = 0; c <= cap; c++)
			P[c] = 0;
		for (t = 0; t < n; t++) {
			const double *from = P + t * width;
			double *to = P + (t + 1) * width;
			int *pk = pick + t * width;
			for (c = 0; c <= cap; c++)
				to[c] = INFINITY, pk[c] = -1;
			for (q = k->live0[idx[t]]; q < k->live0[idx[t] + 1];
			    q++) {
				int col = k->live[q];
				long a = k->w[col];
				for (c = a; c <= cap; c++)
					if (from[c - a] + k->r[col] < to[c]) {
						to[c] = from[c - a] + k->r[col];
						pk[c] = col;
					}
			}
		}
		L += P[n * width + (size_t)cap];
		for (c = cap, t = n; t-- > 0;) {
			int col = pick[t * width + (size_t)c];
			if (col < 0)
				break;
			x[col] = 1;
			c -= k->w[col];
		}
		free(P), free(pick);
	}
	free(idx);
	*value = L;
	return 0;
}

/*
 * The multipliers of the priced rows raised by subgradient steps
 * (Polyak's, towards target): L(y) is concave, and rhs - A x(y) a
 * supergradient at y.  mult[] keeps the best found; *bound its L.  At
 * most iters steps, and none begun after seconds (one at least).
 */
int
fix_improve(const struct milp *m, const struct fix_job *jobs, size_t njobs,
    const char *role, double *mult, double target, int iters, double seconds,
    double *bound, struct diag *d)
{
	struct work k;
	double *x, *g, *y, best = -INFINITY, theta = 1, L;
	double until = now_mono() + seconds;
	size_t i, e;
	int it, stall = 0, rc = 0;

	memset(&k, 0, sizeof k);
	k.m = m, k.jobs = jobs, k.njobs = njobs;
	k.role = malloc(m->nrows + 1);
	k.r = malloc((m->ncols + 1) * sizeof *k.r);
	k.w = calloc(m->ncols + 1, sizeof *k.w);
	k.block = malloc((njobs + 1) * sizeof *k.block);
	k.mult = y = malloc((m->nrows + 1) * sizeof *y);
	x = malloc((m->ncols + 1) * sizeof *x);
	g = malloc((m->nrows + 1) * sizeof *g);
	if (k.role == NULL || k.r == NULL || k.w == NULL || k.block == NULL ||
	    y == NULL || x == NULL || g == NULL || live_columns(&k) < 0) {
		work_free(&k), free(y), free(x), free(g);
		return diag_errno(d, ENOMEM, "fix: multipliers");
	}
	memcpy(k.role, role, m->nrows);
	memcpy(y, mult, m->nrows * sizeof *y);
	if (assign_blocks(&k, d) < 0) {
		work_free(&k), free(y), free(x), free(g);
		return -1;
	}
	if (price_large(&k) < 0)
		rc = -1;
	for (it = 0; rc == 0 && it < iters && (it == 0 || now_mono() < until);
	    it++) {
		double norm = 0;
		reduce(&k);
		if (subproblem(&k, x, &L) < 0) {
			rc = -1;
			break;
		}
		if (it == 0 || L > best + 1e-12 * fabs(best)) {
			best = L;
			memcpy(mult, y, m->nrows * sizeof *y);
			stall = 0;
		} else if (++stall >= 4) {
			theta /= 2;
			stall = 0;
		}
		if (target - L <= 0)
			break;
		for (i = 0; i < m->nrows; i++)
			g[i] = k.role[i] == FIX_PRICE ? m->rhs[i] : 0;
		for (e = 0; e < m->nz; e++)
			if (k.role[m->trow[e]] == FIX_PRICE)
				g[m->trow[e]] -= m->tval[e] * x[m->tcol[e]];
		for (i = 0; i < m->nrows; i++) {
			if (k.role[i] != FIX_PRICE)
				continue;
			/* a row whose sign pins y at 0 and pushes on: no move */
			if ((m->sense[i] == 'L' && y[i] >= 0 && g[i] > 0) ||
			    (m->sense[i] == 'G' && y[i] <= 0 && g[i] < 0))
				g[i] = 0;
			norm += g[i] * g[i];
		}
		if (norm == 0)
			break;	/* x(y) meets every priced row: L is optimal */
		for (i = 0; i < m->nrows; i++)
			if (k.role[i] == FIX_PRICE)
				y[i] += theta * (target - L) / norm * g[i];
	}
	work_free(&k), free(y), free(x), free(g);
	if (rc < 0)
		return diag_errno(d, ENOMEM, "fix: multipliers");
	*bound = best;
	return 0;
}
