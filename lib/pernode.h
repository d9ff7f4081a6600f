/*
 * NAME
 *	pernode - BFTrainer's own model: a binary per (job, node)
 * SYNOPSIS
 *	pernode_build(&m, jobs, njobs, nnodes, holder, tfwd);
 *	milp_solve(&m, 120, NULL, x, &status, &d);
 *	pernode_counts(x, njobs, nnodes, counts);
 * DESCRIPTION
 *	The model as the BFTrainer paper (arXiv 2106.12091) states it, kept
 *	for auditors and as the benchmark baseline.  Columns, J a job's
 *	index and I a node's:
 *
 *	x_J_I	1 when job J gets node I (binary; the first njobs x nnodes
 *		columns, job-major, so counts are sums of slices)
 *	z_J	1 when job J runs;  u_J, d_J  1 when it grows, shrinks
 *	s_J_S	nodes on segment S of J's rate curve (0..length)
 *	b_J_S	1 when segment S is in use (S >= 2)
 *
 *	Rows: node_I  sum_J x_J_I <= 1 (a node serves one job);
 *	mig_I  sum_{J != holder} x_J_I <= 0 for a node held now (no
 *	migration); lo_J, hi_J  min z <= n_J <= max z with n_J = sum_I x_J_I;
 *	up_J  n_J - N u_J <= C_J;  dn_J  n_J + C_J d_J >= C_J;  cnt_J
 *	sum_S s_J_S = n_J; and the incremental (segment-binary) form of the
 *	piecewise-linear curve: fill_J_S  s_J_(S-1) >= len_(S-1) b_J_S,
 *	act_J_S  s_J_S <= len_S b_J_S, which is exact for any curve, concave
 *	or not.  The breakpoints are 0, the measured node counts below max
 *	and max, so that r_J(n) = sum_S slope_S s_J_S equals curve_rate().
 *	The objective is the same as the compact model's, negated:
 *	minimise sum_J w_J (cost_up u_J + cost_down d_J - tfwd r_J(n_J)).
 * DIAGNOSTICS
 *	pernode_build() returns -1 when memory runs out.
 */
#ifndef BF_PERNODE_H
#define BF_PERNODE_H

#include <stddef.h>

#include "job.h"
#include "milp.h"

struct pernode_job {
	long min, max, held;	/* held: C_J */
	double weight, cost_up, cost_down;	/* costs in samples */
	const struct job_point *points;
	size_t npoints;
};

int pernode_build(struct milp *m, const struct pernode_job *jobs,
    size_t njobs, size_t nnodes, const long *holder, double tfwd);
void pernode_counts(const double *x, size_t njobs, size_t nnodes,
    long *counts);

#endif
