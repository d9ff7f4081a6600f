/*
 * t3012-milp-died - a model on which CBC aborts (an assertion of Debian's
 * CLP, ClpNonLinearCost "lowerValue <= upperValue", in its feasibility
 * pump) is solved by milp_solve() without killing the caller: the child
 * that ran CBC dies of SIGABRT, the one run again without the pump
 * proves the optimum; by a child of its own per solve, and by the solver
 * server (milp_server_start()), which dies and is not used again.  A
 * server that hangs (stopped by SIGSTOP, as CBC that does not look at its
 * limit) is killed once its time and grace are up, the solve stopped
 * without a plan, and another server started in its place; so is one
 * that does not take a large model in that time.  The
 * model is t/data/solve/clp-abort.mps (see
 * t/data/solve/SOURCES.md), read here by a reader of the MPS that
 * milp_mps() writes, so that CBC is given the same arrays as when it
 * aborted; `cbc clp-abort.mps -allowableGap G -ratioGap 0 -solve` aborts
 * the same way, and with -feas off it proves the optimum below.  The
 * child's assertion is printed on the standard error, as it would be in
 * bf-watch's log.
 */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* The model's objective at x, and how many columns are 1. */
static double
value(const struct milp *m, const double *x, size_t *ones)
{
	double z = 0;
	size_t q;

	*ones = 0;
	for (q = 0; q < m->ncols; q++)
		if (x[q] > 0.5) {
			z += m->obj[q];
			(*ones)++;
		}
	return z;
}

static void
abort_model(struct milp *m, const char *how)
{
	struct diag d;
	enum milp_status st = MILP_FAILED;
	double *x = calloc(m->ncols + 1, sizeof *x), z;
	size_t ones;
	int rc;

	rc = milp_solve(m, 10, NULL, x, &st, &d);
	ok(rc == 0, "%s: milp_solve returns, this process alive", how);
	ok(milp_died_signal() == SIGABRT, "%s: CBC died of SIGABRT (signal "
	    "%d): the abort this model is kept for", how, milp_died_signal());
	z = value(m, x, &ones);
	ok(st == MILP_OPTIMAL && fabs(z - OPTIMUM) <= GAP && ones == 50,
	    "%s: run again without the feasibility pump: %s, %.17g (cbc: "
	    "%.17g), %zu columns of 50 jobs", how, milp_status_name(st), z,
	    OPTIMUM, ones);
	free(x);
}

/* max 3 y0 + 2 y1 + 2 y2, y0 + y1 + y2 <= 2: y0 and one other, 5. */
static void
small_model(const char *how)
{
	struct milp m;
	struct diag d;
	enum milp_status st = MILP_FAILED;
	double x[3] = { 0, 0, 0 };
	size_t ones;
	int r, q;

	milp_init(&m);
	r = milp_row(&m, 'L', 2, "two");
	for (q = 0; q < 3; q++)
		milp_coef(&m, r, milp_col(&m, q == 0 ? -3 : -2, 0, 1, 1,
		    "y%d", q), 1);
	ok(milp_solve(&m, 10, NULL, x, &st, &d) == 0 && st == MILP_OPTIMAL &&
	    value(&m, x, &ones) == -5 && ones == 2 && x[0] > 0.5,
	    "%s: a small model solved, optimal", how);
	milp_free(&m);
}

/*
 * A test that waits for ever fails (alarm), and takes the stopped server
 * with it: it holds prove's end of the output open.
 */
static volatile pid_t hung_pid = -1;

static void
on_alarm(int sig)
{
	(void)sig;
	if (hung_pid > 0)
		(void)kill(hung_pid, SIGKILL);
	_exit(2);
}

/* The small model given 0.2 s by a server stopped: killed, replaced. */
static void
hung_server(void)
{
	struct milp m;
	struct diag d;
	enum milp_status st = MILP_OPTIMAL;
	double x[3] = { 1, 1, 1 };
	pid_t hung = -1;
	int r, q, rc;

	milp_init(&m);
	r = milp_row(&m, 'L', 2, "two");
	for (q = 0; q < 3; q++)
		milp_coef(&m, r, milp_col(&m, q == 0 ? -3 : -2, 0, 1, 1,
		    "y%d", q), 1);
	ok(milp_server_start() == 0 && (hung = milp_server_pid()) > 0,
	    "a server forked again");
	hung_pid = hung;
	ok(kill(hung, SIGSTOP) == 0, "the server stopped (it hangs)");
	rc = milp_solve(&m, 0.2, NULL, x, &st, &d);
	ok(rc == 0 && st == MILP_STOPPED_NONE && x[0] == 0 && x[1] == 0 &&
	    x[2] == 0, "its time up, the solve stops with no plan: %s",
	    milp_status_name(st));
	ok(milp_solver_kills() == 1, "the hung server was killed (%lu)",
	    milp_solver_kills());
	ok(kill(hung, 0) < 0 && errno == ESRCH, "and reaped: no process %d",
	    (int)hung);
	ok(milp_server_running() && milp_server_pid() != hung,
	    "another server started in its place");
	hung_pid = -1;
	milp_free(&m);
}

/*
 * A model larger than the socket's buffer, sent to a server stopped: the
 * send itself waits no longer than the solve's time and grace.
 */
static void
hung_server_large(void)
{
	struct milp m;
	struct diag d;
	enum milp_status st = MILP_OPTIMAL;
	struct timespec t0, t1;
	double *x, took;
	pid_t hung = milp_server_pid();
	int r, q, rc;

	milp_init(&m);
	r = milp_row(&m, 'L', 2, "two");
	for (q = 0; q < 200000; q++)
		milp_coef(&m, r, milp_col(&m, -1, 0, 1, 1, "y%d", q), 1);
	x = calloc(m.ncols + 1, sizeof *x);
	hung_pid = hung;
	ok(hung > 0 && kill(hung, SIGSTOP) == 0 && x != NULL && !m.oom,
	    "the new server stopped; a model of 200,000 columns");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = milp_solve(&m, 0.2, NULL, x, &st, &d);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	took = (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	ok(rc == 0 && st == MILP_STOPPED_NONE, "the model not taken in its "
	    "time: the solve stops with no plan: %s", milp_status_name(st));
	/* 0.2 s with no start: 2 x 0.2 + MILP_GRACE_NO_START, for the whole
	 * model, not for each send (2.84 s when each send had it) */
	ok(took < 2 * 0.2 + MILP_GRACE_NO_START + 0.5, "given up after %.2f "
	    "s, the grace of the whole solve (%.2f s)", took,
	    2 * 0.2 + MILP_GRACE_NO_START);
	ok(milp_solver_kills() == 2 && kill(hung, 0) < 0 && errno == ESRCH &&
	    milp_server_running() && milp_server_pid() != hung,
	    "that server killed and reaped (%lu kills), another started",
	    milp_solver_kills());
	hung_pid = -1;
	free(x);
	milp_free(&m);
}

int
main(int argc, char **argv)
{
	char self[4096], path[8192];
	struct milp m;
	int rc;

	(void)argc;
	signal(SIGALRM, on_alarm);
	alarm(120);	/* a solve that waits for ever fails, not hangs */
	snprintf(self, sizeof self, "%s", argv[0]);
	snprintf(path, sizeof path, "%s/data/solve/clp-abort.mps",
	    dirname(self));
	milp_init(&m);
	rc = read_mps(path, &m);
	ok(rc == 0 && m.ncols == 711 && m.nrows == 68,
	    "the model read: 711 columns, 68 rows (%zu, %zu)", m.ncols,
	    m.nrows);
	m.gap = GAP;
	/* CBC in a child of its own per solve */
	small_model("a child per solve");
	abort_model(&m, "a child per solve");
	/* the server forked now: it dies; then a child per solve again */
	ok(milp_server_start() == 0 && milp_server_running(),
	    "the solver server forked");
	small_model("the server");
	ok(milp_server_running(), "the server answered, still used");
	abort_model(&m, "the server");
	ok(!milp_server_running(), "the server died, not used again");
	small_model("the server gone, a child per solve");
	ok(milp_solver_kills() == 0, "no server killed so far");
	hung_server();
	small_model("the server started again");
	hung_server_large();
	small_model("the third server");
	ok(milp_server_running(), "the new server answered, still used");
	milp_free(&m);
	return tap_done();
}
