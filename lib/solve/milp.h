/*
 * NAME
 *	milp - a mixed-integer linear program: build, write as MPS, solve by CBC
 * SYNOPSIS
 *	struct milp m;
 *	milp_init(&m);
 *	int y = milp_col(&m, -12.5, 0, 1, 1, "y_%zu_%ld", j, k);
 *	int r = milp_row(&m, 'E', 1, "one_%zu", j);
 *	milp_coef(&m, r, y, 1);
 *	char *text = milp_mps(&m, "bfsolve", "y_0 is resnet18", &len);
 *	milp_solve(&m, 10.0, start, x, &status, &d);
 *	milp_free(&m);
 * DESCRIPTION
 *	A minimisation with named columns (bounds, integrality) and named
 *	rows (sense 'E', 'L' or 'G' against a right-hand side), held as
 *	coefficient triplets.  Every name is made by the caller, so CBC never
 *	meets a NULL name.
 *
 *	milp_mps() writes free-format MPS text, after comment lines ("* ")
 *	taken from comment (may be NULL), from these arrays, one
 *	coefficient per line in column order, numbers by fmt_double(): the
 *	same model gives the same bytes, and the cbc program reads it back
 *	(a minimisation, since MPS does not keep the sense).  Integer columns
 *	stand between INTORG/INTEND markers; binaries have BV bounds.
 *
 *	milp_scale_objective() divides every objective coefficient by the
 *	power of two 2^k, the least that brings the largest to at most limit,
 *	and returns k (0: unchanged).  CBC's tolerances are absolute: with
 *	coefficients near 1e16 beside ones near 1e3 it called a feasible
 *	model infeasible.  Scaling by a power of two changes no choice and
 *	rounds no coefficient (but those it makes subnormal).
 *
 *	milp_lp_duals() solves the linear relaxation (integrality dropped)
 *	with CLP (CBC's LP solver; its presolve and its choice of simplex)
 *	and puts its row duals in dual[] (in CLP's sign: the objective's
 *	rate of change per unit of the row's bound, <= 0 for a binding row
 *	"<=" of a minimisation) and its optimum in *value; it returns 1 when
 *	the relaxation has no optimum (infeasible, or CLP gave up), and
 *	nothing is set then.
 *
 *	milp_solve() loads the same arrays into CBC through Cbc_loadProblem()
 *	rather than re-reading the MPS (Cbc_readMps aborts the process on bad
 *	input), with the log off, default threads, the time limit, and start
 *	as a MIP start when not NULL, and m->gap as CBC's allowable
 *	absolute gap (0 after milp_init(): proven to the last digit; the
 *	relative gap is always 0).  On return x holds the best solution
 *	known, if any, and status says how the search ended.  Columns fixed
 *	at 0 (bounds [0, 0]) are left out of what CBC is given, as they add
 *	nothing to a row or to the objective: x has them at 0.  The rows are
 *	all given, an empty one included.
 *
 *	CBC runs in a child process (fork(2), the solution back through a
 *	shared mapping), so that an abort or a crash inside it ends the
 *	child, not the caller: Debian's CLP asserts (ClpNonLinearCost
 *	"lowerValue <= upperValue", seen in CBC's feasibility pump on a
 *	model of bf-sim's, bench/solve.md) and would have killed bf-watch at
 *	every retry of the same inputs.  A child that dies is run once more
 *	with the feasibility pump off; dying again, the status is
 *	MILP_DIED ("failed: CBC died, signal N"), which callers take as
 *	MILP_FAILED.  Where fork() fails, CBC runs in this process.
 *
 *	A fork of a large process costs milliseconds, and its copy-on-write
 *	faults after (bench/watch.md): milp_server_start(), called by a
 *	program's main while it is small, forks a server that solves the
 *	models sent to it (the arrays, down a socket pair) for the rest of
 *	the program's life; milp_solve() uses it while it lives, and forks a
 *	child of its own per solve only once it has died (or was never
 *	started).  It returns -1 (errno) when no server could be made; the
 *	solves then fork.  The server keeps none of the caller's other
 *	descriptors (a lock, a socket), and the caller's end of its socket
 *	is closed on exec; it exits when that end closes (the caller gone),
 *	and the caller waits for it at exit(3).
 *	On Linux its name (ps -o comm) is bf-cbc.
 *
 *	CBC's limit is in wall-clock seconds (its timeMode elapsed), but it
 *	does not look at it everywhere: its root's relaxation and cuts ran
 *	1.2 s over a limit of 2.3 s on a model of 57,000 columns.  A server
 *	or child that has not answered in its grace (MILP_GRACE_*: a tenth
 *	of its limit and 0.1 s more with a start, else its limit and 1 s
 *	more: with no plan in hand, the caller would keep the current
 *	allocation), or whose socket takes no more of the model or of its
 *	answer in that time, is killed (SIGKILL): the status is
 *	MILP_STOPPED_NONE, the caller keeps the plan it had, and a server
 *	so killed is started again at once.  That one is a fork of the
 *	caller as it is then: it keeps a copy of the pages the caller
 *	changes later (tens of MB at most for bf-solve at 1,000 jobs x
 *	10,624 nodes).  milp_solver_kills() counts them.  A solve run again
 *	after CBC died has what is left of its time (MILP_RETRY_MIN at
 *	least).  Before each fork, stdio's buffers are flushed.  A caller
 *	that reaps every child it has tells milp_server_reaped() of each.
 * DIAGNOSTICS
 *	milp_col() and milp_row() return -1 when memory runs out (m->oom set;
 *	later calls keep failing).  milp_solve() returns -1 with d set (69)
 *	when CBC cannot be used.
 */
#ifndef BF_MILP_H
#define BF_MILP_H

#include <stddef.h>
#include <sys/types.h>

#include "util/log.h"

/*
 * CBC in another process that has not answered seconds x (1 + FRACTION)
 * + MIN after it was given a limit of seconds and a start is killed: its
 * time is up.  Without a start, a plan is worth more time: 2 x seconds +
 * NO_START.
 */
#define MILP_GRACE_FRACTION	0.1
#define MILP_GRACE_MIN		0.1
#define MILP_GRACE_NO_START	1.0
/* Seconds at least for the solve run again after CBC died */
#define MILP_RETRY_MIN		0.01

enum milp_status {
	MILP_OPTIMAL,		/* proven optimal */
	MILP_STOPPED,		/* time limit, x is the best known */
	MILP_STOPPED_NONE,	/* time limit, no solution known */
	MILP_INFEASIBLE,
	MILP_FAILED,		/* abandoned or unbounded */
	MILP_DIED		/* CBC aborted or crashed, twice */
};

struct milp {
	size_t ncols, colcap;
	char **colname;
	double *obj, *lb, *ub;
	unsigned char *isint;
	size_t nrows, rowcap;
	char **rowname;
	char *sense;
	double *rhs;
	size_t nz, nzcap;
	int *trow, *tcol;
	double *tval;
	int oom;
	double gap;		/* CBC's allowable absolute gap (0: none) */
	int has_cutoff;		/* CBC looks only for solutions of at */
	double cutoff;		/* most cutoff (infeasible: none) */
};

void milp_init(struct milp *m);
void milp_free(struct milp *m);
int milp_col(struct milp *m, double obj, double lb, double ub, int isint,
    const char *fmt, ...) __attribute__((format(printf, 6, 7)));
int milp_row(struct milp *m, char sense, double rhs, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int milp_coef(struct milp *m, int row, int col, double v);
char *milp_mps(const struct milp *m, const char *name, const char *comment,
    size_t *len);
int milp_solve(const struct milp *m, double seconds, const double *start,
    double *x, enum milp_status *status, struct diag *d);
int milp_lp_duals(const struct milp *m, double *dual, double *value,
    struct diag *d);
int milp_scale_objective(struct milp *m, double limit);
const char *milp_status_name(enum milp_status s);
/* The signal that ended CBC's last child to die, 0 none (this process). */
int milp_died_signal(void);
int milp_server_start(void);
int milp_server_running(void);	/* 1 while the server is used */
pid_t milp_server_pid(void);	/* -1: none */
/* A caller that reaps every child (waitpid(-1)) says so of each. */
void milp_server_reaped(pid_t pid);
/* CBC's processes (the server, or a child) killed for overrunning */
unsigned long milp_solver_kills(void);

#endif
