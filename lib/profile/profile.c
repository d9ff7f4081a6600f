/*
 * NAME
 *	profile - a job's measured scalability
 * DESCRIPTION
 *	See profile.h for the model.  The measuring half (segments, rate
 *	fits, rescale costs, law, advisor) comes first, the file half (format
 *	and parse) after it.
 * DIAGNOSTICS
 *	"profiles/a.yaml:4: fit sigma must be a number from 0 to 1, not 'x'",
 *	"profiles/a.yaml:7: points must ascend by node count, with rates above
 *	0".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/file.h"

#include "profile/curve.h"
#include "profile/profile.h"
#include "spool/progress.h"

enum seg_kind { SEG_START, SEG_UP, SEG_DOWN, SEG_RESTART };

struct seg {
	size_t a, b;		/* reports [a, b) */
	long nodes;
	enum seg_kind kind;
	double tc;		/* the last report before it */
	long long sc;
	int ok;			/* a line was fitted */
	int judged;		/* it had the reports to tell a stall */
	double tbar, sbar, rate, span;
	double t0;		/* when steady progress passed sc */
};

/* Rounds to the digits the file prints, so parse(format(p)) == p. */
static double
round_sig(double x, int digits)
{
	char buf[64];

	snprintf(buf, sizeof buf, "%.*g", digits, x);
	return strtod(buf, NULL);
}

static double
round_cent(double x)
{
	return round(x * 100.0) / 100.0;
}

/* ---- segments and rates ---- */

/*
 * Whether a silence before report i, over seconds beyond what it is
 * expected to last, is a pause: more than PROFILE_PAUSE_MIN and
 * PROFILE_PAUSE_FACTOR times the longer of the two intervals before.
 */
static int
long_silence(const struct progress_report *r, size_t i, double over)
{
	return over > PROFILE_PAUSE_MIN && over > PROFILE_PAUSE_FACTOR *
	    fmax(r[i - 1].time - r[i - 2].time, r[i - 2].time - r[i - 3].time);
}

/*
 * A silence before report i far longer than the two intervals before it,
 * all four reports at one count (the reports just after a change come at
 * odd times): a pause, not a slow rate.
 */
static int
paused(const struct progress_report *r, size_t i)
{
	return i >= 3 && r[i].nodes == r[i - 1].nodes &&
	    r[i].nodes == r[i - 2].nodes && r[i].nodes == r[i - 3].nodes &&
	    long_silence(r, i, r[i].time - r[i - 1].time);
}

/*
 * A change of count before report i after a silence longer than such a
 * change's declared cost by as much as a pause: the job stopped (all its
 * nodes taken back) and started again at another count; a restart, not
 * one rescale, whose cost it is not.
 */
static int
stopped(const struct progress_report *r, size_t i, const struct job *j)
{
	double declared;

	if (i < 3 || r[i].nodes == r[i - 1].nodes)
		return 0;
	if (r[i].nodes > r[i - 1].nodes)
		declared = j ? j->rescale_up : JOB_DEFAULT_RESCALE_UP;
	else
		declared = j ? j->rescale_down : JOB_DEFAULT_RESCALE_DOWN;
	return long_silence(r, i, r[i].time - r[i - 1].time - declared);
}

/*
 * Cuts the reports from index from on into segments after the nseg ones
 * before it (whole and closed: from is where the next one starts); the
 * new number of segments.  j declares the costs (NULL: the defaults).
 */
static size_t
cut_segments(const struct progress *pr, struct seg *seg, size_t nseg,
    size_t from, const struct job *j)
{
	size_t i, n = nseg;

	for (i = from; i < pr->n; i++) {
		const struct progress_report *r = &pr->r[i];
		double gap = i > 0 ? r->time - pr->r[i - 1].time : 0;
		int pause = paused(pr->r, i) || stopped(pr->r, i, j);

		if (i > 0 && n > 0 && r->nodes == seg[n - 1].nodes &&
		    gap <= PROFILE_RESTART_GAP && !pause)
			continue;
		if (n > 0)
			seg[n - 1].b = i;
		memset(&seg[n], 0, sizeof seg[n]);
		seg[n].a = i;
		seg[n].nodes = r->nodes;
		if (i == 0)
			seg[n].kind = SEG_START;
		else if (gap > PROFILE_RESTART_GAP || pause)
			seg[n].kind = SEG_RESTART;
		else
			seg[n].kind = r->nodes > pr->r[i - 1].nodes ? SEG_UP :
			    SEG_DOWN;
		if (i > 0) {
			seg[n].tc = pr->r[i - 1].time;
			seg[n].sc = pr->r[i - 1].samples;
		}
		n++;
	}
	if (n > 0)
		seg[n - 1].b = pr->n;
	return n;
}

/* Least squares through the reports used[]; 0 when it is determined. */
static int
fit_line(const struct progress_report *r, const unsigned char *use, size_t n,
    struct seg *s)
{
	double st = 0, ss = 0, stt = 0, sts = 0, tmin = INFINITY, tmax = 0;
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		if (use[i]) {
			st += r[i].time;
			ss += (double)r[i].samples;
			m++;
		}
	if (m < 2)
		return -1;
	s->tbar = st / (double)m;
	s->sbar = ss / (double)m;
	for (i = 0; i < n; i++) {
		double dt = r[i].time - s->tbar;
		if (!use[i])
			continue;
		stt += dt * dt;
		sts += dt * ((double)r[i].samples - s->sbar);
		tmin = fmin(tmin, r[i].time);
		tmax = fmax(tmax, r[i].time);
	}
	if (stt <= 0)
		return -1;
	s->rate = sts / stt;
	s->span = tmax - tmin;
	return 0;
}

/* Drops the reports far off the line (stale or late counts). */
static int
drop_outliers(const struct progress_report *r, unsigned char *use, size_t n,
    const struct seg *s, double *res)
{
	size_t i, m = 0, dropped = 0;
	double med, limit;

	for (i = 0; i < n; i++)
		if (use[i])
			res[m++] = fabs((double)r[i].samples - s->sbar -
			    s->rate * (r[i].time - s->tbar));
	med = array_median(res, m);
	limit = PROFILE_OUTLIER * med + 1.0;
	for (i = 0; i < n; i++)
		if (use[i] && fabs((double)r[i].samples - s->sbar -
		    s->rate * (r[i].time - s->tbar)) > limit) {
			use[i] = 0;
			dropped++;
		}
	return m - dropped >= 2 && dropped > 0;
}

/*
 * When steady progress passed the count of the last report before the
 * change: the line at the segment's rate through its first PROFILE_ANCHOR
 * steady reports.  The count is cumulative, so its noise wanders like a
 * random walk; the reports nearest the change place the start best.
 */
static double
crossing(const struct progress_report *r, const unsigned char *use,
    size_t n, const struct seg *s)
{
	double sum = 0;
	size_t i, m = 0;

	for (i = 0; i < n && m < PROFILE_ANCHOR; i++)
		if (use[i]) {
			sum += r[i].time - ((double)r[i].samples -
			    (double)s->sc) / s->rate;
			m++;
		}
	return sum / (double)m;
}

/*
 * A restart slower than the declared cost leaves the counter still at the
 * start of the segment: those reports are warm-up too.  A step is stalled
 * when it advanced at less than ref samples/s: PROFILE_STALL of the mean
 * rate over the reports used, or of the last rate measured before the
 * segment scaled linearly down to its count (floor, fit_segments()),
 * whichever is more; no job runs at a quarter of that.  Leading stalled
 * steps are dropped, and the report that starts the first step advancing
 * faster: the stall ended somewhere within that step, whose rate is part
 * stall.
 */
static void
drop_stall(const struct progress_report *r, unsigned char *use, size_t n,
    double floor_rate)
{
	size_t f, l, i, j;
	double ref;

	for (f = 0; f < n && !use[f]; f++)
		;
	for (l = n; l > f && !use[l - 1]; l--)
		;
	if (l < f + 2 || r[l - 1].time <= r[f].time)
		return;
	l--;
	ref = PROFILE_STALL * ((double)r[l].samples - (double)r[f].samples) /
	    (r[l].time - r[f].time);
	if (ref < floor_rate)
		ref = floor_rate;
	for (i = f; ref > 0 && i < l; i = j) {
		for (j = i + 1; j < l && !use[j]; j++)
			;
		if ((double)r[j].samples - (double)r[i].samples >=
		    ref * (r[j].time - r[i].time))
			break;
		use[i] = 0;
	}
	if (i == l)	/* stalled throughout: no steady report */
		use[l] = 0;
	else if (i > f)	/* the stall ended within the step from i */
		use[i] = 0;
}

static void
fit_segment(const struct progress *pr, struct seg *s, double gap,
    double floor_rate, unsigned char *use, double *res)
{
	const struct progress_report *r = pr->r + s->a;
	size_t n = s->b - s->a, i, m;

	/* The warm-up: the first report, and any within the rescale gap. */
	for (i = 0; i < n; i++)
		use[i] = i > 0 && (s->kind == SEG_START ||
		    s->kind == SEG_RESTART || r[i].time >= s->tc + gap);
	for (i = 0, m = 0; i < n; i++)
		m += use[i];
	/* two reports alone cannot tell a stall from a slow rate */
	if (m < PROFILE_MIN_REPORTS)
		return;
	s->judged = 1;
	drop_stall(r, use, n, floor_rate);
	if (fit_line(r, use, n, s) < 0)
		return;
	if (drop_outliers(r, use, n, s, res) && fit_line(r, use, n, s) < 0)
		return;
	s->ok = s->rate > 0 && s->span > 0;
	if (s->ok)
		s->t0 = crossing(r, use, n, s);
}

static int
cmp_seg_nodes(const void *a, const void *b)
{
	const struct seg *x = a, *y = b;

	return (x->nodes > y->nodes) - (x->nodes < y->nodes);
}

/* One point per node count: the rates weighted by segment duration. */
static int
combine(struct profile *p, const struct seg *seg, size_t nseg)
{
	struct seg *ok = malloc((nseg + 1) * sizeof *ok);
	size_t i, n = 0;

	if (ok == NULL)
		return -1;
	for (i = 0; i < nseg; i++)
		if (seg[i].ok)
			ok[n++] = seg[i];
	if (n > 1)
		qsort(ok, n, sizeof *ok, cmp_seg_nodes);
	p->points = calloc(n + 1, sizeof *p->points);
	if (p->points == NULL) {
		free(ok);
		return -1;
	}
	for (i = 0; i < n;) {
		double sum = 0, w = 0;
		long nodes = ok[i].nodes;
		for (; i < n && ok[i].nodes == nodes; i++) {
			sum += ok[i].rate * ok[i].span;
			w += ok[i].span;
		}
		p->points[p->npoints].nodes = nodes;
		p->points[p->npoints++].rate = round_sig(sum / w, 6);
	}
	free(ok);
	return 0;
}

/*
 * The rescale costs, growing and shrinking apart: each the median of its
 * observations.  A change is observed only when the segment before it
 * was steady (a rate measured over reports enough to judge a stall):
 * after one that was not, the stall of an earlier change may run on into
 * this one's.  The median, not the mean: a stall that is not the
 * rescale's (a node swapped at the same count, a slow file system)
 * lengthens one observation, and one such made the mean.
 */
static int
rescale_costs(struct profile *p, const struct seg *seg, size_t nseg)
{
	double *up = malloc((2 * nseg + 1) * sizeof *up), *down;
	size_t i, nup = 0, ndown = 0;

	p->up_obs = p->down_obs = 0;
	p->rescale_up = p->rescale_down = 0;
	if (up == NULL)
		return -1;
	down = up + nseg;
	for (i = 1; i < nseg; i++) {
		const struct seg *s = &seg[i];
		if (!s->ok || (s->kind != SEG_UP && s->kind != SEG_DOWN) ||
		    !seg[i - 1].ok || !seg[i - 1].judged)
			continue;
		if (s->kind == SEG_UP)
			up[nup++] = s->t0 - s->tc;
		else
			down[ndown++] = s->t0 - s->tc;
	}
	p->up_obs = (int)nup;
	p->down_obs = (int)ndown;
	p->rescale_up = nup ? round_cent(fmax(0, array_median(up, nup))) : 0;
	p->rescale_down = ndown ?
	    round_cent(fmax(0, array_median(down, ndown))) : 0;
	free(up);
	return 0;
}

/* Fits the segments from first on; the ones before are fitted already. */
static void
fit_segments(const struct progress *pr, struct seg *seg, size_t nseg,
    size_t first, const struct job *j, unsigned char *use, double *res)
{
	size_t i;

	for (i = first; i < nseg; i++) {
		double floor_rate = 0;
		size_t k = i;
		/*
		 * The rate before: of the last segment measured, across
		 * segments too short to tell (rescales in quick succession, a
		 * node taken back then a shrink: the stall of the first runs on
		 * into the next), not across one long enough and stalled
		 * throughout (the job may truly have slowed down: its next
		 * segment is judged by its own rate).
		 */
		while (k > 0 && !seg[k - 1].ok && !seg[k - 1].judged)
			k--;
		if (k > 0 && seg[k - 1].ok)
			floor_rate = PROFILE_STALL * seg[k - 1].rate *
			    fmin(1, (double)seg[i].nodes /
			    (double)seg[k - 1].nodes);
		fit_segment(pr, &seg[i], seg[i].kind == SEG_UP ?
		    (j ? j->rescale_up : JOB_DEFAULT_RESCALE_UP) :
		    (j ? j->rescale_down : JOB_DEFAULT_RESCALE_DOWN),
		    floor_rate, use, res);
	}
}

static int
measure(struct profile *p, const struct progress *pr, const struct job *j)
{
	struct seg *seg = malloc((pr->n + 1) * sizeof *seg);
	unsigned char *use = malloc(pr->n + 1);
	double *res = malloc((pr->n + 1) * sizeof *res);
	size_t nseg = 0;
	int rc = -1;

	if (seg == NULL || use == NULL || res == NULL)
		goto out;
	nseg = cut_segments(pr, seg, 0, 0, j);
	fit_segments(pr, seg, nseg, 0, j, use, res);
	if (combine(p, seg, nseg) < 0 || rescale_costs(p, seg, nseg) < 0)
		goto out;
	rc = 0;
out:
	free(seg);
	free(use);
	free(res);
	return rc;
}

/* ---- the same, kept up to date as the log grows ---- */

struct profile_log {
	struct progress pr;	/* the reports kept; r grown in place */
	size_t cap;		/* of pr.r */
	size_t off, lines;	/* bytes and lines read, whole lines */
	int whole;		/* a line was skipped: re-read it all */
	struct seg *seg;	/* seg[nseg - 1] is still open */
	size_t nseg;
	unsigned char *use;
	double *res;
	size_t scap;		/* of seg, use and res */
	struct job_point *memo;	/* the points of the last law fitted */
	size_t nmemo;
	int memo_ok;
	struct profile law;	/* that law */
};

static int
log_room(struct profile_log *l, size_t n)
{
	void *q;

	if (n > l->cap) {
		size_t c = n > 2 * l->cap ? n : 2 * l->cap;
		if ((q = realloc(l->pr.r, c * sizeof *l->pr.r)) == NULL)
			return -1;
		l->pr.r = q;
		l->cap = c;
	}
	if (n + 1 > l->scap) {
		size_t c = n + 1 > 2 * l->scap ? n + 1 : 2 * l->scap;
		if ((q = realloc(l->seg, c * sizeof *l->seg)) == NULL)
			return -1;
		l->seg = q;
		if ((q = realloc(l->use, c)) == NULL)
			return -1;
		l->use = q;
		if ((q = realloc(l->res, c * sizeof *l->res)) == NULL)
			return -1;
		l->res = q;
		l->scap = c;
	}
	return 0;
}

/* Only blank lines: nothing to parse (progress_parse() would warn). */
static int
blank(const char *buf, size_t len)
{
	size_t i, run = 0;

	for (i = 0; i < len; i++) {
		if (buf[i] == '\n') {
			run = 0;
			continue;
		}
		/* a long line is a bad one, even of spaces */
		if ((buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\r') ||
		    ++run > PROGRESS_LINE_MAX)
			return 0;
	}
	return 1;
}

/*
 * The new whole lines buf[off, end): appended when they parse without a
 * skipped line and follow the last report kept in time and samples, so
 * that the whole log's reading would keep them all; else the log is read
 * whole, now and at every later update, as profile_from_log() does.
 * Returns the index of the first report new or changed.
 */
static int
log_read(struct profile_log *l, const char *label, const char *buf,
    size_t end, size_t *from, struct diag *d)
{
	struct progress c;
	const struct progress_report *last;
	size_t i, nl = 0;

	for (i = l->off; i < end; i++)
		nl += buf[i] == '\n';
	if (l->lines + nl > PROGRESS_MAX_LINES)
		return diag_set(d, EX_DATAERR, "%s: more than %d lines", label,
		    PROGRESS_MAX_LINES);
	*from = l->pr.n;
	if (!l->whole && blank(buf + l->off, end - l->off)) {
		l->off = end;
		l->lines += nl;
		return 0;
	}
	if (!l->whole) {
		if (progress_parse(&c, label, buf + l->off, end - l->off,
		    d) < 0)
			return -1;
		last = l->pr.n ? &l->pr.r[l->pr.n - 1] : NULL;
		if (c.skipped == 0 && c.n > 0 && (last == NULL ||
		    (c.r[0].time >= last->time && c.r[0].samples >=
		    last->samples))) {
			if (log_room(l, l->pr.n + c.n) < 0) {
				progress_free(&c);
				return diag_errno(d, ENOMEM, "unable to read "
				    "%s", label);
			}
			for (i = 0; i < c.n; i++) {
				l->pr.r[l->pr.n] = c.r[i];
				l->pr.r[l->pr.n++].line += l->lines;
			}
			progress_free(&c);
			l->off = end;
			l->lines += nl;
			return 0;
		}
		progress_free(&c);
		l->whole = 1;
	}
	/* the whole log, as profile_from_log() reads it */
	if (progress_parse(&c, label, buf, end, d) < 0)
		return -1;
	progress_free(&l->pr);
	l->pr = c;
	l->cap = c.n;
	l->off = end;
	l->lines += nl;
	l->nseg = 0;
	*from = 0;
	return log_room(l, c.n) < 0 ? diag_errno(d, ENOMEM, "unable to read "
	    "%s", label) : 0;
}

int
profile_log_update(struct profile_log **lp, struct profile *p,
    const char *name, const char *label, const char *buf, size_t len,
    const struct job *declared, struct diag *d)
{
	struct profile_log *l = *lp;
	size_t end = len, from = 0, first;

	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "%s", name);
	if (l == NULL && (l = *lp = calloc(1, sizeof *l)) == NULL)
		return diag_errno(d, ENOMEM, "unable to profile %s", label);
	while (end > 0 && buf[end - 1] != '\n')
		end--;
	if (end < l->off) {	/* not the log read before: start again */
		progress_free(&l->pr);
		l->cap = l->off = l->lines = l->nseg = 0;
		l->whole = 0;
	}
	if (end > l->off) {
		if (log_read(l, label, buf, end, &from, d) < 0)
			return -1;
		/* the open segment may grow, or end where new ones start */
		first = l->nseg > 0 ? l->nseg - 1 : 0;
		if (l->nseg > 0 && l->seg[first].a < from)
			from = l->seg[first].a;
		l->nseg = cut_segments(&l->pr, l->seg, first, from, declared);
		fit_segments(&l->pr, l->seg, l->nseg, first, declared, l->use,
		    l->res);
	}
	p->skipped_lines = l->pr.skipped;
	if (l->pr.n > 0)
		p->last_report = (long long)floor(l->pr.r[l->pr.n - 1].time);
	if (combine(p, l->seg, l->nseg) < 0 ||
	    rescale_costs(p, l->seg, l->nseg) < 0) {
		profile_free(p);
		return diag_errno(d, ENOMEM, "unable to profile %s", label);
	}
	return 0;
}

/* ---- the scaling law ---- */

static double
law(double n, double sigma, double kappa)
{
	return n / (1 + sigma * (n - 1) + kappa * n * (n - 1));
}

#define LAW_KEPT	64	/* points whose terms a fit computes once */

/*
 * A fit's points as the law reads them.  With n nodes at rate r, the law
 * over the rate is (n / r) / (1 + sigma (n - 1) + kappa n (n - 1)): the
 * three terms that hold no parameter are computed once per fit for the
 * first LAW_KEPT points, and again at each use for any beyond (the same
 * expressions, so the same doubles either way).
 */
struct law_fit {
	const struct profile *p;
	size_t kept;
	double less1[LAW_KEPT], pairs[LAW_KEPT], weight[LAW_KEPT];
	double ratio[LAW_KEPT];	/* an evaluation's, for its second pass */
};

static void
law_terms(const struct job_point *pt, double *less1, double *pairs,
    double *weight)
{
	double n = (double)pt->nodes;

	*less1 = n - 1;
	*pairs = n * (n - 1);
	*weight = n / pt->rate;
}

static void
law_fit_init(struct law_fit *f, const struct profile *p)
{
	size_t i;

	f->p = p;
	f->kept = p->npoints < LAW_KEPT ? p->npoints : LAW_KEPT;
	for (i = 0; i < f->kept; i++)
		law_terms(&p->points[i], &f->less1[i], &f->pairs[i],
		    &f->weight[i]);
}

/* A point's law value over its rate, its terms computed again. */
static double
law_ratio(const struct job_point *pt, double sigma, double kappa)
{
	double less1, pairs, weight;

	law_terms(pt, &less1, &pairs, &weight);
	return weight / (1 + sigma * less1 + kappa * pairs);
}

/*
 * Relative squared error with the best r1 for this sigma and kappa: each
 * point's ratio g is computed once for both passes.  This is most of a
 * fit's time.
 */
static double
law_error(struct law_fit *f, double sigma, double kappa, double *r1)
{
	const struct profile *p = f->p;
	double a = 0, b = 0, err = 0, *g = f->ratio;
	size_t i;

	for (i = 0; i < f->kept; i++) {
		g[i] = f->weight[i] / (1 + sigma * f->less1[i] +
		    kappa * f->pairs[i]);
		a += g[i];
		b += g[i] * g[i];
	}
	for (; i < p->npoints; i++) {
		double x = law_ratio(&p->points[i], sigma, kappa);
		a += x;
		b += x * x;
	}
	*r1 = a / b;
	for (i = 0; i < f->kept; i++) {
		double e = 1 - *r1 * g[i];
		err += e * e;
	}
	for (; i < p->npoints; i++) {
		double e = 1 - *r1 * law_ratio(&p->points[i], sigma, kappa);
		err += e * e;
	}
	return err;
}

#define GRID_STEPS	60	/* per parameter, log-spaced */
#define GRID_LOW	1e-9

static double
grid_value(int k)
{
	return k == 0 ? 0 : GRID_LOW * pow(1 / GRID_LOW,
	    (double)(k - 1) / (GRID_STEPS - 1));
}

/* What golden() minimises: an error as a function of one parameter. */
struct objective {
	double (*f)(const struct objective *, double);
	struct law_fit *fit;
	double kappa;		/* held while sigma varies */
};

#define GOLDEN_TOL	1e-12	/* relative: far below the six digits kept */

/*
 * Golden section for the minimum of o->f over [lo, hi], 0 <= lo < hi: each
 * step evaluates one point and keeps the other, until [a, b] is narrower
 * than GOLDEN_TOL of b, or of GRID_LOW near 0 (a value below it is taken
 * as 0), or stops moving.
 */
static double
golden(const struct objective *o, double lo, double hi)
{
	const double g = (sqrt(5.0) - 1) / 2;
	double a = lo, b = hi;
	double x1 = b - g * (b - a), x2 = a + g * (b - a);
	double f1 = o->f(o, x1), f2 = o->f(o, x2);
	int i;

	for (i = 0; i < 200 && b - a > GOLDEN_TOL * fmax(b, GRID_LOW); i++) {
		double wa = a, wb = b;
		if (f1 <= f2) {
			b = x2;
			x2 = x1;
			f2 = f1;
			x1 = b - g * (b - a);
			f1 = o->f(o, x1);
		} else {
			a = x1;
			x1 = x2;
			f1 = f2;
			x2 = a + g * (b - a);
			f2 = o->f(o, x2);
		}
		if (a == wa && b == wb)
			break;
	}
	return (a + b) / 2;
}

static double
sigma_objective(const struct objective *o, double sigma)
{
	double r1;

	return law_error(o->fit, sigma, o->kappa, &r1);
}

/* The least error over sigma for this kappa; *sigma gets the best. */
static double
kappa_error(struct law_fit *f, double kappa, double *sigma)
{
	struct objective o = { sigma_objective, f, kappa };
	double best = INFINITY, r1, e, s;
	int k, bk = 0;

	for (k = 0; k <= GRID_STEPS; k++)
		if ((e = law_error(f, grid_value(k), kappa, &r1)) < best) {
			best = e;
			bk = k;
		}
	*sigma = grid_value(bk);
	s = golden(&o, grid_value(bk > 0 ? bk - 1 : 0),
	    grid_value(bk < GRID_STEPS ? bk + 1 : GRID_STEPS));
	if ((e = law_error(f, s, kappa, &r1)) < best) {
		best = e;
		*sigma = s;
	}
	return best;
}

static double
kappa_objective(const struct objective *o, double kappa)
{
	double sigma;

	return kappa_error(o->fit, kappa, &sigma);
}

/* Kappa over the grid, then by golden section near the best. */
static double
best_kappa(struct law_fit *f)
{
	struct objective o = { kappa_objective, f, 0 };
	double best = INFINITY, e, kappa;
	int k, bk = 0;

	for (k = 0; k <= GRID_STEPS; k++)
		if ((e = kappa_objective(&o, grid_value(k))) < best) {
			best = e;
			bk = k;
		}
	kappa = golden(&o, grid_value(bk > 1 ? bk - 2 : 0),
	    grid_value(bk + 2 < GRID_STEPS ? bk + 2 : GRID_STEPS));
	return kappa_objective(&o, kappa) > best ? grid_value(bk) : kappa;
}

/*
 * Profile least squares: for each kappa the best sigma (grid, then golden
 * section), for each sigma the best r1 (closed form).  Three counts or
 * more fit kappa too; two hold it at 0 (Amdahl).
 */
void
profile_fit(struct profile *p)
{
	struct law_fit f;
	double sigma, kappa, r1, sse = 0;
	size_t i;

	p->has_fit = 0;
	if (p->npoints < 2)
		return;
	law_fit_init(&f, p);
	kappa = p->npoints >= 3 ? best_kappa(&f) : 0;
	kappa_error(&f, kappa, &sigma);
	/* Below the grid's smallest step the parameter is nil, not noise. */
	p->sigma = sigma < GRID_LOW ? 0 : round_sig(sigma, 6);
	p->kappa = kappa < GRID_LOW ? 0 : round_sig(kappa, 6);
	law_error(&f, p->sigma, p->kappa, &r1);
	p->r1 = round_sig(r1, 6);
	for (i = 0; i < p->npoints; i++) {
		double e = p->points[i].rate - p->r1 *
		    law((double)p->points[i].nodes, p->sigma, p->kappa);
		sse += e * e;
	}
	p->rmse = round_sig(sqrt(sse / (double)p->npoints), 6);
	p->fit_counts = (int)p->npoints;
	p->fit_usl = p->npoints >= 3;
	p->has_fit = 1;
}

/* profile_fit() again only when the points moved: it reads nothing else. */
void
profile_log_fit(struct profile_log *l, struct profile *p)
{
	size_t i;

	for (i = 0; l->memo_ok && i < p->npoints && i < l->nmemo; i++)
		if (l->memo[i].nodes != p->points[i].nodes ||
		    l->memo[i].rate != p->points[i].rate)
			break;
	if (l->memo_ok && l->nmemo == p->npoints && i == p->npoints) {
		p->has_fit = l->law.has_fit;
		p->fit_counts = l->law.fit_counts;
		p->fit_usl = l->law.fit_usl;
		p->r1 = l->law.r1;
		p->sigma = l->law.sigma;
		p->kappa = l->law.kappa;
		p->rmse = l->law.rmse;
		return;
	}
	profile_fit(p);
	l->memo_ok = 0;
	if (p->npoints > l->nmemo || l->memo == NULL) {
		struct job_point *m = realloc(l->memo, (p->npoints + 1) *
		    sizeof *m);
		if (m == NULL)
			return;		/* no memo: the next fit is made again */
		l->memo = m;
	}
	if (p->npoints > 0)
		memcpy(l->memo, p->points, p->npoints * sizeof *p->points);
	l->nmemo = p->npoints;
	l->law = *p;
	l->law.points = NULL;
	l->memo_ok = 1;
}

void
profile_log_free(struct profile_log *l)
{
	if (l == NULL)
		return;
	progress_free(&l->pr);
	free(l->seg);
	free(l->use);
	free(l->res);
	free(l->memo);
	free(l);
}

double
profile_usl_rate(const struct profile *p, double n)
{
	if (!p->has_fit || n <= 0)
		return n <= 0 ? 0 : NAN;
	return p->r1 * law(n, p->sigma, p->kappa);
}

double
profile_rate(const struct profile *p, long n)
{
	size_t i;

	for (i = 0; i < p->npoints; i++)
		if (p->points[i].nodes == n)
			return p->points[i].rate;
	return profile_usl_rate(p, (double)n);
}

void
profile_rescale(const struct profile *p, const struct job *declared,
    double *up, double *down)
{
	*up = declared ? declared->rescale_up : JOB_DEFAULT_RESCALE_UP;
	*down = declared ? declared->rescale_down : JOB_DEFAULT_RESCALE_DOWN;
	if (p != NULL && p->up_obs >= 2)
		*up = p->rescale_up;
	if (p != NULL && p->down_obs >= 2)
		*down = p->rescale_down;
}

/* ---- the advisor ---- */

static long
clamp(long n, long lo, long hi)
{
	return n < lo ? lo : n > hi ? hi : n;
}

static void
advise_two(struct profile *p, long max_nodes)
{
	const struct job_point *lo = &p->points[0], *hi = &p->points[1];
	double eff = (hi->rate / (double)hi->nodes) /
	    (lo->rate / (double)lo->nodes);
	long mid = lo->nodes + (hi->nodes - lo->nodes) / 2;

	if (eff >= PROFILE_EFFICIENCY_MIN && hi->nodes < max_nodes) {
		p->next_nodes = hi->nodes * 2;
		snprintf(p->reason, sizeof p->reason, "efficiency %.2f from %ld "
		    "to %ld nodes: double%s", eff, lo->nodes, hi->nodes,
		    p->next_nodes > max_nodes ? ", capped at max_nodes" : "");
	} else if (mid > lo->nodes) {
		p->next_nodes = mid;
		snprintf(p->reason, sizeof p->reason, "efficiency %.2f from %ld "
		    "to %ld nodes%s: try between", eff, lo->nodes, hi->nodes,
		    hi->nodes >= max_nodes ? ", max_nodes reached" : "");
	} else
		snprintf(p->reason, sizeof p->reason, "efficiency %.2f from %ld "
		    "to %ld nodes: no count between", eff, lo->nodes,
		    hi->nodes);
}

/*
 * Past three counts, a job still on its doubling ladder (its largest count
 * twice the one below) that kept its efficiency is doubled again: a law
 * fitted on 1, 2 and 4 nodes says little about 64 (MalleTrain's advisor
 * also climbs while the job scales), and stopping there holds a job that
 * scales well at a few nodes while the law's guess stays below the cost
 * of growing.
 */
static int
ladder(struct profile *p, long max_nodes)
{
	const struct job_point *hi = &p->points[p->npoints - 1],
	    *lo = &p->points[p->npoints - 2];
	double eff = (hi->rate / (double)hi->nodes) /
	    (lo->rate / (double)lo->nodes);

	if (hi->nodes != 2 * lo->nodes || hi->nodes >= max_nodes ||
	    eff < PROFILE_EFFICIENCY_MIN)
		return 0;
	p->next_nodes = clamp(hi->nodes * 2, 1, max_nodes);
	snprintf(p->reason, sizeof p->reason, "efficiency %.2f from %ld to "
	    "%ld nodes: double%s", eff, lo->nodes, hi->nodes,
	    hi->nodes * 2 > max_nodes ? ", capped at max_nodes" : "");
	return 1;
}

void
profile_advise(struct profile *p, long min_nodes, long max_nodes)
{
	size_t i;

	p->next_nodes = 0;
	if (p->npoints >= 3 && ladder(p, max_nodes))
		return;
	if (p->npoints >= 3) {
		snprintf(p->reason, sizeof p->reason, "%zu node counts "
		    "measured: no probe", p->npoints);
		return;
	}
	if (p->npoints == 0) {
		p->next_nodes = min_nodes;
		snprintf(p->reason, sizeof p->reason, "nothing measured: start "
		    "at min_nodes");
	} else if (p->npoints == 1 && p->points[0].nodes < max_nodes) {
		p->next_nodes = p->points[0].nodes * 2;
		snprintf(p->reason, sizeof p->reason, "one node count "
		    "measured: double%s", p->next_nodes > max_nodes ?
		    ", capped at max_nodes" : "");
	} else if (p->npoints == 1) {
		p->next_nodes = p->points[0].nodes > 1 ?
		    p->points[0].nodes / 2 : 1;
		snprintf(p->reason, sizeof p->reason, "only max_nodes "
		    "measured: halve");
	} else
		advise_two(p, max_nodes);
	if (p->next_nodes == 0)
		return;
	p->next_nodes = clamp(p->next_nodes, min_nodes, max_nodes);
	for (i = 0; i < p->npoints; i++)
		if (p->points[i].nodes == p->next_nodes) {
			p->next_nodes = 0;
			snprintf(p->reason, sizeof p->reason, "every count "
			    "within [min_nodes, max_nodes] tried");
		}
}

/*
 * A user writes her job's log: a measured rate may claim no more than
 * PROFILE_RATE_FACTOR times the best rate per node her job file declares,
 * times the node count (issue 33: six lines claiming 10^12/s won the
 * node).  Above it, the point is clamped, and said in one line.
 */
static void
clamp_rates(struct profile *p, const struct job *j, const char *label)
{
	double peak = 0, bound;
	size_t i;

	for (i = 0; j != NULL && i < j->npoints; i++)
		if (j->points[i].nodes > 0)
			peak = fmax(peak, j->points[i].rate /
			    (double)j->points[i].nodes);
	if (!(peak > 0))
		return;
	for (i = 0; i < p->npoints; i++) {
		bound = round_sig(PROFILE_RATE_FACTOR * peak *
		    (double)p->points[i].nodes, 6);
		if (!(p->points[i].rate > bound))
			continue;
		log_warn("%s: %.6g samples/s at %ld node%s is above %g x the "
		    "%.6g per node its job file declares: clamped to %.6g",
		    label, p->points[i].rate, p->points[i].nodes,
		    p->points[i].nodes == 1 ? "" : "s", PROFILE_RATE_FACTOR,
		    peak, bound);
		p->points[i].rate = bound;
		p->clamped++;
	}
}

int
profile_from_log(struct profile *p, const char *name, const char *label,
    const char *buf, size_t len, const struct job *declared, struct diag *d)
{
	return profile_from_log_alloc(p, name, label, buf, len, declared, NULL,
	    d);
}

int
profile_from_log_alloc(struct profile *p, const char *name, const char *label,
    const char *buf, size_t len, const struct job *declared,
    const struct progress_alloc *alloc, struct diag *d)
{
	struct progress pr;

	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "%s", name);
	if (progress_parse_alloc(&pr, label, buf, len, alloc, d) < 0)
		return -1;
	p->skipped_lines = pr.skipped;
	if (pr.n > 0)
		p->last_report = (long long)floor(pr.r[pr.n - 1].time);
	if (measure(p, &pr, declared) < 0) {
		progress_free(&pr);
		profile_free(p);
		return diag_errno(d, ENOMEM, "unable to profile %s", label);
	}
	progress_free(&pr);
	clamp_rates(p, declared, label);
	profile_fit(p);
	profile_advise(p, declared ? declared->min_nodes : 1,
	    declared ? declared->max_nodes : JOB_MAX_NODES);
	return 0;
}

void
profile_free(struct profile *p)
{
	free(p->points);
	p->points = NULL;
	p->npoints = 0;
}

static int
curve_point_cmp(const void *a, const void *b)
{
	const struct job_point *x = a, *y = b;

	return (x->nodes > y->nodes) - (x->nodes < y->nodes);
}

static int
measured_at(const struct profile *p, long nodes)
{
	size_t k;

	for (k = 0; k < p->npoints; k++)
		if (p->points[k].nodes == nodes)
			return 1;
	return 0;
}

/* Measured over declared at the k-th measured count. */
static double
measured_ratio(const struct profile *p, const struct job_point *declared,
    size_t ndeclared, size_t k)
{
	return p->points[k].rate /
	    curve_rate(declared, ndeclared, p->points[k].nodes);
}

/*
 * The rate of the declared point AT on this machine's scale: times measured
 * over declared, that ratio taken at the measured counts, interpolated
 * linearly between them and held beyond them.
 */
static double
calibrated(const struct profile *p, const struct job_point *declared,
    size_t ndeclared, const struct job_point *at)
{
	size_t k = 0, last = p->npoints - 1;
	double q, lo, hi;

	if (at->nodes <= p->points[0].nodes)
		q = measured_ratio(p, declared, ndeclared, 0);
	else if (at->nodes >= p->points[last].nodes)
		q = measured_ratio(p, declared, ndeclared, last);
	else {
		while (p->points[k + 1].nodes < at->nodes)
			k++;
		lo = measured_ratio(p, declared, ndeclared, k);
		hi = measured_ratio(p, declared, ndeclared, k + 1);
		q = lo + (hi - lo) * (double)(at->nodes - p->points[k].nodes) /
		    (double)(p->points[k + 1].nodes - p->points[k].nodes);
	}
	return round_sig(at->rate * q, 6);
}

/* Only past every known point: a declared curve beyond stays. */
int
profile_curve_law(const struct profile *p, const struct job_point *declared,
    size_t ndeclared, long max_nodes)
{
	long last;
	size_t i;

	if (p->npoints < 2)
		return 0;
	last = p->points[p->npoints - 1].nodes;
	for (i = 0; i < ndeclared; i++)
		if (declared[i].nodes > last)
			return 0;
	return last <= max_nodes / 2;
}

size_t
profile_curve(const struct profile *p, const struct job_point *declared,
    size_t ndeclared, long max_nodes, enum profile_curve_rule rule,
    struct job_point *out)
{
	const struct job_point *last;
	size_t i, n = 0;
	long c;

	for (i = 0; i < ndeclared; i++) {
		if (measured_at(p, declared[i].nodes))
			continue;
		out[n] = declared[i];
		if (p->npoints > 0 && rule == PROFILE_CURVE_SCALED)
			out[n].rate = calibrated(p, declared, ndeclared,
			    &declared[i]);
		n++;
	}
	for (i = 0; i < p->npoints; i++)
		out[n++] = p->points[i];
	if (n > 1)
		qsort(out, n, sizeof *out, curve_point_cmp);
	if (!p->has_fit || !profile_curve_law(p, declared, ndeclared,
	    max_nodes))
		return n;
	last = &out[n - 1];
	for (c = 2 * last->nodes; c <= max_nodes && c > 0 &&
	    n < ndeclared + p->npoints + PROFILE_LAW_POINTS; c *= 2) {
		double law = profile_usl_rate(p, (double)c);
		double linear = last->rate * (double)c / (double)last->nodes;
		if (!isfinite(law) || law <= 0)
			break;
		out[n].nodes = c;
		out[n].rate = law < linear ? law : linear;
		n++;
	}
	return n;
}

enum profile_curve_rule
profile_plan_rule(const struct plan *p)
{
	return p->profiles[0] != '\0' && p->curve[0] == '\0' ?
	    PROFILE_CURVE_JOINED : PROFILE_CURVE_SCALED;
}
