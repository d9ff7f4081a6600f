/*
 * NAME
 *	fix - bounds that let columns of the compact model be fixed at 0
 * SYNOPSIS
 *	struct fix_job jobs[n] = {{ col0, ncols }, ...};
 *	char role[nrows];			(FIX_ONE, FIX_BLOCK, FIX_PRICE)
 *	double mult[nrows], colbound[ncols], bound, tol;
 *	fix_bounds(&model, jobs, n, role, mult, colbound, &bound, &tol, &d);
 *	mult[row] = fix_price_one(&model, jobs, n, row);
 *	fix_improve(&model, jobs, n, role, mult, target, iters, seconds,
 *	    &bound, &d);
 * DESCRIPTION
 *	The compact model is a minimisation over binary columns in which
 *	each job's columns, contiguous from col0, sum to 1 (its row one_J,
 *	role FIX_ONE).  Of the other rows, those of role FIX_BLOCK are
 *	kept: each is a row "sum <= rhs" with integer coefficients >= 0,
 *	and no job has columns in two of them (the rows user_UID: a job has
 *	one owner).  Those of role FIX_PRICE are priced out: row i gets
 *	the multiplier mult[i], of the sign that makes the bound valid
 *	(<= 0 for a row "<=", >= 0 for ">="; a multiplier of the wrong sign
 *	is taken as 0, and mult[] says so on return).
 *
 *	For such multipliers y, Lagrange's bound
 *
 *		L(y) = sum_i y_i rhs_i + min { (c - sum_i y_i a_i) x :
 *		    x meets the rows one_J and the kept rows }
 *
 *	is at most the objective of every solution of the whole model,
 *	and the minimum splits into one problem per kept row (a knapsack
 *	over its jobs, solved exactly by a dynamic program over 0..rhs)
 *	and one per job outside them (its least reduced cost).  fix_bounds()
 *	puts L(y) in *bound, and in colbound[q] the same bound with column q
 *	forced to 1: no solution that uses q has an objective below it.  So
 *	a column whose colbound exceeds the objective of a known solution
 *	is in no solution as good, and may be fixed at 0 without changing
 *	the optimum or losing any optimal solution.  Any y gives valid
 *	bounds; good ones (the LP relaxation's duals) fix more.
 *
 *	Columns fixed at 0 already (bounds [0, 0]) are left out: their
 *	colbound is infinite, and the others' are bounds over the solutions
 *	without them.  Where every solution worth a threshold T uses only
 *	columns that are not fixed, that is all that is needed to fix more.
 *
 *	fix_price_one() is the best multiplier of row when it alone is
 *	priced and no row is kept (the row grow, without a policy): the
 *	maximum of L over it, found by bisection, L being concave; 0 for a
 *	row it does not take (not "<=", or a coefficient below 0).
 *
 *	fix_improve() raises the multipliers of the rows priced towards
 *	target (the objective of a known solution) by Polyak's subgradient
 *	steps, at most iters of them and none begun once seconds have
 *	passed (one at least): mult[] keeps the best found, *bound its L.
 *
 *	*tol is a margin above the rounding of those sums: a column is to
 *	be fixed only when its bound exceeds the known objective by more.
 *	A kept row whose table would exceed FIX_BLOCK_MAX entries is priced
 *	with its multiplier instead.  On return mult[] holds the multipliers
 *	used: 0 for the kept rows and one_J.
 * DIAGNOSTICS
 *	-1 with d set: 71 out of memory; 70 when a FIX_BLOCK row is not as
 *	described.
 */
#ifndef BF_FIX_H
#define BF_FIX_H

#include <stddef.h>

#include "util/log.h"

#include "solve/milp.h"

enum { FIX_ONE = 'o', FIX_BLOCK = 'b', FIX_PRICE = 'p' };

/* The largest kept row's table, jobs x (rhs + 1) entries, before it is
 * priced instead. */
#define FIX_BLOCK_MAX	(4L * 1024 * 1024)

struct fix_job {
	int col0;
	size_t n;
};

int fix_bounds(const struct milp *m, const struct fix_job *jobs,
    size_t njobs, const char *role, double *mult, double *colbound,
    double *bound, double *tol, struct diag *d);
int fix_improve(const struct milp *m, const struct fix_job *jobs,
    size_t njobs, const char *role, double *mult, double target, int iters,
    double seconds, double *bound, struct diag *d);
double fix_price_one(const struct milp *m, const struct fix_job *jobs,
    size_t njobs, size_t row);

#endif
