/*
 * NAME
 *	milp - a mixed-integer linear program: build, write as MPS, solve by CBC
 * DESCRIPTION
 *	See milp.h.  The coefficient triplets are put in column order once,
 *	by a counting sort, for both the MPS text and CBC's column-major
 *	matrix, so that the two can never describe different models.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <coin/Cbc_C_Interface.h>
#include <coin/Clp_C_Interface.h>

#include "util/array.h"
#include "util/file.h"
#include "util/fmt.h"
#include "util/now.h"

#include "solve/milp.h"

void
milp_init(struct milp *m)
{
	memset(m, 0, sizeof *m);
}

void
milp_free(struct milp *m)
{
	size_t i;

	for (i = 0; i < m->ncols; i++)
		free(m->colname[i]);
	for (i = 0; i < m->nrows; i++)
		free(m->rowname[i]);
	free(m->colname);
	free(m->obj);
	free(m->lb);
	free(m->ub);
	free(m->isint);
	free(m->rowname);
	free(m->sense);
	free(m->rhs);
	free(m->trow);
	free(m->tcol);
	free(m->tval);
	milp_init(m);
}

/* Grow *p to cap elements of size sz; 0 or -1. */
static int
grow(void *pp, size_t cap, size_t sz)
{
	void **p = pp;
	void *n = realloc(*p, cap * sz);

	if (n == NULL)
		return -1;
	*p = n;
	return 0;
}

static char *
vname(const char *fmt, va_list ap)
{
	char buf[128];

	vsnprintf(buf, sizeof buf, fmt, ap);
	return strdup(buf);
}

static int
reserve_cols(struct milp *m)
{
	size_t cap;

	if (m->ncols < m->colcap)
		return 0;
	cap = m->colcap ? 2 * m->colcap : 256;
	if (grow(&m->colname, cap, sizeof *m->colname) < 0 ||
	    grow(&m->obj, cap, sizeof *m->obj) < 0 ||
	    grow(&m->lb, cap, sizeof *m->lb) < 0 ||
	    grow(&m->ub, cap, sizeof *m->ub) < 0 ||
	    grow(&m->isint, cap, sizeof *m->isint) < 0)
		return -1;
	m->colcap = cap;
	return 0;
}

int
milp_col(struct milp *m, double obj, double lb, double ub, int isint,
    const char *fmt, ...)
{
	va_list ap;
	char *name;

	if (m->oom || reserve_cols(m) < 0)
		return m->oom = 1, -1;
	va_start(ap, fmt);
	name = vname(fmt, ap);
	va_end(ap);
	if (name == NULL)
		return m->oom = 1, -1;
	m->colname[m->ncols] = name;
	m->obj[m->ncols] = obj;
	m->lb[m->ncols] = lb;
	m->ub[m->ncols] = ub;
	m->isint[m->ncols] = (unsigned char)(isint != 0);
	return (int)m->ncols++;
}

int
milp_row(struct milp *m, char sense, double rhs, const char *fmt, ...)
{
	va_list ap;
	char *name;

	if (m->oom)
		return -1;
	if (m->nrows == m->rowcap) {
		size_t cap = m->rowcap ? 2 * m->rowcap : 256;
		if (grow(&m->rowname, cap, sizeof *m->rowname) < 0 ||
		    grow(&m->sense, cap, sizeof *m->sense) < 0 ||
		    grow(&m->rhs, cap, sizeof *m->rhs) < 0)
			return m->oom = 1, -1;
		m->rowcap = cap;
	}
	va_start(ap, fmt);
	name = vname(fmt, ap);
	va_end(ap);
	if (name == NULL)
		return m->oom = 1, -1;
	m->rowname[m->nrows] = name;
	m->sense[m->nrows] = sense;
	m->rhs[m->nrows] = rhs;
	return (int)m->nrows++;
}

int
milp_coef(struct milp *m, int row, int col, double v)
{
	if (m->oom || row < 0 || col < 0)
		return m->oom = 1, -1;
	if (m->nz == m->nzcap) {
		size_t cap = m->nzcap ? 2 * m->nzcap : 1024;
		if (grow(&m->trow, cap, sizeof *m->trow) < 0 ||
		    grow(&m->tcol, cap, sizeof *m->tcol) < 0 ||
		    grow(&m->tval, cap, sizeof *m->tval) < 0)
			return m->oom = 1, -1;
		m->nzcap = cap;
	}
	m->trow[m->nz] = row;
	m->tcol[m->nz] = col;
	m->tval[m->nz] = v;
	m->nz++;
	return 0;
}

/*
 * Column-major matrix: start[ncols + 1], and for each entry its row and
 * value.  Within a column, entries keep the order they were added in.
 */
struct csc {
	CoinBigIndex *start;
	int *row;
	double *val;
};

static void
csc_free(struct csc *c)
{
	free(c->start);
	free(c->row);
	free(c->val);
}

static int
csc_build(const struct milp *m, struct csc *c)
{
	size_t i, *next;

	c->start = calloc(m->ncols + 1, sizeof *c->start);
	c->row = malloc((m->nz + 1) * sizeof *c->row);
	c->val = malloc((m->nz + 1) * sizeof *c->val);
	next = calloc(m->ncols + 1, sizeof *next);
	if (c->start == NULL || c->row == NULL || c->val == NULL ||
	    next == NULL) {
		free(next);
		csc_free(c);
		return -1;
	}
	for (i = 0; i < m->nz; i++)
		next[m->tcol[i] + 1]++;
	for (i = 0; i < m->ncols; i++)
		next[i + 1] += next[i];
	for (i = 0; i <= m->ncols; i++)
		c->start[i] = (CoinBigIndex)next[i];
	for (i = 0; i < m->nz; i++) {
		size_t at = next[m->tcol[i]]++;
		c->row[at] = m->trow[i];
		c->val[at] = m->tval[i];
	}
	free(next);
	return 0;
}

/*
 * The MPS text, built in one buffer without stdio: a decision writes
 * several thousand lines, and putc()/fputs() on a memory stream take the
 * stream's lock at every call (a third of the model's writing time).
 */
struct mps_text {
	char *buf;
	size_t len, cap;
	int oom;
};

static void
put(struct mps_text *t, const char *s, size_t n)
{
	char *b;

	if (t->oom)
		return;
	if (t->len + n + 1 > t->cap) {
		if ((b = array_grow(t->buf, &t->cap, t->len + n + 1, 1,
		    65536)) == NULL) {
			t->oom = 1;
			return;
		}
		t->buf = b;
	}
	memcpy(t->buf + t->len, s, n);	/* room for the '\0' kept */
	t->len += n;
}

static void
puts_(struct mps_text *t, const char *s)
{
	put(t, s, strlen(s));
}

/* " A B C\n" (C may be NULL: " A B\n"): one line of the model. */
static void
mps_line(struct mps_text *t, const char *a, const char *b, const char *c)
{
	put(t, " ", 1);
	puts_(t, a);
	put(t, " ", 1);
	puts_(t, b);
	if (c != NULL) {
		put(t, " ", 1);
		puts_(t, c);
	}
	put(t, "\n", 1);
}

static void
mps_rows(struct mps_text *t, const struct milp *m)
{
	char sense[2] = { 0, 0 };
	size_t i;

	puts_(t, "ROWS\n N obj\n");
	for (i = 0; i < m->nrows; i++) {
		sense[0] = m->sense[i];
		mps_line(t, sense, m->rowname[i], NULL);
	}
}

static void
mps_columns(struct mps_text *t, const struct milp *m, const struct csc *c)
{
	char num[FMT_DOUBLE_LEN];
	int inint = 0;
	size_t j;
	CoinBigIndex e;

	puts_(t, "COLUMNS\n");
	for (j = 0; j < m->ncols; j++) {
		if (m->isint[j] != inint) {
			puts_(t, m->isint[j] ? " MARKER 'MARKER' 'INTORG'\n" :
			    " MARKER 'MARKER' 'INTEND'\n");
			inint = m->isint[j];
		}
		/* A column needs one entry to exist, even a zero one. */
		if (m->obj[j] != 0 || c->start[j] == c->start[j + 1])
			mps_line(t, m->colname[j], "obj",
			    fmt_double(m->obj[j], num));
		for (e = c->start[j]; e < c->start[j + 1]; e++)
			mps_line(t, m->colname[j], m->rowname[c->row[e]],
			    fmt_double(c->val[e], num));
	}
	if (inint)
		puts_(t, " MARKER 'MARKER' 'INTEND'\n");
}

static void
mps_rhs_bounds(struct mps_text *t, const struct milp *m)
{
	char num[FMT_DOUBLE_LEN];
	size_t i;

	puts_(t, "RHS\n");
	for (i = 0; i < m->nrows; i++)
		if (m->rhs[i] != 0)
			mps_line(t, "rhs", m->rowname[i],
			    fmt_double(m->rhs[i], num));
	puts_(t, "BOUNDS\n");
	for (i = 0; i < m->ncols; i++) {
		if (m->isint[i] && m->lb[i] == 0 && m->ub[i] == 1) {
			mps_line(t, "BV bnd", m->colname[i], NULL);
			continue;
		}
		if (m->lb[i] != 0)
			mps_line(t, "LO bnd", m->colname[i],
			    fmt_double(m->lb[i], num));
		if (m->ub[i] < DBL_MAX)
			mps_line(t, "UP bnd", m->colname[i],
			    fmt_double(m->ub[i], num));
	}
	puts_(t, "ENDATA\n");
}

/* Lines starting with '*' are comments in MPS: who is who, for people. */
static void
write_comment(struct mps_text *t, const char *comment)
{
	const char *p = comment, *nl;
	size_t n;

	while (p != NULL && *p != '\0') {
		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		put(t, "* ", 2);
		put(t, p, n);
		put(t, "\n", 1);
		p = nl ? nl + 1 : NULL;
	}
}

char *
milp_mps(const struct milp *m, const char *name, const char *comment,
    size_t *len)
{
	struct mps_text t = { NULL, 0, 0, 0 };
	struct csc c;

	if (m->oom || csc_build(m, &c) < 0)
		return NULL;
	write_comment(&t, comment);
	puts_(&t, "NAME ");
	puts_(&t, name);
	put(&t, "\n", 1);
	mps_rows(&t, m);
	mps_columns(&t, m, &c);
	mps_rhs_bounds(&t, m);
	csc_free(&c);
	if (t.oom) {
		free(t.buf);
		return NULL;
	}
	t.buf[t.len] = '\0';
	*len = t.len;
	return t.buf;
}

static void
row_bounds(const struct milp *m, double *lo, double *hi)
{
	size_t i;

	for (i = 0; i < m->nrows; i++) {
		lo[i] = m->sense[i] == 'L' ? -DBL_MAX : m->rhs[i];
		hi[i] = m->sense[i] == 'G' ? DBL_MAX : m->rhs[i];
	}
}

static Cbc_Model *
cbc_load(const struct milp *m, const struct csc *c, double *lo, double *hi)
{
	Cbc_Model *cbc = Cbc_newModel();
	size_t i;

	if (cbc == NULL)
		return NULL;
	Cbc_setLogLevel(cbc, 0);
	row_bounds(m, lo, hi);
	Cbc_loadProblem(cbc, (int)m->ncols, (int)m->nrows, c->start, c->row,
	    c->val, m->lb, m->ub, m->obj, lo, hi);
	for (i = 0; i < m->ncols; i++) {
		Cbc_setColName(cbc, (int)i, m->colname[i]);
		if (m->isint[i])
			Cbc_setInteger(cbc, (int)i);
	}
	for (i = 0; i < m->nrows; i++)
		Cbc_setRowName(cbc, (int)i, m->rowname[i]);
	return cbc;
}

static enum milp_status
cbc_outcome(Cbc_Model *cbc, double *x, size_t n, int timed_out)
{
	const double *sol;

	sol = Cbc_bestSolution(cbc);
	/*
	 * Stopped early, CBC may call a model infeasible that is not, and a
	 * time-out in preprocessing is not always flagged as one (seen with
	 * -t 0.001): past the limit, no solution means stopped.
	 */
	if (sol == NULL && (Cbc_isSecondsLimitReached(cbc) || timed_out))
		return MILP_STOPPED_NONE;
	if (Cbc_isProvenInfeasible(cbc))
		return MILP_INFEASIBLE;
	if (sol == NULL)
		return MILP_FAILED;
	memcpy(x, sol, n * sizeof *x);
	if (Cbc_isProvenOptimal(cbc))
		return MILP_OPTIMAL;
	return Cbc_isSecondsLimitReached(cbc) ? MILP_STOPPED : MILP_FAILED;
}

/* The MIP start names only the columns that are not zero. */
static void
cbc_start(Cbc_Model *cbc, const double *start, size_t n, int *idx,
    double *val)
{
	int k = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (start[i] != 0) {
			idx[k] = (int)i;
			val[k++] = start[i];
		}
	Cbc_setMIPStartI(cbc, k, idx, val);
}

/*
 * What CBC is given: the model without its columns fixed at 0 (bounds
 * [0, 0]), which add nothing to a row or to the objective.  keep[] maps
 * the model's columns to sub's, -1 for those left out.  sub borrows the
 * names: free it with sub_free().
 */
static int
sub_model(const struct milp *m, struct milp *sub, int *keep)
{
	size_t q, e, n = 0;

	milp_init(sub);
	for (q = 0; q < m->ncols; q++)
		keep[q] = m->lb[q] == 0 && m->ub[q] == 0 ? -1 : (int)n++;
	sub->colname = malloc((n + 1) * sizeof *sub->colname);
	sub->obj = malloc((n + 1) * sizeof *sub->obj);
	sub->lb = malloc((n + 1) * sizeof *sub->lb);
	sub->ub = malloc((n + 1) * sizeof *sub->ub);
	sub->isint = malloc(n + 1);
	sub->trow = malloc((m->nz + 1) * sizeof *sub->trow);
	sub->tcol = malloc((m->nz + 1) * sizeof *sub->tcol);
	sub->tval = malloc((m->nz + 1) * sizeof *sub->tval);
	if (sub->colname == NULL || sub->obj == NULL || sub->lb == NULL ||
	    sub->ub == NULL || sub->isint == NULL || sub->trow == NULL ||
	    sub->tcol == NULL || sub->tval == NULL)
		return -1;
	for (q = 0; q < m->ncols; q++) {
		int k = keep[q];
		if (k < 0)
			continue;
		sub->colname[k] = m->colname[q];
		sub->obj[k] = m->obj[q];
		sub->lb[k] = m->lb[q];
		sub->ub[k] = m->ub[q];
		sub->isint[k] = m->isint[q];
	}
	for (e = 0; e < m->nz; e++) {
		if (keep[m->tcol[e]] < 0)
			continue;
		sub->trow[sub->nz] = m->trow[e];
		sub->tcol[sub->nz] = keep[m->tcol[e]];
		sub->tval[sub->nz++] = m->tval[e];
	}
	sub->ncols = n;
	/* the rows are the model's, all kept: a row left empty still counts */
	sub->nrows = m->nrows;
	sub->rowname = m->rowname;
	sub->sense = m->sense;
	sub->rhs = m->rhs;
	return 0;
}

static void
sub_free(struct milp *sub)
{
	free(sub->colname), free(sub->obj), free(sub->lb), free(sub->ub);
	free(sub->isint), free(sub->trow), free(sub->tcol), free(sub->tval);
}

/* The model's solution from sub's: 0 for the columns left out. */
static void
sub_solution(const struct milp *m, const int *keep, const double *xs,
    double *x)
{
	size_t q;

	for (q = 0; q < m->ncols; q++)
		x[q] = keep[q] < 0 ? 0 : xs[keep[q]];
}

static int
sub_solve(const struct milp *m, double seconds, const double *start,
    double *x, enum milp_status *status, int no_pump, struct diag *d)
{
	struct csc c;
	Cbc_Model *cbc;
	double *lo, *hi, *val, t0;
	int *idx;

	if (m->oom || csc_build(m, &c) < 0)
		return diag_errno(d, ENOMEM, "unable to build the model");
	lo = malloc((m->nrows + 1) * sizeof *lo);
	hi = malloc((m->nrows + 1) * sizeof *hi);
	idx = malloc((m->ncols + 1) * sizeof *idx);
	val = malloc((m->ncols + 1) * sizeof *val);
	cbc = lo && hi && idx && val ? cbc_load(m, &c, lo, hi) : NULL;
	if (cbc == NULL) {
		free(lo), free(hi), free(idx), free(val);
		csc_free(&c);
		return diag_set(d, EX_UNAVAILABLE, "unable to set up CBC");
	}
	Cbc_setMaximumSeconds(cbc, seconds);
	/* wall-clock seconds, as the caller's deadline: not CPU seconds,
	 * fewer than those on a busy machine */
	Cbc_setParameter(cbc, "timeMode", "elapsed");
	Cbc_setAllowableFractionGap(cbc, 0);
	Cbc_setAllowableGap(cbc, m->gap);
	if (m->has_cutoff)
		Cbc_setCutoff(cbc, m->cutoff);
	if (no_pump)
		Cbc_setParameter(cbc, "feas", "off");
	if (start != NULL)
		cbc_start(cbc, start, m->ncols, idx, val);
	t0 = now_mono();
	Cbc_solve(cbc);
	*status = cbc_outcome(cbc, x, m->ncols, now_mono() - t0 >= seconds);
	Cbc_deleteModel(cbc);
	free(lo), free(hi), free(idx), free(val);
	csc_free(&c);
	return 0;
}

/* What the child hands back through its pipe, before x. */
struct child_out {
	int rc, code;
	enum milp_status status;
	char text[DIAG_MAX];
};

static int died_signal;

int
milp_died_signal(void)
{
	return died_signal;
}

/*
 * The time (monotonic seconds) after which this process's sends and reads
 * to CBC's process give up (EAGAIN); 0: never (the server's side).
 */
static double io_until;

/* CBC's processes killed for overrunning: the server's, or a child's */
static unsigned long solver_kills;

/*
 * Until fd is ready for events (or has its end of file), or until: 0, or
 * -1 (EAGAIN) at until.  Ready or not, the call after tells what is there.
 */
static int
wait_ready(int fd, short events, double until)
{
	struct pollfd p;

	p.fd = fd, p.events = events;
	for (;;) {
		double left = until - now_mono();
		int r;
		if (left <= 0) {
			errno = EAGAIN;
			return -1;
		}
		p.revents = 0;
		r = poll(&p, 1, left > 60 ? 60000 : (int)ceil(left * 1000));
		if (r > 0 || (r < 0 && errno != EINTR))
			return 0;
	}
}

/* wait_ready() until io_until, where there is one. */
static int
io_wait(int fd, short events)
{
	return io_until > 0 ? wait_ready(fd, events, io_until) : 0;
}

/* Up to len bytes until the end of file; how many were read. */
static size_t
read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n;
		if (io_wait(fd, POLLIN) < 0)
			break;
		n = read(fd, p + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

/* In the other process: sub_solve(), its answer and x written to fd. */
static int
solve_and_answer(int fd, const struct milp *m, double seconds,
    const double *start, double *x, int no_pump)
{
	struct child_out out;
	struct diag cd;

	memset(&cd, 0, sizeof cd);
	memset(&out, 0, sizeof out);
	out.rc = sub_solve(m, seconds, start, x, &out.status, no_pump, &cd);
	out.code = cd.code;
	memcpy(out.text, cd.text, sizeof out.text);
	return file_write_all(fd, &out, sizeof out) < 0 ||
	    file_write_all(fd, x, m->ncols * sizeof *x) < 0 ? -1 : 0;
}

/* Its answer and x read from fd: 0, or -1 when not all of it came. */
static int
read_answer(int fd, struct child_out *out, double *x, size_t ncols)
{
	return read_all(fd, out, sizeof *out) == sizeof *out &&
	    read_all(fd, x, ncols * sizeof *x) == ncols * sizeof *x ? 0 : -1;
}

/* What another process answered: its solve's status, or its error. */
static int
answer(const struct child_out *out, enum milp_status *status,
    struct diag *d)
{
	if (out->rc < 0) {
		d->code = out->code;
		memcpy(d->text, out->text, sizeof d->text);
		d->text[sizeof d->text - 1] = '\0';
		return -1;
	}
	*status = out->status;
	return 0;
}

/*
 * When a solve of seconds given now has overrun them by its grace
 * (milp.h): CBC does not look at its limit everywhere (its root's linear
 * relaxation and cuts: seconds over a limit of 2 on a model of 57,000
 * columns), and the process that runs it can be killed instead.
 */
static double
solve_until(double seconds, int has_start)
{
	return now_mono() + (has_start ? seconds * (1 +
	    MILP_GRACE_FRACTION) + MILP_GRACE_MIN : 2 * seconds +
	    MILP_GRACE_NO_START);
}

/*
 * sub_solve() in a child process, its answer back through a pipe: 0 or
 * -1 as it returns, 1 when the child died before handing all of it back
 * (died_signal says how), 2 when no child could be started (the caller
 * runs it here), 3 when it overran its time and was killed.
 */
static int
child_solve(const struct milp *m, double seconds, const double *start,
    double *x, enum milp_status *status, int no_pump, struct diag *d)
{
	struct child_out out;
	size_t xlen = m->ncols * sizeof *x;
	double until = solve_until(seconds, start != NULL);
	int fd[2], wst = 0, whole;
	pid_t pid, r;

	if (pipe(fd) < 0)
		return 2;
	fflush(NULL);	/* nothing buffered written twice */
	if ((pid = fork()) < 0) {
		close(fd[0]), close(fd[1]);
		return 2;
	}
	if (pid == 0) {
		close(fd[0]);
		_exit(solve_and_answer(fd[1], m, seconds, start, x, no_pump) <
		    0 ? 1 : 0);
	}
	close(fd[1]);
	if (wait_ready(fd[0], POLLIN, until) < 0) {
		solver_kills++;
		(void)kill(pid, SIGKILL);
		close(fd[0]);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			continue;
		memset(x, 0, xlen);
		return 3;
	}
	io_until = fmax(until, now_mono() + 1);	/* begun: whole */
	whole = read_answer(fd[0], &out, x, m->ncols) == 0;
	io_until = 0;
	close(fd[0]);
	while ((r = waitpid(pid, &wst, 0)) < 0 && errno == EINTR)
		continue;
	if (!whole) {
		died_signal = r == pid && WIFSIGNALED(wst) ? WTERMSIG(wst) : 0;
		memset(x, 0, xlen);
		return 1;
	}
	return answer(&out, status, d);
}

/*
 * The solver server (milp_server_start()): a child forked while the
 * program is small, which solves each model sent down a socket pair and
 * sends the answer back; sent with MSG_NOSIGNAL, so that a server gone
 * is an error, not a SIGPIPE.
 */
static pid_t server_pid = -1;
static int server_fd = -1;

struct request {
	size_t ncols, nrows, nz, names;
	double seconds, gap, cutoff;
	int has_cutoff;
	int has_start, no_pump;
};

static int
send_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		/* with a deadline, what fits now (a blocking send of it all
		 * would wait for a reader that never comes), and a wait for
		 * room only when there is none */
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL | (io_until > 0 ?
		    MSG_DONTWAIT : 0));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && io_until > 0 && (errno == EAGAIN ||
		    errno == EWOULDBLOCK)) {
			if (io_wait(fd, POLLOUT) < 0)
				return -1;
			continue;
		}
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static size_t
names_len(const struct milp *m)
{
	size_t i, n = 0;

	for (i = 0; i < m->ncols; i++)
		n += strlen(m->colname[i]) + 1;
	for (i = 0; i < m->nrows; i++)
		n += strlen(m->rowname[i]) + 1;
	return n;
}

static int
send_model(int fd, const struct milp *m, double seconds,
    const double *start, int no_pump)
{
	struct request rq;
	char *names, *p;
	size_t i, l;
	int rc, err;

	memset(&rq, 0, sizeof rq);
	rq.ncols = m->ncols, rq.nrows = m->nrows, rq.nz = m->nz;
	rq.names = names_len(m);
	rq.seconds = seconds, rq.gap = m->gap;
	rq.has_cutoff = m->has_cutoff, rq.cutoff = m->cutoff;
	rq.has_start = start != NULL, rq.no_pump = no_pump;
	/* the names in one send, not one per column */
	if ((p = names = malloc(rq.names + 1)) == NULL)
		return -1;
	for (i = 0; i < m->ncols; i++, p += l)
		memcpy(p, m->colname[i], l = strlen(m->colname[i]) + 1);
	for (i = 0; i < m->nrows; i++, p += l)
		memcpy(p, m->rowname[i], l = strlen(m->rowname[i]) + 1);
	rc = send_all(fd, &rq, sizeof rq) < 0 ||
	    send_all(fd, m->obj, m->ncols * sizeof *m->obj) < 0 ||
	    send_all(fd, m->lb, m->ncols * sizeof *m->lb) < 0 ||
	    send_all(fd, m->ub, m->ncols * sizeof *m->ub) < 0 ||
	    send_all(fd, m->isint, m->ncols) < 0 ||
	    send_all(fd, m->sense, m->nrows) < 0 ||
	    send_all(fd, m->rhs, m->nrows * sizeof *m->rhs) < 0 ||
	    send_all(fd, m->trow, m->nz * sizeof *m->trow) < 0 ||
	    send_all(fd, m->tcol, m->nz * sizeof *m->tcol) < 0 ||
	    send_all(fd, m->tval, m->nz * sizeof *m->tval) < 0 ||
	    (start != NULL && send_all(fd, start, m->ncols *
	    sizeof *start) < 0) || send_all(fd, names, rq.names) < 0 ? -1 : 0;
	err = errno;	/* the send's, for the caller */
	free(names);
	errno = err;
	return rc;
}

#define GET(fd, p, n) (read_all(fd, p, n) == (n))

/* The server's side of one request: 0 done, -1 the socket is gone. */
static int
serve_one(int fd)
{
	struct request rq;
	struct milp m;
	char *names = NULL, *p;
	double *start = NULL, *x = NULL;
	size_t i;
	int ok;

	if (!GET(fd, &rq, sizeof rq))
		return -1;
	memset(&m, 0, sizeof m);
	m.ncols = rq.ncols, m.nrows = rq.nrows, m.nz = rq.nz, m.gap = rq.gap;
	m.has_cutoff = rq.has_cutoff, m.cutoff = rq.cutoff;
	m.obj = malloc((m.ncols + 1) * sizeof *m.obj);
	m.lb = malloc((m.ncols + 1) * sizeof *m.lb);
	m.ub = malloc((m.ncols + 1) * sizeof *m.ub);
	m.isint = malloc(m.ncols + 1);
	m.sense = malloc(m.nrows + 1);
	m.rhs = malloc((m.nrows + 1) * sizeof *m.rhs);
	m.trow = malloc((m.nz + 1) * sizeof *m.trow);
	m.tcol = malloc((m.nz + 1) * sizeof *m.tcol);
	m.tval = malloc((m.nz + 1) * sizeof *m.tval);
	m.colname = malloc((m.ncols + 1) * sizeof *m.colname);
	m.rowname = malloc((m.nrows + 1) * sizeof *m.rowname);
	names = malloc(rq.names + 1);
	x = calloc(m.ncols + 1, sizeof *x);
	if (rq.has_start)
		start = malloc((m.ncols + 1) * sizeof *start);
	ok = m.obj && m.lb && m.ub && m.isint && m.sense && m.rhs && m.trow &&
	    m.tcol && m.tval && m.colname && m.rowname && names && x &&
	    (start || !rq.has_start) &&
	    GET(fd, m.obj, m.ncols * sizeof *m.obj) &&
	    GET(fd, m.lb, m.ncols * sizeof *m.lb) &&
	    GET(fd, m.ub, m.ncols * sizeof *m.ub) &&
	    GET(fd, m.isint, m.ncols) && GET(fd, m.sense, m.nrows) &&
	    GET(fd, m.rhs, m.nrows * sizeof *m.rhs) &&
	    GET(fd, m.trow, m.nz * sizeof *m.trow) &&
	    GET(fd, m.tcol, m.nz * sizeof *m.tcol) &&
	    GET(fd, m.tval, m.nz * sizeof *m.tval) &&
	    (!rq.has_start || GET(fd, start, m.ncols * sizeof *start)) &&
	    GET(fd, names, rq.names);
	if (ok) {
		names[rq.names] = '\0';
		for (i = 0, p = names; i < m.ncols; i++, p += strlen(p) + 1)
			m.colname[i] = p;
		for (i = 0; i < m.nrows; i++, p += strlen(p) + 1)
			m.rowname[i] = p;
		ok = solve_and_answer(fd, &m, rq.seconds, start, x,
		    rq.no_pump) == 0;
	}
	free(m.obj), free(m.lb), free(m.ub), free(m.isint), free(m.sense);
	free(m.rhs), free(m.trow), free(m.tcol), free(m.tval);
	free(m.colname), free(m.rowname), free(names), free(x), free(start);
	return ok ? 0 : -1;
}

/* The server's signals as a new program's: none of the caller's. */
static void
server_signals(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGCHLD,
	    SIGPIPE };
	struct sigaction sa;
	sigset_t none;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		(void)sigaction(sigs[i], &sa, NULL);
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
}

/*
 * At exit: the server told (end of file) and waited for, so that it is
 * gone when the program is (it is idle then: the solves are done).
 */
static int stop_registered;

static void
server_stop(void)
{
	if (server_pid <= 0)
		return;
	/* the end of file even where a child forked since holds a copy */
	(void)shutdown(server_fd, SHUT_RDWR);
	close(server_fd);
	server_fd = -1;
	while (waitpid(server_pid, NULL, 0) < 0 && errno == EINTR)
		continue;
	server_pid = -1;
}

int
milp_server_running(void)
{
	return server_pid > 0;
}

pid_t
milp_server_pid(void)
{
	return server_pid;
}

void
milp_server_reaped(pid_t pid)
{
	if (pid <= 0 || pid != server_pid)
		return;
	close(server_fd);
	server_fd = -1;
	server_pid = -1;
}

unsigned long
milp_solver_kills(void)
{
	return solver_kills;
}

int
milp_server_start(void)
{
	int sv[2];
	pid_t pid;

	if (server_pid > 0)
		return 0;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return -1;
	fflush(NULL);	/* nothing buffered written twice */
	if ((pid = fork()) < 0) {
		close(sv[0]), close(sv[1]);
		return -1;
	}
	if (pid == 0) {
		struct rlimit rl;
		int fd, max = 65536;
		/* none of the caller's descriptors: a lock, a socket */
		if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
		    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 65536)
			max = (int)rl.rlim_cur;
		for (fd = 3; fd < max; fd++)
			if (fd != sv[1])
				close(fd);
#ifdef __linux__
		/* what ps(1) shows: not another copy of the program */
		(void)prctl(PR_SET_NAME, "bf-cbc", 0, 0, 0);
#endif
		io_until = 0;	/* its reads wait for the next model */
		server_signals();
		while (serve_one(sv[1]) == 0)
			continue;
		_exit(0);
	}
	close(sv[1]);
	(void)fcntl(sv[0], F_SETFD, FD_CLOEXEC);
	server_fd = sv[0];
	server_pid = pid;
	if (!stop_registered)
		stop_registered = atexit(server_stop) == 0;
	return 0;
}

/* The server is gone: killed if it was not, reaped, how it died kept,
 * the solves fork. */
static void
server_gone(void)
{
	int wst = 0;
	pid_t r;

	(void)kill(server_pid, SIGKILL);	/* stuck mid-answer */
	close(server_fd);
	server_fd = -1;
	/* reaped already where the caller reaps every child (bf-watch) */
	while ((r = waitpid(server_pid, &wst, 0)) < 0 && errno == EINTR)
		continue;
	died_signal = r == server_pid && WIFSIGNALED(wst) ? WTERMSIG(wst) : 0;
	server_pid = -1;
}

/*
 * sub_solve() by the server: as child_solve() returns, 2 with none.  A
 * server that overran is killed and another started in its place.
 */
static int
server_solve(const struct milp *m, double seconds, const double *start,
    double *x, enum milp_status *status, struct diag *d)
{
	struct child_out out;
	size_t xlen = m->ncols * sizeof *x;
	double until = solve_until(seconds, start != NULL);
	int sent;

	if (server_pid <= 0)
		return 2;
	io_until = until;
	sent = send_model(server_fd, m, seconds, start, 0) == 0;
	if ((!sent && (errno == EAGAIN || errno == EWOULDBLOCK)) ||
	    (sent && wait_ready(server_fd, POLLIN, until) < 0)) {
		io_until = 0;
		server_gone();		/* killed: it overran */
		solver_kills++;
		(void)milp_server_start();
		memset(x, 0, xlen);
		return 3;
	}
	/* an answer begun comes whole: a second more at least */
	io_until = fmax(until, now_mono() + 1);
	if (!sent || read_answer(server_fd, &out, x, m->ncols) < 0) {
		io_until = 0;
		server_gone();
		memset(x, 0, xlen);
		return 1;
	}
	io_until = 0;
	return answer(&out, status, d);
}

/*
 * CBC by the server, else in a child of its own; once more without the
 * feasibility pump if it dies; in this process where no child can be.
 */
static int
guarded_solve(const struct milp *m, double seconds, const double *start,
    double *x, enum milp_status *status, struct diag *d)
{
	double t0 = now_mono();
	int rc = server_solve(m, seconds, start, x, status, d);

	if (rc == 2)
		rc = child_solve(m, seconds, start, x, status, 0, d);
	if (rc == 1)	/* again, in what is left of its time */
		rc = child_solve(m, fmax(seconds - (now_mono() - t0),
		    MILP_RETRY_MIN), start, x, status, 1, d);
	if (rc == 2)	/* here, in what is left of its time */
		rc = sub_solve(m, fmax(seconds - (now_mono() - t0),
		    MILP_RETRY_MIN), start, x, status, 0, d);
	if (rc == 1) {
		*status = MILP_DIED;
		rc = 0;
	}
	if (rc == 3) {		/* its time is up: nothing found in it */
		*status = MILP_STOPPED_NONE;
		rc = 0;
	}
	return rc;
}

int
milp_solve(const struct milp *m, double seconds, const double *start,
    double *x, enum milp_status *status, struct diag *d)
{
	struct milp sub;
	double *xs = malloc((m->ncols + 1) * sizeof *xs);
	double *ss = malloc((m->ncols + 1) * sizeof *ss);
	int *keep = malloc((m->ncols + 1) * sizeof *keep);
	size_t q;
	int rc;

	milp_init(&sub);
	if (xs == NULL || ss == NULL || keep == NULL || sub_model(m, &sub,
	    keep) < 0) {
		free(xs), free(ss), free(keep);
		sub_free(&sub);
		return diag_errno(d, ENOMEM, "unable to build the model");
	}
	sub.gap = m->gap;
	sub.has_cutoff = m->has_cutoff, sub.cutoff = m->cutoff;
	for (q = 0; start != NULL && q < m->ncols; q++)
		if (keep[q] >= 0)
			ss[keep[q]] = start[q];
	memset(xs, 0, (m->ncols + 1) * sizeof *xs);
	rc = guarded_solve(&sub, seconds, start ? ss : NULL, xs, status, d);
	if (rc == 0)
		sub_solution(m, keep, xs, x);
	free(xs), free(ss), free(keep);
	sub_free(&sub);
	return rc;
}

int
milp_lp_duals(const struct milp *m, double *dual, double *value,
    struct diag *d)
{
	struct csc c;
	Clp_Simplex *clp;
	Clp_Solve *opt;
	double *lo, *hi;
	int rc = 1;

	if (m->oom || csc_build(m, &c) < 0)
		return diag_errno(d, ENOMEM, "unable to build the model");
	lo = malloc((m->nrows + 1) * sizeof *lo);
	hi = malloc((m->nrows + 1) * sizeof *hi);
	clp = lo && hi ? Clp_newModel() : NULL;
	if (clp == NULL) {
		free(lo), free(hi);
		csc_free(&c);
		return diag_set(d, EX_UNAVAILABLE, "unable to set up CLP");
	}
	row_bounds(m, lo, hi);
	Clp_setLogLevel(clp, 0);
	Clp_loadProblem(clp, (int)m->ncols, (int)m->nrows, c.start, c.row,
	    c.val, m->lb, m->ub, m->obj, lo, hi);
	/*
	 * CoinUtils 2.11's implied-free step of the presolve leaks (seen
	 * with AddressSanitizer on policy models); the duals are as good
	 * without it.
	 */
	if ((opt = ClpSolve_new()) != NULL)
		ClpSolve_setDoImpliedFree(opt, 0);
	if (opt != NULL && Clp_initialSolveWithOptions(clp, opt) == 0 &&
	    Clp_status(clp) == 0) {
		memcpy(dual, Clp_dualRowSolution(clp), m->nrows *
		    sizeof *dual);
		*value = Clp_objectiveValue(clp);
		rc = 0;
	}
	if (opt != NULL)
		ClpSolve_delete(opt);
	Clp_deleteModel(clp);
	free(lo), free(hi);
	csc_free(&c);
	return rc;
}

int
milp_scale_objective(struct milp *m, double limit)
{
	double most = 0;
	size_t i;
	int k = 0;

	for (i = 0; i < m->ncols; i++)
		if (fabs(m->obj[i]) > most)
			most = fabs(m->obj[i]);
	while (most > limit) {
		most /= 2;
		k++;
	}
	/* By a power of two: every coefficient keeps its digits. */
	for (i = 0; k > 0 && i < m->ncols; i++)
		m->obj[i] = ldexp(m->obj[i], -k);
	return k;
}

const char *
milp_status_name(enum milp_status s)
{
	switch (s) {
	case MILP_OPTIMAL:
		return "optimal";
	case MILP_STOPPED:
		return "stopped: time limit";
	case MILP_STOPPED_NONE:
		return "stopped: time limit, no solution";
	case MILP_INFEASIBLE:
		return "infeasible";
	case MILP_DIED:
		return "failed: CBC died";
	default:
		return "failed";
	}
}
