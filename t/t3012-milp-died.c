/*
 * t3012-milp-died - a model on which CBC aborts (an assertion of Debian's
 * CLP, ClpNonLinearCost "lowerValue <= upperValue", in its feasibility
 * pump) is solved by milp_solve() without killing the caller: the child
 * that ran CBC dies of SIGABRT, the one run again without the pump
 * proves the optimum.  The model is t/data/solve/clp-abort.mps (see
 * t/data/solve/SOURCES.md), read here by a reader of the MPS that
 * milp_mps() writes, so that CBC is given the same arrays as when it
 * aborted; `cbc clp-abort.mps -allowableGap G -ratioGap 0 -solve` aborts
 * the same way, and with -feas off it proves the optimum below.  The
 * child's assertion is printed on the standard error, as it would be in
 * bf-watch's log.
 */
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solve/milp.h"
#include "tap.h"

/* CBC's allowable gap when it aborted (bf-sim's tol for that model). */
#define GAP		0.022592949302394579
/* `cbc clp-abort.mps -allowableGap GAP -ratioGap 0 -feas off -solve` */
#define OPTIMUM		(-7320439.52260344)

static int
find(char **names, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

/*
 * The free-format MPS of milp_mps(): ROWS (N obj first), COLUMNS with
 * name row value pairs between integer markers, RHS, BOUNDS (UP to 0, BV).
 */
static int
read_mps(const char *path, struct milp *m)
{
	char line[512], sec[16] = "", a[128], b[128], c[128];
	FILE *fp = fopen(path, "r");
	int cur = -1;

	if (fp == NULL)
		return -1;
	while (fgets(line, sizeof line, fp) != NULL) {
		int n;
		if (line[0] == '*')
			continue;
		if (line[0] != ' ') {
			sscanf(line, "%15s", sec);
			continue;
		}
		n = sscanf(line, "%127s %127s %127s", a, b, c);
		if (strcmp(sec, "ROWS") == 0 && n == 2 && strcmp(a, "N") != 0) {
			milp_row(m, a[0], 0, "%s", b);
		} else if (strcmp(sec, "COLUMNS") == 0 && n == 3 &&
		    strcmp(b, "'MARKER'") != 0) {
			if (cur < 0 || strcmp(m->colname[cur], a) != 0)
				cur = milp_col(m, 0, 0, 1, 1, "%s", a);
			if (strcmp(b, "obj") == 0)
				m->obj[cur] = strtod(c, NULL);
			else
				milp_coef(m, find(m->rowname, m->nrows, b),
				    cur, strtod(c, NULL));
		} else if (strcmp(sec, "RHS") == 0 && n == 3) {
			m->rhs[find(m->rowname, m->nrows, b)] = strtod(c,
			    NULL);
		} else if (strcmp(sec, "BOUNDS") == 0 && n == 3 &&
		    strcmp(a, "UP") == 0) {
			m->ub[find(m->colname, m->ncols, c)] = 0;
		}
	}
	fclose(fp);
	return m->oom ? -1 : 0;
}

int
main(int argc, char **argv)
{
	char self[4096], path[8192];
	struct milp m;
	struct diag d;
	enum milp_status st = MILP_FAILED;
	double *x, z = 0;
	size_t q, ones = 0;
	int rc;

	(void)argc;
	snprintf(self, sizeof self, "%s", argv[0]);
	snprintf(path, sizeof path, "%s/data/solve/clp-abort.mps",
	    dirname(self));
	milp_init(&m);
	rc = read_mps(path, &m);
	ok(rc == 0 && m.ncols == 711 && m.nrows == 68,
	    "the model read: 711 columns, 68 rows (%zu, %zu)", m.ncols,
	    m.nrows);
	m.gap = GAP;
	x = calloc(m.ncols + 1, sizeof *x);
	rc = milp_solve(&m, 10, NULL, x, &st, &d);
	ok(rc == 0, "milp_solve returns, this process alive");
	ok(milp_died_signal() == SIGABRT, "CBC's first child died of SIGABRT "
	    "(signal %d): the abort this model is kept for", milp_died_signal());
	for (q = 0; q < m.ncols; q++)
		if (x[q] > 0.5) {
			z += m.obj[q];
			ones++;
		}
	ok(st == MILP_OPTIMAL && fabs(z - OPTIMUM) <= GAP,
	    "run again without the feasibility pump: %s, %.17g (cbc: %.17g)",
	    milp_status_name(st), z, OPTIMUM);
	ok(ones == 50, "one column for each of the 50 jobs (%zu)", ones);
	free(x);
	milp_free(&m);
	return tap_done();
}
