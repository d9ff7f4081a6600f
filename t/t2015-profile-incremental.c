/*
 * profile_log_update(), the fit kept up to date as a log grows, against
 * profile_from_log() reading the whole log, at every prefix a reader may
 * meet (whole lines, a line cut in the middle): the same points, rates,
 * rescale costs and observations, last report and skipped lines, and,
 * after profile_log_fit() and profile_advise(), the same law and probe,
 * bit for bit.  Logs are generated: rescales with pauses, restarts after
 * silences, pauses at one count, stalls running on after either, noise,
 * lost lines, reports at 1 to 64 nodes; some with
 * garbage, blank, over-long and out-of-order lines (the update then reads
 * the whole log, and must still agree); some read by a caller that also
 * re-reads a shorter buffer (a log replaced).  A seeded splitmix64 makes
 * every run the same.
 */
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/profile.h"
#include "tap.h"

static uint64_t seed;

static double
uniform(void)
{
	uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

struct log {
	char *buf;
	size_t len, cap;
};

static void
put(struct log *l, const char *s)
{
	size_t n = strlen(s);

	if (l->len + n + 1 > l->cap) {
		l->cap = 2 * (l->len + n + 1);
		if ((l->buf = realloc(l->buf, l->cap)) == NULL)
			abort();
	}
	memcpy(l->buf + l->len, s, n + 1);
	l->len += n;
}

/* A job of true rate 1000 n / (1 + 0.03 (n - 1)), as a log. */
static void
generate(struct log *l, int lines, int hostile)
{
	static const long counts[] = { 1, 2, 4, 8, 16, 32, 64, 3, 12 };
	double t = 1612915732, s = 0;
	long n = 1;
	char line[400];
	int i, stall = 0;

	for (i = 0; i < lines; i++) {
		double r = 1000.0 * (double)n / (1 + 0.03 * (double)(n - 1));
		double u = uniform();
		if (u < 0.04) {		/* a rescale, its pause */
			n = counts[(int)(uniform() * 9)];
			t += 12 + 6 * uniform();
		} else if (u < 0.05)	/* a silence: a restart */
			t += 301 + 600 * uniform();
		else if (u < 0.06)	/* a pause at one count */
			t += 31 + 260 * uniform();
		if (u < 0.06 && uniform() < 0.5)	/* a stall running on */
			stall = (int)(uniform() * 8);
		t += 10 + uniform() - 0.5;
		if (stall > 0)
			stall--;
		else
			s += r * 10 * (1 + 0.03 * (uniform() - 0.5));
		if (uniform() < 0.03)
			continue;	/* a lost line */
		snprintf(line, sizeof line, "%.3f %ld %.0f\n", t, n, s);
		if (hostile && uniform() < 0.02) {
			double v = uniform();
			if (v < 0.25)
				snprintf(line, sizeof line, "oops\n");
			else if (v < 0.5)
				snprintf(line, sizeof line, "%.3f %ld %.0f\n",
				    t + 1e5, n, s);	/* far in the future */
			else if (v < 0.75)
				snprintf(line, sizeof line, "  \t\n");
			else
				snprintf(line, sizeof line, "%300s\n", " ");
		}
		put(l, line);
	}
}

static int
same_profile(const struct profile *a, const struct profile *b)
{
	size_t i;

	if (a->npoints != b->npoints || a->last_report != b->last_report ||
	    a->skipped_lines != b->skipped_lines || a->has_fit != b->has_fit ||
	    a->fit_counts != b->fit_counts || a->fit_usl != b->fit_usl ||
	    a->r1 != b->r1 || a->sigma != b->sigma || a->kappa != b->kappa ||
	    a->rmse != b->rmse || a->rescale_up != b->rescale_up ||
	    a->rescale_down != b->rescale_down || a->up_obs != b->up_obs ||
	    a->down_obs != b->down_obs || a->next_nodes != b->next_nodes ||
	    strcmp(a->reason, b->reason) != 0 || strcmp(a->name, b->name) != 0)
		return 0;
	for (i = 0; i < a->npoints; i++)
		if (a->points[i].nodes != b->points[i].nodes ||
		    a->points[i].rate != b->points[i].rate)
			return 0;
	return 1;
}

static void
declared(struct job *j)
{
	memset(j, 0, sizeof *j);
	snprintf(j->name, sizeof j->name, "job");
	j->min_nodes = 1;
	j->max_nodes = 64;
	j->rescale_up = 18;
	j->rescale_down = 12;
	j->weight = 1;
}

/*
 * Reads prefixes of the log as a growing file, every `step' lines and a
 * cut inside a line between; each must agree with the whole reading.
 * With `replace', halfway a shorter buffer comes (the log replaced).
 */
static void
check_log(const char *what, int lines, int hostile, int replace)
{
	struct profile_log *l = NULL;
	struct log g = { NULL, 0, 0 };
	struct profile inc, whole;
	struct diag d;
	struct job j;
	size_t cut, checks = 0, bad = 0, maxpts = 0, fits = 0;
	int replaced = 0;

	declared(&j);
	generate(&g, lines, hostile);
	for (cut = 0; cut <= g.len;) {
		size_t at = cut;
		if (replace && !replaced && cut > g.len / 2) {
			at = cut / 3;	/* shorter: read again from the start */
			replaced = 1;
		}
		if (profile_log_update(&l, &inc, "job", "job.log", g.buf, at, &j,
		    &d) < 0 || profile_from_log(&whole, "job", "job.log",
		    g.buf, at, &j, &d) < 0) {
			ok(0, "%s: a prefix of %zu bytes read: %s", what, at,
			    d.text);
			break;
		}
		profile_log_fit(l, &inc);
		profile_advise(&inc, j.min_nodes, j.max_nodes);
		checks++;
		fits += inc.has_fit;
		if (inc.npoints > maxpts)
			maxpts = inc.npoints;
		if (!same_profile(&inc, &whole)) {
			if (bad++ == 0)
				note("%s: differs at %zu bytes: %zu points "
				    "against %zu", what, at, inc.npoints,
				    whole.npoints);
		}
		profile_free(&inc);
		profile_free(&whole);
		if (cut == g.len)
			break;
		/* the next cut: 1 to 40 lines on, or within a line */
		{
			size_t k = 1 + (size_t)(uniform() * 40), c = cut;
			while (k > 0 && c < g.len)
				k -= g.buf[c++] == '\n';
			if (uniform() < 0.3 && c < g.len)
				c += (size_t)(uniform() * 8);
			cut = c > g.len ? g.len : c;
		}
	}
	ok(bad == 0 && checks > 20 && maxpts >= 5 && fits > 0,
	    "%s: %zu prefixes, each the whole log's profile (%zu differ; up "
	    "to %zu counts, %zu with a law)", what, checks, bad, maxpts, fits);
	profile_log_free(l);
	free(g.buf);
}

/* The fit of the same points is the memo's: not refitted, the same law. */
static void
check_memo(void)
{
	struct job_point pts[3] = { { 1, 1000 }, { 2, 1900 }, { 4, 3500 } };
	struct profile_log *l = NULL;
	struct profile a, b;
	struct diag d;
	struct job j;

	declared(&j);
	memset(&a, 0, sizeof a);
	/* a profile_log with nothing read yet has a memo to fill */
	if (profile_log_update(&l, &b, "job", "job.log", "", 0, &j, &d) < 0) {
		ok(0, "an empty log: %s", d.text);
		return;
	}
	profile_free(&b);
	a.points = pts;
	a.npoints = 3;
	profile_log_fit(l, &a);
	b = a;
	b.has_fit = 0;
	b.r1 = b.sigma = b.kappa = -1;
	profile_log_fit(l, &b);		/* the memo */
	ok(b.has_fit && b.r1 == a.r1 && b.sigma == a.sigma &&
	    b.kappa == a.kappa && b.rmse == a.rmse, "the same points: the "
	    "same law (r1 %g sigma %g kappa %g)", b.r1, b.sigma, b.kappa);
	pts[2].rate = 3000;
	b.has_fit = 0;
	profile_log_fit(l, &b);
	a.has_fit = 0;
	profile_fit(&a);
	ok(b.has_fit && b.r1 == a.r1 && b.sigma == a.sigma &&
	    b.kappa == a.kappa && a.kappa != 0, "a point moved: fitted again "
	    "(kappa %g)", b.kappa);
	profile_log_free(l);
}

int
main(void)
{
	int quiet = open("/dev/null", O_WRONLY), err = dup(2);

	/* the hostile logs' warnings are expected: not shown */
	if (quiet >= 0)
		dup2(quiet, 2);
	seed = 35;
	check_log("clean log", 900, 0, 0);
	check_log("clean log, another seed", 700, 0, 0);
	check_log("hostile lines", 700, 1, 0);
	check_log("log replaced halfway", 600, 0, 1);
	check_log("hostile and replaced", 600, 1, 1);
	if (err >= 0)
		dup2(err, 2);
	check_memo();
	return tap_done();
}
