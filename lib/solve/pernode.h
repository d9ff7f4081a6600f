/*
 * NAME
 *	pernode - the per-node models: a binary per (job, node)
 * SYNOPSIS
 *	pernode_build(&m, jobs, njobs, nnodes, holder, tfwd, form);
 *	milp_solve(&m, 120, NULL, x, &status, &d);
 *	pernode_counts(x, njobs, nnodes, counts);
 * DESCRIPTION
 *	Two models with a binary x_J_I per job J and node I (the first
 *	njobs x nnodes columns, job-major, so counts are sums of slices),
 *	n_J = sum_I x_J_I, C_J the nodes J holds now, c_J_I 1 when J holds
 *	I now, M = nnodes + 1, F the nodes nobody holds.  Both have the
 *	objective of the compact model, negated.
 *
 *	PERNODE_BFTRAINER is BFTrainer's own model, row for row as its
 *	public code (progMIP.py, re_allocate) states it but for the three
 *	changes below, kept for auditors and as the benchmark baseline:
 *
 *	node_I	sum_J x_J_I <= 1
 *	min_J, min0_J	n_J >= min - M' a_J,  n_J <= M (1 - a_J)
 *	max_J, max0_J	n_J <= max + M b_J,  n_J <= M (1 - b_J)
 *	xa_J_I .. xd_J_I  e_J_I = x_J_I xor c_J_I by four rows:
 *		e <= x + c, e >= x - c, e >= c - x, e <= 2 - x - c
 *	mgu_J, mgd_J	n_J - C_J >= sum_I e_J_I - M'' g_J,
 *		n_J - C_J <= -sum_I e_J_I + M'' (1 - g_J): a job only grows by
 *		the nodes it changes, or only shrinks
 *	cnv_J, cnt_J	sum_P w_J_P = 1, n_J = sum_P N_P w_J_P, w in [0, 1]
 *	seg_J, adj_J_P	SOS2 on w_J by segment binaries: sum_S z_J_S = 1,
 *		w_J_P <= z_J_P + z_J_(P+1) (z_J_S: segment S, between points
 *		S-1 and S)
 *	upa_J, upb_J	n_J <= C + (M - C) up_J,  n_J >= (C + 1) up_J
 *	dwa_J, dwb_J	n_J <= (C - 1) + (M - C + 1)(1 - dw_J),
 *		n_J >= C (1 - dw_J)
 *	objective  minimise sum_J w_J (cost_up up_J + cost_down dw_J -
 *		tfwd sum_P R_P w_J_P)
 *
 *	grow	sum_J sum_{I: c_J_I = 0} x_J_I <= F
 *
 *	The three changes, each needed for the optimum to equal the compact
 *	model's (t3010's instances differ without the first two):
 *	- M' = max(M, min) and M'' = 2 N + 1 where BFTrainer has M: with M,
 *	  min_J forbids n_J = 0 when min > N + 1, and mgu_J, mgd_J forbid
 *	  growing or shrinking by more than (N + 1) / 2 nodes.
 *	- the row grow, not in BFTrainer: its rows let a node released by a
 *	  shrinking job go to a growing one in the same decision, and
 *	  bftrainer never moves a node between jobs in one decision (SPEC).
 *	  A growing job keeps all its nodes, so the left side is the total
 *	  growth: this is the compact model's row grow, written on x.
 *	- the point (0, 0): BFTrainer's Ns start at 1 in its ImageNet data,
 *	  where n_J = 0 could not be stated.
 *	The points (N_P, R_P) are (0, 0), the measured points strictly
 *	between 0 and max, and (max, r(max)), the rates by curve_rate():
 *	that curve is linear from (0, 0) and beyond the last measured point,
 *	so on integer counts sum_P R_P w_J_P equals curve_rate().
 *
 *	PERNODE_TIGHT is our reformulation, not BFTrainer's: the same x,
 *	but no migration as one row per held node I, mig_I  sum_{J != holder}
 *	x_J_I <= 0 (which CBC's presolve turns into fixed columns);
 *	lo_J, hi_J  min z_J <= n_J <= max z_J; up_J  n_J - N u_J <= C_J;
 *	dn_J  n_J + C_J d_J >= C_J; cnt_J  sum_S s_J_S = n_J; and the
 *	incremental (segment-binary) curve: s_J_S the nodes on segment S
 *	(0..length), b_J_S 1 when S is in use (S >= 2), fill_J_S
 *	s_J_(S-1) >= len_(S-1) b_J_S, act_J_S  s_J_S <= len_S b_J_S, with
 *	breakpoints 0, the measured counts below max and max.
 * DIAGNOSTICS
 *	pernode_build() returns -1 when memory runs out.
 */
#ifndef BF_PERNODE_H
#define BF_PERNODE_H

#include <stddef.h>

#include "solve/milp.h"
#include "spool/job.h"

enum pernode_form { PERNODE_BFTRAINER, PERNODE_TIGHT };

struct pernode_job {
	long min, max, held;	/* held: C_J */
	double weight, cost_up, cost_down;	/* costs in samples */
	const struct job_point *points;
	size_t npoints;
};

int pernode_build(struct milp *m, const struct pernode_job *jobs,
    size_t njobs, size_t nnodes, const long *holder, double tfwd,
    enum pernode_form form);
void pernode_counts(const double *x, size_t njobs, size_t nnodes,
    long *counts);

#endif
