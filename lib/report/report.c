/*
 * NAME
 *	report - what bftrainer harvested, from history/
 * DESCRIPTION
 *	See report.h and bf-report(1).  report_compute() lays the plans'
 *	intervals over the window and the days; every figure goes into a
 *	cell (day, job, uid), and the rows by day, user and job are sums of
 *	cells.
 */
#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/array.h"

#include "profile/profile.h"
#include "report/report.h"
#include "report/report_int.h"

#define DAY	86400.0

static long long
day_of(double t)
{
	return (long long)floor(t / DAY);
}

static int
in_window(const struct report *r, double t)
{
	return t >= r->w.since && (t < r->w.until ||
	    (!r->w.have_until && t <= r->w.until));
}

static int
cell_key_cmp(const struct report_cell *a, const struct report_cell *b)
{
	if (a->day != b->day)
		return a->day < b->day ? -1 : 1;
	if (a->name != b->name) {
		if (a->name == NULL || b->name == NULL)
			return a->name == NULL ? -1 : 1;
		if (strcmp(a->name, b->name) != 0)
			return strcmp(a->name, b->name);
	}
	return (a->uid > b->uid) - (a->uid < b->uid);
}

/*
 * The cell of (day, name, uid) to add to: the last one when it is the
 * same, since contributions come in runs (a log's reports, a plan's
 * days), else a new one; duplicates are merged by finish().
 */
static struct report_fig *
cell(struct report *r, long long day, const char *name, long long uid)
{
	struct report_cell key, *c;

	key.day = day;
	key.name = name;
	key.uid = uid;
	if (r->ncells > 0 && cell_key_cmp(&r->cells[r->ncells - 1], &key) == 0)
		return &r->cells[r->ncells - 1].f;
	if ((c = array_grow(r->cells, &r->cap, r->ncells + 1, sizeof *c,
	    16)) == NULL)
		return NULL;
	r->cells = c;
	c = &r->cells[r->ncells++];
	memset(c, 0, sizeof *c);
	c->day = day;
	c->name = name;
	c->uid = uid;
	return &c->f;
}

static void
fig_add(struct report_fig *a, const struct report_fig *b)
{
	a->offered += b->offered;
	a->held += b->held;
	a->samples += b->samples;
	a->ideal += b->ideal;
	a->samples_known += b->samples_known;
	a->unknown |= b->unknown;
	a->grows += b->grows;
	a->shrinks += b->shrinks;
	a->moves += b->moves;
	a->preempt += b->preempt;
	a->lost += b->lost;
	a->finished += b->finished;
	a->failed += b->failed;
	a->stopped += b->stopped;
	a->runs_lost += b->runs_lost;
	a->cancelled += b->cancelled;
}

/*
 * The end of a run of the job inside (a, b), or b.  A run's ended is the
 * second it ended in, whole: it held its nodes to the end of that second.
 */
static double
run_end(const struct report *r, const struct report_seg *s, double a,
    double b)
{
	size_t i;

	for (i = 0; i < r->nruns; i++) {
		const struct report_run *u = &r->runs[i];
		double e = u->ended + 1;
		if (u->name == s->name && (u->uid == s->uid || u->uid < 0 ||
		    s->uid < 0) && e > a && e < b)
			b = e;
	}
	return b;
}

/* Plan i's holes and allocations over its interval, day by day. */
static int
interval(struct report *r, size_t i)
{
	const struct report_plan *p = &r->plans[i];
	double a = p->enacted, b = i + 1 < r->nplans ? r->plans[i + 1].enacted :
	    r->last, lo, hi, x, y;
	struct report_fig *f;
	size_t s;

	for (s = 0; s <= p->nseg; s++) {
		const struct report_seg *g = s < p->nseg ? &p->seg[s] : NULL;
		lo = fmax(a, r->w.since);
		hi = fmin(g ? run_end(r, g, a, b) : b, r->w.until);
		for (x = lo; x < hi; x = y) {
			long long day = day_of(x);
			y = fmin(hi, (double)(day + 1) * DAY);
			if ((f = cell(r, day, g ? g->name : NULL, g ? g->uid :
			    0)) == NULL)
				return -1;
			if (g == NULL) {
				f->offered += (double)p->offered * (y - x);
				continue;
			}
			f->held += (double)g->nodes * (y - x);
			if (isnan(g->rate))
				f->unknown = 1;
			else
				f->ideal += g->rate * (y - x);
		}
	}
	return 0;
}

static int
changes(struct report *r, const struct report_plan *p)
{
	struct report_fig *f;
	size_t k;

	if (!in_window(r, p->enacted))
		return 0;
	r->plans_in++;
	for (k = 0; k < p->nchg; k++) {
		const struct report_change *ch = &p->chg[k];
		if ((f = cell(r, day_of(p->enacted), ch->name, ch->uid)) ==
		    NULL)
			return -1;
		f->grows += ch->grows;
		f->shrinks += ch->shrinks;
		f->moves += ch->moves;
		f->preempt += ch->preempt;
		f->lost += ch->lost;
	}
	return 0;
}

static int
runs(struct report *r)
{
	struct report_fig *f;
	size_t i;

	for (i = 0; i < r->nruns; i++) {
		const struct report_run *u = &r->runs[i];
		if (!in_window(r, u->ended))
			continue;
		r->runs_in++;
		if ((f = cell(r, day_of(u->ended), u->name, u->uid)) == NULL)
			return -1;
		switch (u->outcome) {
		case RUN_FINISHED: f->finished++; break;
		case RUN_FAILED: f->failed++; break;
		case RUN_STOPPED: f->stopped++; break;
		case RUN_LOST: f->runs_lost++; break;
		case RUN_CANCELLED: f->cancelled++; break;
		case RUN_OTHER: break;
		}
	}
	return 0;
}

/*
 * A log's samples: each report's increase over the one before, spread
 * evenly between the two when they are at most PROFILE_RESTART_GAP
 * apart (the job ran in between), else counted at the later report (a
 * stop and restart lay between); the first report counts whole.
 */
static int
samples(struct report *r, const struct report_log *lg)
{
	struct report_fig *f;
	double t0, t1, ds, x, y, lo, hi;
	size_t k;

	for (k = 0; k < lg->n; k++) {
		t1 = lg->t[k];
		ds = lg->s[k] - (k ? lg->s[k - 1] : 0);
		t0 = k ? lg->t[k - 1] : t1;
		if (ds <= 0)
			continue;
		if (t1 - t0 <= 0 || t1 - t0 > PROFILE_RESTART_GAP) {
			if (!in_window(r, t1))
				continue;
			if ((f = cell(r, day_of(t1), lg->name, lg->uid)) ==
			    NULL)
				return -1;
			f->samples += ds;
			continue;
		}
		lo = fmax(t0, r->w.since);
		hi = fmin(t1, r->w.until);
		for (x = lo; x < hi; x = y) {
			long long day = day_of(x);
			y = fmin(hi, (double)(day + 1) * DAY);
			if ((f = cell(r, day, lg->name, lg->uid)) == NULL)
				return -1;
			f->samples += ds * (y - x) / (t1 - t0);
		}
	}
	return 0;
}

static int
by_key(const void *a, const void *b)
{
	return cell_key_cmp(a, b);
}

/* Cells sorted and merged; a job-day's ideal counts only when known. */
static void
finish(struct report *r)
{
	size_t i, k = 0;

	if (r->ncells > 1)
		qsort(r->cells, r->ncells, sizeof *r->cells, by_key);
	for (i = 0; i < r->ncells; i++) {
		if (k > 0 && cell_key_cmp(&r->cells[k - 1], &r->cells[i]) == 0)
			fig_add(&r->cells[k - 1].f, &r->cells[i].f);
		else
			r->cells[k++] = r->cells[i];
	}
	r->ncells = k;
	for (i = 0; i < r->ncells; i++) {
		struct report_fig *f = &r->cells[i].f;
		if (f->unknown)
			f->ideal = 0;
		else
			f->samples_known = f->samples;
	}
}

int
report_compute(struct report *r, const struct report_window *w,
    struct diag *d)
{
	size_t i;

	r->w = *w;
	if (!w->have_since)
		r->w.since = r->first;
	if (!w->have_until)
		r->w.until = r->last;
	r->ncells = r->plans_in = r->runs_in = 0;
	for (i = 0; i < r->nplans; i++)
		if (interval(r, i) < 0 || changes(r, &r->plans[i]) < 0)
			return diag_errno(d, ENOMEM, "report");
	if (runs(r) < 0)
		return diag_errno(d, ENOMEM, "report");
	for (i = 0; i < r->nlogs; i++)
		if (samples(r, &r->logs[i]) < 0)
			return diag_errno(d, ENOMEM, "report");
	finish(r);
	return 0;
}

/* ---- output ---- */

void
report_day(long long day, char out[16])
{
	time_t t = (time_t)(day * 86400);
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL || strftime(out, 16, "%Y-%m-%d",
	    &tm) == 0)
		snprintf(out, 16, "day %lld", day);
}

void
report_time(double t, char out[32])
{
	time_t s = (time_t)floor(t);
	struct tm tm;

	if (gmtime_r(&s, &tm) == NULL || strftime(out, 32,
	    "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(out, 32, "%.0f", floor(t));
}

enum scope { SC_DAY, SC_TOTAL, SC_USER, SC_JOB, SC_CELL };

struct row {
	enum scope scope;
	int numeric;		/* uids as numbers, not names */
	long long day;
	const char *name;
	long long uid;
	struct report_fig f;	/* offered: of the day, or of the window */
};

/* A row, or with row NULL the start of scope's rows. */
typedef void (*emit_fn)(FILE *fp, enum scope scope, const struct row *row,
    int width);

static int
by_user(const void *a, const void *b)
{
	const struct report_cell *x = *(const struct report_cell *const *)a;
	const struct report_cell *y = *(const struct report_cell *const *)b;
	int c;

	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return (x->day > y->day) - (x->day < y->day);
}

static int
by_job(const void *a, const void *b)
{
	const struct report_cell *x = *(const struct report_cell *const *)a;
	const struct report_cell *y = *(const struct report_cell *const *)b;
	int c;

	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	return (x->day > y->day) - (x->day < y->day);
}

/* The rows of the named cells grouped by user or by job. */
static void
groups(const struct report *r, FILE *fp, emit_fn emit, enum scope scope,
    const struct report_cell **v, size_t n, double offered, int width)
{
	struct row row;
	size_t i = 0, k;

	qsort(v, n, sizeof *v, scope == SC_USER ? by_user : by_job);
	emit(fp, scope, NULL, width);
	while (i < n) {
		memset(&row, 0, sizeof row);
		row.scope = scope;
		row.numeric = r->numeric;
		row.name = v[i]->name;
		row.uid = v[i]->uid;
		for (k = i; k < n && v[k]->uid == v[i]->uid &&
		    (scope == SC_USER || strcmp(v[k]->name, v[i]->name) == 0);
		    k++)
			fig_add(&row.f, &v[k]->f);
		row.f.offered = offered;
		emit(fp, scope, &row, width);
		i = k;
	}
}

/* Every row: days and the total, users, jobs, and job-days if cells. */
static int
walk(const struct report *r, FILE *fp, emit_fn emit, int cells)
{
	const struct report_cell **v;
	struct row row, total;
	size_t i, k, n = 0;
	double day_offered = 0;
	int width = 3;

	if ((v = calloc(r->ncells + 1, sizeof *v)) == NULL)
		return -1;
	memset(&total, 0, sizeof total);
	total.scope = SC_TOTAL;
	emit(fp, SC_DAY, NULL, width);
	for (i = 0; i < r->ncells; i = k) {
		memset(&row, 0, sizeof row);
		row.scope = SC_DAY;
		row.day = r->cells[i].day;
		for (k = i; k < r->ncells && r->cells[k].day == row.day; k++) {
			fig_add(&row.f, &r->cells[k].f);
			if (r->cells[k].name == NULL)
				continue;
			v[n++] = &r->cells[k];
			if ((int)strlen(r->cells[k].name) > width)
				width = (int)strlen(r->cells[k].name);
		}
		emit(fp, SC_DAY, &row, width);
		fig_add(&total.f, &row.f);
	}
	emit(fp, SC_TOTAL, &total, width);
	groups(r, fp, emit, SC_USER, v, n, total.f.offered, width);
	groups(r, fp, emit, SC_JOB, v, n, total.f.offered, width);
	if (cells) {
		emit(fp, SC_CELL, NULL, width);
		for (i = 0; i < r->ncells; i++) {
			if (r->cells[i].name == NULL) {
				day_offered = r->cells[i].f.offered;
				continue;
			}
			if (i == 0 || r->cells[i - 1].day != r->cells[i].day)
				day_offered = 0;
			memset(&row, 0, sizeof row);
			row.scope = SC_CELL;
			row.day = r->cells[i].day;
			row.name = r->cells[i].name;
			row.uid = r->cells[i].uid;
			row.f = r->cells[i].f;
			row.f.offered = day_offered;
			emit(fp, SC_CELL, &row, width);
		}
	}
	free(v);
	return 0;
}

static const char *
ratio(double a, double b, const char *fmt, char buf[32])
{
	if (!(b > 0))
		return "-";
	snprintf(buf, 32, fmt, a / b);
	return buf;
}

/* A user as people know them: the name of the uid, else the number. */
static const char *
uid_text(long long uid, int numeric, char buf[32])
{
	struct passwd *pw;

	if (uid < 0)
		return "-";
	if (!numeric && uid <= (long long)(uid_t)-1 &&
	    (pw = getpwuid((uid_t)uid)) != NULL && pw->pw_name[0] != '\0' &&
	    strlen(pw->pw_name) < 32) {
		snprintf(buf, 32, "%s", pw->pw_name);
		return buf;
	}
	snprintf(buf, 32, "%lld", uid);
	return buf;
}

/*
 * Efficiency above 1 (as printed, four decimals): more samples than the
 * rate at the held nodes allows, so a log or a curve is wrong.  A log is
 * its owner's to rewrite (bf-spool(5)): the figure is shown, and flagged.
 */
static int
eff_above_one(const struct report_fig *f)
{
	return f->ideal > 0 && f->samples_known / f->ideal >= 1.00005;
}

/* Rows flagged by the text being printed (report_text() is not reentrant). */
static size_t text_flagged;

static void
text_row(FILE *fp, enum scope scope, const struct row *row, int width)
{
	static const char head[] = "%11s %11s %7s %14s %14s %7s %8s %7s %7s "
	    "%8s %6s %9s\n";
	char key[JOB_NAME_MAX + 64], off[32], held[32], u[32], ideal[32];
	char eff[32], uid[32];
	const struct report_fig *f;
	int kw = scope == SC_JOB ? width + 11 : 10;

	if (row == NULL) {
		if (scope == SC_TOTAL || scope == SC_CELL)
			return;
		if (scope != SC_DAY)
			fputc('\n', fp);
		if (scope == SC_JOB)
			snprintf(key, sizeof key, "%-*s %-10s", width, "job",
			    "user");
		fprintf(fp, "%-*s ", kw, scope == SC_DAY ? "day" :
		    scope == SC_USER ? "user" : key);
		fprintf(fp, head, "offered_nh", "held_nh", "util", "samples",
		    "ideal", "eff", "rescales", "preempt", "stopped",
		    "finished", "failed", "cancelled");
		return;
	}
	f = &row->f;
	switch (scope) {
	case SC_DAY:
		report_day(row->day, key);
		break;
	case SC_TOTAL:
		snprintf(key, sizeof key, "total");
		break;
	case SC_USER:
		snprintf(key, sizeof key, "%s", uid_text(row->uid,
		    row->numeric, uid));
		break;
	default:
		snprintf(key, sizeof key, "%-*s %-10s", width, row->name,
		    uid_text(row->uid, row->numeric, uid));
		break;
	}
	if (scope == SC_DAY || scope == SC_TOTAL)
		snprintf(off, sizeof off, "%.3f", f->offered / 3600);
	else
		snprintf(off, sizeof off, "-");
	snprintf(held, sizeof held, "%.3f", f->held / 3600);
	if (f->ideal == 0 && f->unknown)
		snprintf(ideal, sizeof ideal, "-");
	else
		snprintf(ideal, sizeof ideal, "%.0f", f->ideal);
	fprintf(fp, "%-*s %11s %11s %7s %14.0f %14s %7s %8ld %7ld %7ld %8ld "
	    "%6ld %9ld%s\n", kw, key, off, held, ratio(f->held, f->offered,
	    "%.4f", u), f->samples, ideal, ratio(f->samples_known, f->ideal,
	    "%.4f", eff), f->grows + f->shrinks + f->moves, f->preempt,
	    f->stopped, f->finished, f->failed, f->cancelled,
	    eff_above_one(f) ? "  ! eff above 1" : "");
	text_flagged += eff_above_one(f);
}

static int
by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}


int
report_notes(const struct report *r, FILE *fp, const char *prefix)
{
	const char **v;
	size_t i;

	if (r->unreadable > 0)
		fprintf(fp, "%s%zu file%s of other users not readable by uid "
		    "%lld (job files and progress logs are private to their "
		    "owners): their owners, samples and ideal are not "
		    "counted\n", prefix, r->unreadable, r->unreadable > 1 ?
		    "s" : "", (long long)geteuid());
	if ((v = calloc(r->nnotes + 1, sizeof *v)) == NULL)
		return -1;
	for (i = 0; i < r->nnotes; i++)
		v[i] = r->notes[i];
	if (r->nnotes > 1)
		qsort(v, r->nnotes, sizeof *v, by_str);
	for (i = 0; i < r->nnotes; i++)
		fprintf(fp, "%s%s\n", prefix, v[i]);
	free(v);
	return 0;
}

int
report_text(const struct report *r, FILE *fp)
{
	char from[32], to[32];

	if (r->empty && !r->w.have_since && !r->w.have_until)
		fprintf(fp, "%s: empty: no plan enacted, no run ended, no "
		    "progress report\n\n", r->label);
	else {
		report_time(r->w.since, from);
		report_time(r->w.until, to);
		fprintf(fp, "%s: %s to %s%s; plans enacted %zu, runs ended "
		    "%zu\n\n", r->label, from, to, r->w.have_until ? "" :
		    " (the end of the history)", r->plans_in, r->runs_in);
	}
	text_flagged = 0;
	if (walk(r, fp, text_row, 0) < 0)
		return -1;
	if (r->nnotes > 0 || r->unreadable > 0 || text_flagged > 0) {
		fprintf(fp, "\nnotes:\n");
		if (text_flagged > 0)
			fprintf(fp, "  ! eff above 1: more samples than the "
			    "job's rate at its nodes allows; its progress log "
			    "(its owner's to rewrite) or its scaling is wrong\n");
		if (report_notes(r, fp, "  ") < 0)
			return -1;
	}
	return ferror(fp) ? -1 : 0;
}

static void
csv_row(FILE *fp, enum scope scope, const struct row *row, int width)
{
	static const char *const names[] = { "day", "total", "user", "job",
	    "job-day" };
	char day[16] = "", u[32], e[32], uid[32] = "";
	const struct report_fig *f;

	(void)width;
	if (row == NULL) {
		if (scope == SC_DAY)
			fprintf(fp, "scope,day,user,job,offered_node_hours,"
			    "held_node_hours,utilisation,samples_done,"
			    "ideal_samples,efficiency,grows,shrinks,moves,"
			    "preemptions,nodes_lost,runs_finished,runs_failed,"
			    "runs_stopped,runs_lost,runs_cancelled\n");
		return;
	}
	f = &row->f;
	if (scope == SC_DAY || scope == SC_CELL)
		report_day(row->day, day);
	if ((scope == SC_USER || scope == SC_JOB || scope == SC_CELL) &&
	    row->uid >= 0)
		snprintf(uid, sizeof uid, "%lld", row->uid);
	fprintf(fp, "%s,%s,%s,%s,", names[scope], day, uid,
	    scope == SC_JOB || scope == SC_CELL ? row->name : "");
	if (scope == SC_DAY || scope == SC_TOTAL)
		fprintf(fp, "%.6f", f->offered / 3600);
	fprintf(fp, ",%.6f,%s,%.0f,", f->held / 3600, *ratio(f->held,
	    f->offered, "%.6f", u) == '-' ? "" : u, f->samples);
	if (!(f->ideal == 0 && f->unknown))
		fprintf(fp, "%.0f", f->ideal);
	fprintf(fp, ",%s,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld\n",
	    *ratio(f->samples_known, f->ideal, "%.6f", e) == '-' ? "" : e,
	    f->grows, f->shrinks, f->moves, f->preempt, f->lost, f->finished,
	    f->failed, f->stopped, f->runs_lost, f->cancelled);
}

int
report_csv(const struct report *r, FILE *fp)
{
	if (walk(r, fp, csv_row, 1) < 0)
		return -1;
	return ferror(fp) ? -1 : 0;
}

static void
plot_row(FILE *fp, enum scope scope, const struct row *row, int width)
{
	char day[16];

	(void)width;
	if (row == NULL || scope != SC_DAY)
		return;
	report_day(row->day, day);
	fprintf(fp, "%s %.6f %.6f\n", day, row->f.offered / 3600,
	    row->f.held / 3600);
}

/* A gnuplot string: single quotes, a quote written twice. */
static void
gp_string(FILE *fp, const char *s)
{
	fputc('\'', fp);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', fp);
		fputc(*s, fp);
	}
	fputc('\'', fp);
}

int
report_gnuplot(const struct report *r, FILE *fp, const char *svg)
{
	char from[32], to[32];

	report_time(r->w.since, from);
	report_time(r->w.until, to);
	fprintf(fp, "# bf-report: node-hours offered and held per day (UTC)\n"
	    "set terminal svg size 900,420 dynamic font 'sans,11'\n"
	    "set output ");
	gp_string(fp, svg);
	fprintf(fp, "\nset title 'idle node-hours offered and held by "
	    "bftrainer jobs, per day (UTC)'\n"
	    "set ylabel 'node-hours'\nset key outside right top\n"
	    "set grid ytics\nset style data histograms\n"
	    "set style histogram clustered gap 1\n"
	    "set style fill solid 0.8 border -1\nset boxwidth 0.9\n"
	    "set xtics rotate by -45 nomirror\nset yrange [0:*]\n");
	if (r->ncells == 0) {
		fprintf(fp, "set label 'nothing from %s to %s' at graph 0.5,0.5 "
		    "center\nplot [0:1][0:1] 2 notitle\n", r->empty ? "-" : from,
		    r->empty ? "-" : to);
		return ferror(fp) ? -1 : 0;
	}
	fprintf(fp, "$days << EOD\n");
	if (walk(r, fp, plot_row, 0) < 0)
		return -1;
	fprintf(fp, "EOD\nplot $days using 2:xtic(1) title 'offered' "
	    "lc rgb '#808080', '' using 3 title 'held' lc rgb '#0060c0'\n");
	return ferror(fp) ? -1 : 0;
}
