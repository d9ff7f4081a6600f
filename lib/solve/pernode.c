/*
 * NAME
 *	pernode - the per-node models: a binary per (job, node)
 * DESCRIPTION
 *	See pernode.h.  A failed allocation makes every later milp call
 *	fail, so one check of m->oom at the end suffices.
 */
#include <float.h>
#include <stdlib.h>

#include "profile/curve.h"
#include "solve/pernode.h"

/*
 * Breakpoints 0 < ... < max: the measured counts strictly inside.  The
 * curve is linear from 0 to the first and from the last to max, so
 * these are all the kinks of curve_rate() on [0, max].
 */
static size_t
breakpoints(const struct pernode_job *j, long *b)
{
	size_t n = 0, i;

	b[n++] = 0;
	for (i = 0; i < j->npoints; i++)
		if (j->points[i].nodes > 0 && j->points[i].nodes < j->max)
			b[n++] = j->points[i].nodes;
	b[n++] = j->max;
	return n;
}

/* The curve of job J: s and b columns and the rows tying them to n_J. */
static void
build_curve(struct milp *m, const struct pernode_job *j, size_t ji,
    int cnt, double tfwd)
{
	long *b = malloc((j->npoints + 2) * sizeof *b);
	int prev_s = -1;
	size_t nb, s;

	if (b == NULL) {
		m->oom = 1;
		return;
	}
	nb = breakpoints(j, b);
	for (s = 1; s < nb; s++) {
		double len = (double)(b[s] - b[s - 1]);
		double slope = (curve_rate(j->points, j->npoints, b[s]) -
		    curve_rate(j->points, j->npoints, b[s - 1])) / len;
		int sc = milp_col(m, -j->weight * tfwd * slope, 0, len, 0,
		    "s_%zu_%zu", ji, s);
		milp_coef(m, cnt, sc, 1);
		if (s >= 2) {
			double plen = (double)(b[s - 1] - b[s - 2]);
			int fill = milp_row(m, 'G', 0, "fill_%zu_%zu", ji, s);
			int act = milp_row(m, 'L', 0, "act_%zu_%zu", ji, s);
			int bc = milp_col(m, 0, 0, 1, 1, "b_%zu_%zu", ji, s);
			milp_coef(m, fill, prev_s, 1);
			milp_coef(m, fill, bc, -plen);
			milp_coef(m, act, sc, 1);
			milp_coef(m, act, bc, -len);
		}
		prev_s = sc;
	}
	free(b);
}

/* Rows and columns of job J apart from its x_J_I (the tight model). */
static void
build_job(struct milp *m, const struct pernode_job *j, size_t ji,
    size_t nnodes, const int *rows, double tfwd)
{
	int z = milp_col(m, 0, 0, 1, 1, "z_%zu", ji);
	int u = milp_col(m, j->weight * j->cost_up, 0, 1, 1, "u_%zu", ji);
	int d = milp_col(m, j->weight * j->cost_down, 0, 1, 1, "d_%zu", ji);

	milp_coef(m, rows[0], z, -(double)j->min);
	milp_coef(m, rows[1], z, -(double)j->max);
	milp_coef(m, rows[2], u, -(double)nnodes);
	if (rows[3] >= 0)
		milp_coef(m, rows[3], d, (double)j->held);
	build_curve(m, j, ji, rows[4], tfwd);
}

static int
build_tight(struct milp *m, const struct pernode_job *jobs,
    size_t njobs, size_t nnodes, const long *holder, double tfwd)
{
	int *node_row = malloc((nnodes + 1) * sizeof *node_row);
	int *mig_row = malloc((nnodes + 1) * sizeof *mig_row);
	int *job_rows = malloc((njobs * 5 + 1) * sizeof *job_rows);
	size_t i, j;

	if (node_row == NULL || mig_row == NULL || job_rows == NULL)
		m->oom = 1;
	for (i = 0; i < nnodes && !m->oom; i++) {
		node_row[i] = milp_row(m, 'L', 1, "node_%zu", i);
		mig_row[i] = holder[i] >= 0 ?
		    milp_row(m, 'L', 0, "mig_%zu", i) : -1;
	}
	for (j = 0; j < njobs && !m->oom; j++) {
		int *r = &job_rows[5 * j];
		r[0] = milp_row(m, 'G', 0, "lo_%zu", j);
		r[1] = milp_row(m, 'L', 0, "hi_%zu", j);
		r[2] = milp_row(m, 'L', (double)jobs[j].held, "up_%zu", j);
		r[3] = jobs[j].held > 0 ? milp_row(m, 'G',
		    (double)jobs[j].held, "dn_%zu", j) : -1;
		r[4] = milp_row(m, 'E', 0, "cnt_%zu", j);
	}
	for (j = 0; j < njobs && !m->oom; j++)
		for (i = 0; i < nnodes; i++) {
			int x = milp_col(m, 0, 0, 1, 1, "x_%zu_%zu", j, i);
			const int *r = &job_rows[5 * j];
			milp_coef(m, node_row[i], x, 1);
			if (holder[i] >= 0 && (size_t)holder[i] != j)
				milp_coef(m, mig_row[i], x, 1);
			milp_coef(m, r[0], x, 1);
			milp_coef(m, r[1], x, 1);
			milp_coef(m, r[2], x, 1);
			if (r[3] >= 0)
				milp_coef(m, r[3], x, 1);
			milp_coef(m, r[4], x, -1);
		}
	for (j = 0; j < njobs && !m->oom; j++)
		build_job(m, &jobs[j], j, nnodes, &job_rows[5 * j], tfwd);
	free(node_row);
	free(mig_row);
	free(job_rows);
	return m->oom ? -1 : 0;
}

/*
 * BFTrainer's model (pernode.h).  Columns: x_J_I first, job-major, then
 * job by job a_J b_J g_J up_J dw_J, e_J_I, w_J_P and z_J_S.
 */

/* A coefficient, left out when zero as a solver would. */
static void
coef(struct milp *m, int row, int col, double v)
{
	if (v != 0)
		milp_coef(m, row, col, v);
}

/* n_J = sum_I x_J_I, times v, into a row. */
static void
count_terms(struct milp *m, int row, size_t ji, size_t nnodes, double v)
{
	size_t i;

	for (i = 0; i < nnodes; i++)
		milp_coef(m, row, (int)(ji * nnodes + i), v);
}

/* The job's points: (0, 0), the measured ones inside (0, max), max. */
static size_t
curve_points(const struct pernode_job *j, long *n, double *r)
{
	size_t np = breakpoints(j, n), p;

	for (p = 0; p < np; p++)
		r[p] = curve_rate(j->points, j->npoints, n[p]);
	return np;
}

/* cnv_J, cnt_J, seg_J, adj_J_P: the curve as BFTrainer states it. */
static void
bft_curve(struct milp *m, const struct pernode_job *j, size_t ji,
    size_t nnodes, double tfwd)
{
	long *n = malloc((j->npoints + 2) * sizeof *n);
	double *r = malloc((j->npoints + 2) * sizeof *r);
	int cnv, cnt, seg, w0 = -1, z0 = -1;
	size_t np, p;

	if (n == NULL || r == NULL) {
		free(n), free(r);
		m->oom = 1;
		return;
	}
	np = curve_points(j, n, r);
	cnv = milp_row(m, 'E', 1, "cnv_%zu", ji);
	cnt = milp_row(m, 'E', 0, "cnt_%zu", ji);
	seg = milp_row(m, 'E', 1, "seg_%zu", ji);
	count_terms(m, cnt, ji, nnodes, 1);
	for (p = 0; p < np; p++) {
		int w = milp_col(m, -j->weight * tfwd * r[p], 0, 1, 0,
		    "w_%zu_%zu", ji, p);
		if (p == 0)
			w0 = w;
		milp_coef(m, cnv, w, 1);
		coef(m, cnt, w, -(double)n[p]);
	}
	/* z_J_S, S = 1 .. np - 1: segment S joins points S - 1 and S. */
	for (p = 1; p < np; p++) {
		int z = milp_col(m, 0, 0, 1, 1, "z_%zu_%zu", ji, p);
		if (p == 1)
			z0 = z;
		milp_coef(m, seg, z, 1);
	}
	for (p = 0; p < np && !m->oom; p++) {
		int adj = milp_row(m, 'L', 0, "adj_%zu_%zu", ji, p);
		milp_coef(m, adj, w0 + (int)p, 1);
		if (p >= 1)
			milp_coef(m, adj, z0 + (int)p - 1, -1);
		if (p + 1 < np)
			milp_coef(m, adj, z0 + (int)p, -1);
	}
	free(n), free(r);
}

/* min_J .. dwb_J, the e_J_I and their rows: all of job J but the curve. */
static void
bft_job(struct milp *m, const struct pernode_job *j, size_t ji,
    size_t nnodes, const long *holder)
{
	double bigm = (double)nnodes + 1, c = (double)j->held;
	/* Where BFTrainer's M = N + 1 is too small (pernode.h). */
	double mmin = (double)j->min > bigm ? (double)j->min : bigm;
	double mmig = 2 * (double)nnodes + 1;
	int a = milp_col(m, 0, 0, 1, 1, "a_%zu", ji);
	int b = milp_col(m, 0, 0, 1, 1, "b_%zu", ji);
	int g = milp_col(m, 0, 0, 1, 1, "g_%zu", ji);
	int up = milp_col(m, j->weight * j->cost_up, 0, 1, 1, "up_%zu", ji);
	int dw = milp_col(m, j->weight * j->cost_down, 0, 1, 1, "dw_%zu",
	    ji);
	int r[10];
	size_t i, k;

	r[0] = milp_row(m, 'G', (double)j->min, "min_%zu", ji);
	r[1] = milp_row(m, 'L', bigm, "min0_%zu", ji);
	r[2] = milp_row(m, 'L', (double)j->max, "max_%zu", ji);
	r[3] = milp_row(m, 'L', bigm, "max0_%zu", ji);
	r[4] = milp_row(m, 'G', c, "mgu_%zu", ji);
	r[5] = milp_row(m, 'L', c + mmig, "mgd_%zu", ji);
	r[6] = milp_row(m, 'L', c, "upa_%zu", ji);
	r[7] = milp_row(m, 'G', 0, "upb_%zu", ji);
	r[8] = milp_row(m, 'L', bigm, "dwa_%zu", ji);
	r[9] = milp_row(m, 'G', c, "dwb_%zu", ji);
	for (k = 0; k < 10; k++)
		count_terms(m, r[k], ji, nnodes, 1);
	coef(m, r[0], a, mmin);
	coef(m, r[1], a, bigm);
	coef(m, r[2], b, -bigm);
	coef(m, r[3], b, bigm);
	coef(m, r[4], g, mmig);
	coef(m, r[5], g, mmig);
	coef(m, r[6], up, -(bigm - c));
	coef(m, r[7], up, -(c + 1));
	coef(m, r[8], dw, bigm - c + 1);
	coef(m, r[9], dw, c);
	for (i = 0; i < nnodes && !m->oom; i++) {
		int x = (int)(ji * nnodes + i);
		double cji = holder[i] >= 0 && (size_t)holder[i] == ji;
		int e = milp_col(m, 0, 0, 1, 1, "e_%zu_%zu", ji, i);
		int xa = milp_row(m, 'L', cji, "xa_%zu_%zu", ji, i);
		int xb = milp_row(m, 'G', -cji, "xb_%zu_%zu", ji, i);
		int xc = milp_row(m, 'G', cji, "xc_%zu_%zu", ji, i);
		int xd = milp_row(m, 'L', 2 - cji, "xd_%zu_%zu", ji, i);
		milp_coef(m, xa, e, 1), milp_coef(m, xa, x, -1);
		milp_coef(m, xb, e, 1), milp_coef(m, xb, x, -1);
		milp_coef(m, xc, e, 1), milp_coef(m, xc, x, 1);
		milp_coef(m, xd, e, 1), milp_coef(m, xd, x, 1);
		milp_coef(m, r[4], e, -1);
		milp_coef(m, r[5], e, 1);
	}
}

static int
build_bftrainer(struct milp *m, const struct pernode_job *jobs,
    size_t njobs, size_t nnodes, const long *holder, double tfwd)
{
	long nfree = 0;
	int grow, node;
	size_t i, j;

	for (j = 0; j < njobs; j++)
		for (i = 0; i < nnodes; i++)
			milp_col(m, 0, 0, 1, 1, "x_%zu_%zu", j, i);
	for (i = 0; i < nnodes; i++)
		nfree += holder[i] < 0;
	for (i = 0; i < nnodes && !m->oom; i++) {
		node = milp_row(m, 'L', 1, "node_%zu", i);
		for (j = 0; j < njobs; j++)
			milp_coef(m, node, (int)(j * nnodes + i), 1);
	}
	grow = milp_row(m, 'L', (double)nfree, "grow");
	for (j = 0; j < njobs && !m->oom; j++)
		for (i = 0; i < nnodes; i++)
			if (holder[i] < 0 || (size_t)holder[i] != j)
				milp_coef(m, grow, (int)(j * nnodes + i), 1);
	for (j = 0; j < njobs && !m->oom; j++) {
		bft_job(m, &jobs[j], j, nnodes, holder);
		bft_curve(m, &jobs[j], j, nnodes, tfwd);
	}
	return m->oom ? -1 : 0;
}

int
pernode_build(struct milp *m, const struct pernode_job *jobs,
    size_t njobs, size_t nnodes, const long *holder, double tfwd,
    enum pernode_form form)
{
	if (form == PERNODE_TIGHT)
		return build_tight(m, jobs, njobs, nnodes, holder, tfwd);
	return build_bftrainer(m, jobs, njobs, nnodes, holder, tfwd);
}

void
pernode_counts(const double *x, size_t njobs, size_t nnodes, long *counts)
{
	size_t i, j;

	for (j = 0; j < njobs; j++) {
		double n = 0;
		for (i = 0; i < nnodes; i++)
			n += x[j * nnodes + i];
		counts[j] = (long)(n + 0.5);
	}
}
