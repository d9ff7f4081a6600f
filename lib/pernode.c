/*
 * NAME
 *	pernode - BFTrainer's own model: a binary per (job, node)
 * DESCRIPTION
 *	See pernode.h.  Rows are made before the columns that use them, and
 *	a failed allocation makes every later milp call fail, so one check of
 *	m->oom at the end suffices.
 */
#include <float.h>
#include <stdlib.h>

#include "curve.h"
#include "pernode.h"

/* Breakpoints 0 < ... < max: measured counts strictly inside. */
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

/* Rows and columns of job J apart from its x_J_I. */
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

int
pernode_build(struct milp *m, const struct pernode_job *jobs,
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
