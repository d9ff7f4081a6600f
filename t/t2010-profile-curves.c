/*
 * Profiles of progress logs generated from the real BFTrainer curves
 * (t/data/profile/scaling.csv): rates within 2 % of the truth, rescale
 * costs within 1 s, the law, and the advisor's probe sequences.
 *
 * The generator plays a job: it reports every ~10 s (jitter +-10 %) with
 * whole-second times as int(time.time()) gives, each interval's progress
 * off the curve by 3 % (Gaussian), 5 % of the lines lost, and at each
 * rescale a report at the old size (the commit), a pause of 18 +- 1 s up
 * or 12 +- 1 s down (the BFTrainer costs), and a report within the pause.
 * A seeded splitmix64 makes every run the same.
 */
#include <libgen.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/profile.h"
#include "tap.h"

#define MAX_MODELS	8
#define MAX_COUNTS	8
#ifndef NOISE
#define NOISE		0.03
#endif

struct curve {
	char model[64];
	long nodes[MAX_COUNTS];
	double rate[MAX_COUNTS];
	int n;
};

struct gen {
	FILE *fp;
	char *buf;
	size_t len;
	uint64_t seed;
	double t, s;		/* true time and samples */
	long nodes;
	double lost;		/* probability a line is lost */
	int commit;		/* report at each rescale */
	double up_sum, down_sum;	/* true pauses */
	int ups, downs;
};

static struct curve curves[MAX_MODELS];
static int ncurves;

static double
uniform(struct gen *g)
{
	uint64_t z = (g->seed += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

static double
gauss(struct gen *g)
{
	double u = uniform(g), v = uniform(g);

	return sqrt(-2 * log(u + 1e-300)) * cos(6.283185307179586 * v);
}

static void
report(struct gen *g, long nodes, int keep)
{
	if (keep || uniform(g) >= g->lost)
		fprintf(g->fp, "%lld %ld %lld\n", (long long)floor(g->t), nodes,
		    (long long)floor(g->s));
}

/* Runs at the current size for about duration seconds. */
static void
run(struct gen *g, double rate, double duration)
{
	double end = g->t + duration;

	while (g->t < end) {
		double dt = 10 * (0.9 + 0.2 * uniform(g));
		g->s += rate * dt * fmax(0.5, 1 + NOISE * gauss(g));
		g->t += dt;
		report(g, g->nodes, 0);
	}
}

static void
rescale(struct gen *g, long nodes)
{
	int up = nodes > g->nodes;
	double pause = (up ? 18 : 12) + 2 * uniform(g) - 1;

	if (g->commit)
		report(g, g->nodes, 1);
	if (up) {
		g->up_sum += pause;
		g->ups++;
	} else {
		g->down_sum += pause;
		g->downs++;
	}
	g->t += 3;
	report(g, nodes, 0);
	g->t += pause - 3;
	g->nodes = nodes;
}

static void
gen_start(struct gen *g, uint64_t seed, long nodes)
{
	memset(g, 0, sizeof *g);
	g->fp = open_memstream(&g->buf, &g->len);
	g->seed = seed;
	g->t = 1612915732;
	g->nodes = nodes;
	g->lost = 0.05;
	g->commit = 1;
}

static double
truth(const struct curve *c, long nodes)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (c->nodes[i] == nodes)
			return c->rate[i];
	return 0;
}

static void
load_curves(const char *dir)
{
	char path[4096], line[256], model[64];
	long nodes;
	double rate;
	FILE *fp;

	snprintf(path, sizeof path, "%s/data/profile/scaling.csv", dir);
	if ((fp = fopen(path, "r")) == NULL) {
		perror(path);
		exit(1);
	}
	while (fgets(line, sizeof line, fp) != NULL) {
		struct curve *c = ncurves ? &curves[ncurves - 1] : NULL;
		if (sscanf(line, "%63[^,],%ld,%lf", model, &nodes, &rate) != 3)
			continue;
		if (c == NULL || strcmp(c->model, model) != 0) {
			c = &curves[ncurves++];
			snprintf(c->model, sizeof c->model, "%s", model);
		}
		c->nodes[c->n] = nodes;
		c->rate[c->n++] = rate;
	}
	fclose(fp);
}

/*
 * An empty log is read with the warning "gen.log:1: no reports"; it is
 * caught here and checked, so that it is a result, not noise on stderr.
 */
static void
profile_of(struct gen *g, struct profile *p, const struct job *j)
{
	char said[256] = "";
	struct diag d;
	FILE *caught = NULL;
	int saved = -1;

	fflush(g->fp);
	if (g->len == 0 && (caught = tmpfile()) != NULL) {
		fflush(stderr);
		saved = dup(STDERR_FILENO);
		dup2(fileno(caught), STDERR_FILENO);
	}
	if (profile_from_log(p, "job", "gen.log", g->buf, g->len, j, &d) < 0)
		fprintf(stderr, "%s\n", d.text);
	if (caught != NULL) {
		size_t n;

		fflush(stderr);
		dup2(saved, STDERR_FILENO);
		close(saved);
		rewind(caught);
		n = fread(said, 1, sizeof said - 1, caught);
		said[n] = '\0';
		fclose(caught);
		is_str(said, "bftrainer: gen.log:1: no reports\n",
		    "an empty log: one warning, no reports");
	}
}

static void
declared(struct job *j, long min, long max)
{
	memset(j, 0, sizeof *j);
	snprintf(j->name, sizeof j->name, "job");
	j->min_nodes = min;
	j->max_nodes = max;
	j->rescale_up = 18;
	j->rescale_down = 12;
	j->weight = 1;
}

static void
test_curve(const struct curve *c, uint64_t seed)
{
	static const long plan[] = { 1, 2, 4, 8, 4, 2, 16, 32, 64, 32 };
	double worst = 0;
	struct profile p;
	struct gen g;
	struct job j;
	size_t i, k;

	declared(&j, 1, 64);
	gen_start(&g, seed, plan[0]);
	for (k = 0; k < sizeof plan / sizeof plan[0]; k++) {
		if (k > 0)
			rescale(&g, plan[k]);
		run(&g, truth(c, plan[k]), k < 4 ? 900 : 600);
	}
	profile_of(&g, &p, &j);
	is_int(p.npoints, 7, "%s: seven counts measured", c->model);
	for (i = 0; i < p.npoints; i++) {
		double want = truth(c, p.points[i].nodes);
		double err = fabs(p.points[i].rate / want - 1);
		worst = fmax(worst, err);
		if (err >= 0.02)
			diag("%ld nodes: %g, want %g", p.points[i].nodes,
			    p.points[i].rate, want);
	}
	ok(worst < 0.02, "%s: every rate within 2 %% (worst %.2f %%)",
	    c->model, 100 * worst);
	ok(p.up_obs == g.ups && fabs(p.rescale_up - g.up_sum / g.ups) < 1,
	    "%s: growing costs %.2f s over %d, truly %.2f s", c->model,
	    p.rescale_up, p.up_obs, g.up_sum / g.ups);
	ok(p.down_obs == g.downs &&
	    fabs(p.rescale_down - g.down_sum / g.downs) < 1,
	    "%s: shrinking costs %.2f s over %d, truly %.2f s", c->model,
	    p.rescale_down, p.down_obs, g.down_sum / g.downs);
	ok(p.has_fit && p.fit_usl && p.fit_counts == 7 &&
	    p.rmse < 0.1 * truth(c, 64), "%s: usl on 7 counts, rmse %g",
	    c->model, p.rmse);
	is_int(p.skipped_lines, 0, "%s: nothing skipped", c->model);
	profile_free(&p);
	fclose(g.fp);
	free(g.buf);
}

/* The law itself: an exact USL curve gives its parameters back. */
static void
test_law(void)
{
	static const long n[] = { 1, 2, 4, 8, 16, 32, 64 };
	struct job_point pts[7];
	struct profile p;
	int i;

	memset(&p, 0, sizeof p);
	for (i = 0; i < 7; i++) {
		pts[i].nodes = n[i];
		pts[i].rate = 1000.0 * n[i] / (1 + 0.05 * (n[i] - 1) +
		    0.001 * n[i] * (n[i] - 1));
	}
	p.points = pts;
	p.npoints = 7;
	profile_fit(&p);
	ok(fabs(p.sigma - 0.05) < 0.0005 && fabs(p.kappa - 0.001) < 0.00001 &&
	    fabs(p.r1 - 1000) < 1, "usl recovered: r1 %g sigma %g kappa %g",
	    p.r1, p.sigma, p.kappa);
	ok(fabs(profile_usl_rate(&p, 12) - 12000.0 / (1 + 0.55 + 0.132)) < 2,
	    "usl rate between points");
	p.npoints = 2;
	pts[1].rate = 1600;
	profile_fit(&p);
	ok(!p.fit_usl && p.kappa == 0 && fabs(p.sigma - 0.25) < 1e-5 &&
	    fabs(p.r1 - 1000) < 0.01, "two counts: amdahl, sigma %g", p.sigma);
	pts[1].rate = 2100;
	profile_fit(&p);
	ok(p.sigma == 0 && p.kappa == 0, "superlinear: sigma held at 0");
	p.npoints = 1;
	profile_fit(&p);
	ok(!p.has_fit && isnan(profile_usl_rate(&p, 4)) &&
	    profile_rate(&p, 1) == 1000, "one count: no law, the point only");
}

/*
 * The fit's relative squared error, computed apart from the library (long
 * double, the best r1 in closed form).
 */
static long double
relative_sse(const struct job_point *pts, size_t n, double sigma,
    double kappa)
{
	long double a = 0, b = 0, e = 0, r1;
	size_t i;

	for (i = 0; i < n; i++) {
		long double x = (long double)pts[i].nodes;
		long double g = x / (1 + sigma * (x - 1) + kappa * x * (x - 1)) /
		    pts[i].rate;
		a += g;
		b += g * g;
	}
	r1 = a / b;
	for (i = 0; i < n; i++) {
		long double x = (long double)pts[i].nodes;
		long double d = 1 - r1 * x / (1 + sigma * (x - 1) +
		    kappa * x * (x - 1)) / pts[i].rate;
		e += d * d;
	}
	return e;
}

/*
 * The least error an independent search finds: a 121 x 121 grid, 0 then
 * log-spaced from 1e-10 to 1 on each parameter, then a compass search from
 * the best cell (a step doubled where it went down, halved where no step
 * did, to 1e-12 of the value).
 */
static long double
least_sse(const struct job_point *pts, size_t n, int fit_kappa)
{
	double s = 0, k = 0, step[2];
	long double best = INFINITY;
	int i, j;

	for (i = 0; i <= 120; i++)
		for (j = 0; j <= (fit_kappa ? 120 : 0); j++) {
			double si = i ? pow(10, -10 + (i - 1) / 12.0) : 0;
			double kj = j ? pow(10, -10 + (j - 1) / 12.0) : 0;
			long double e = relative_sse(pts, n, si, kj);
			if (e < best) {
				best = e;
				s = si;
				k = kj;
			}
		}
	step[0] = s > 0 ? s / 4 : 1e-10;
	step[1] = k > 0 ? k / 4 : 1e-10;
	while (step[0] > 1e-12 * (s > 0 ? s : 1e-10) ||
	    (fit_kappa && step[1] > 1e-12 * (k > 0 ? k : 1e-10))) {
		int moved = 0, d;
		for (d = 0; d < (fit_kappa ? 4 : 2); d++) {
			double ts = s, tk = k;
			long double e;
			if (d < 2)
				ts += d == 0 ? step[0] : -step[0];
			else
				tk += d == 2 ? step[1] : -step[1];
			if (ts < 0 || ts > 1 || tk < 0 || tk > 1)
				continue;
			if ((e = relative_sse(pts, n, ts, tk)) < best) {
				best = e;
				s = ts;
				k = tk;
				moved = 1;
				step[d / 2] *= 2;	/* a way down: stride */
			}
		}
		if (!moved) {
			step[0] /= 2;
			step[1] /= 2;
		}
	}
	return best;
}

/*
 * The law is the least-squares fit: over noisy curves of every shape (two
 * counts to ninety, past the points a fit keeps precomputed), the fitted
 * parameters' error is no more than the independent search's, but for the
 * six digits the fit keeps (1e-11 a count: a relative error of 3e-6 in
 * each rate).
 */
static void
test_law_least_squares(void)
{
	struct gen g;
	struct job_point pts[90];
	int c, bad = 0, cases = 0;
	long double worst = 0;	/* the fit's excess a count */

	memset(&g, 0, sizeof g);
	g.seed = 2010;
	for (c = 0; c < 36; c++) {
		size_t n = c % 3 == 0 ? 2 + (size_t)(uniform(&g) * 3) :
		    c % 3 == 1 ? 3 + (size_t)(uniform(&g) * 8) :
		    64 + (size_t)(uniform(&g) * 26);
		double sigma = uniform(&g) < 0.2 ? 0 : pow(10, -6 + 5.5 *
		    uniform(&g));
		double kappa = uniform(&g) < 0.3 ? 0 : pow(10, -8 + 6 *
		    uniform(&g));
		double noise = c % 4 == 0 ? 0 : 0.05 * uniform(&g);
		long nodes = 1 + (long)(uniform(&g) * 3);
		struct profile p;
		long double lib, ind;
		size_t i;

		for (i = 0; i < n; i++) {
			double x = (double)nodes;
			pts[i].nodes = nodes;
			pts[i].rate = 500 * x / (1 + sigma * (x - 1) + kappa *
			    x * (x - 1)) * (1 + noise * gauss(&g));
			nodes += n > 12 ? 1 + (long)(uniform(&g) * 4) :
			    nodes + (long)(uniform(&g) * (double)nodes);
		}
		memset(&p, 0, sizeof p);
		p.points = pts;
		p.npoints = n;
		profile_fit(&p);
		lib = relative_sse(pts, n, p.sigma, p.kappa);
		ind = least_sse(pts, n, n >= 3);
		cases++;
		if (!p.has_fit || lib > ind * (1 + 1e-6L) + 1e-11L * (long double)n) {
			bad++;
			diag("case %d: %zu counts, fit sigma %g kappa %g: "
			    "error %Lg, independent %Lg", c, n, p.sigma,
			    p.kappa, lib, ind);
		}
		if ((lib - ind) / (long double)n > worst)
			worst = (lib - ind) / (long double)n;
	}
	ok(bad == 0, "law fit least squares: %d cases of %d above the "
	    "independent search's error (worst excess a count %.2Lg)", bad, cases,
	    worst);
}

/* Plays the advisor online; returns its probes as "1 2 4". */
static void
advise_sequence(double (*rate)(long), long min, long max, char *out,
    size_t outlen)
{
	struct profile p;
	struct gen g;
	struct job j;
	size_t used = 0;
	int started = 0, round_;

	declared(&j, min, max);
	gen_start(&g, 42, min);
	out[0] = '\0';
	for (round_ = 0; round_ < 10; round_++) {
		long next;
		profile_of(&g, &p, &j);
		next = p.next_nodes;
		profile_free(&p);
		if (next == 0)
			break;
		used += (size_t)snprintf(out + used, outlen - used, "%s%ld",
		    used ? " " : "", next);
		if (started)
			rescale(&g, next);
		g.nodes = next;
		started = 1;
		run(&g, rate(next), 600);
	}
	fclose(g.fp);
	free(g.buf);
}

static double
vgg16(long n)
{
	return truth(&curves[1], n) > 0 ? truth(&curves[1], n) :
	    1193.3 * (double)n;
}

static double
poor(long n)
{
	return 1000.0 * (double)n / (1 + 0.5 * (double)(n - 1));
}

static void
test_advisor(void)
{
	char seq[128];

	advise_sequence(vgg16, 1, 64, seq, sizeof seq);
	/* vgg16's efficiency per doubling stays 0.97 to 1.00: up to max */
	is_str(seq, "1 2 4 8 16 32 64", "advisor on vgg16, 1..64 nodes");
	advise_sequence(vgg16, 4, 64, seq, sizeof seq);
	is_str(seq, "4 8 16 32 64", "advisor on vgg16, 4..64 nodes");
	advise_sequence(vgg16, 1, 3, seq, sizeof seq);
	is_str(seq, "1 2 3", "advisor on vgg16, 1..3 nodes: capped");
	advise_sequence(vgg16, 1, 1, seq, sizeof seq);
	is_str(seq, "1", "advisor on vgg16, 1 node only");
	advise_sequence(poor, 1, 64, seq, sizeof seq);
	is_str(seq, "1 2", "advisor on a poor scaler: stops after 2");
	advise_sequence(poor, 2, 64, seq, sizeof seq);
	is_str(seq, "2 4 3", "advisor on a poor scaler from 2: between");
}

static void
test_roundtrip(const struct curve *c)
{
	struct profile p, q;
	struct diag d;
	struct gen g;
	char *a, *b;
	size_t alen, blen;

	gen_start(&g, 7, 1);
	run(&g, truth(c, 1), 600);
	rescale(&g, 2);
	run(&g, truth(c, 2), 600);
	profile_of(&g, &p, NULL);
	a = profile_format(&p, &alen);
	ok(profile_parse(&q, "p.yaml", a, alen, &d) == 0, "parse back");
	b = profile_format(&q, &blen);
	is_str(b, a, "format(parse(format(p))) == format(p)");
	ok(profile_rate(&q, 2) == p.points[1].rate &&
	    profile_usl_rate(&q, 3) == profile_usl_rate(&p, 3),
	    "rates read back exactly");
	free(a);
	free(b);
	profile_free(&p);
	profile_free(&q);
	fclose(g.fp);
	free(g.buf);
}

/*
 * Without the report at the commit, the cost is measured from the last
 * periodic report: overstated when growing by at most one interval
 * (10 s) times 1 - r_old / r_new, never understated by more than noise.
 */
static void
test_no_commit(const struct curve *c)
{
	struct profile p;
	struct gen g;
	double truth_up;

	gen_start(&g, 99, 1);
	g.commit = 0;
	run(&g, truth(c, 1), 600);
	rescale(&g, 2);
	run(&g, truth(c, 2), 600);
	rescale(&g, 4);
	run(&g, truth(c, 4), 600);
	profile_of(&g, &p, NULL);
	truth_up = g.up_sum / g.ups;
	ok(p.up_obs == 2 && p.rescale_up > truth_up - 1 &&
	    p.rescale_up < truth_up + 5.5, "no commit report: %.2f s, truly "
	    "%.2f s, over by at most 10 s x (1 - r_old/r_new)",
	    p.rescale_up, truth_up);
	profile_free(&p);
	fclose(g.fp);
	free(g.buf);
}

static void
test_rescale_choice(void)
{
	struct profile p;
	struct job j;
	double up, down;

	memset(&p, 0, sizeof p);
	declared(&j, 1, 8);
	p.rescale_up = 25;
	p.up_obs = 1;
	p.rescale_down = 7;
	p.down_obs = 2;
	profile_rescale(&p, &j, &up, &down);
	ok(up == 18 && down == 7, "measured cost used from 2 observations");
	profile_rescale(NULL, NULL, &up, &down);
	ok(up == 20 && down == 10, "no profile, no job: the defaults");
}

static void
test_errors(void)
{
	static const struct {
		const char *in, *msg;
	} cases[] = {
		{ "points: {}\n", "p.yaml:1: name is missing" },
		{ "- 1\n", "p.yaml:1: a profile must be a mapping with name "
		    "and points" },
		{ "name: a\npoints:\n  2: 5\n  1: 4\n", "p.yaml:4: points must "
		    "ascend by node count, with rates above 0" },
		{ "name: a\nfit: {counts: 3, sigma: 2, r1: 1}\n", "p.yaml:2: "
		    "fit sigma must be a number from 0 to 1, not '2'" },
		{ "name: a\nfit: {counts: 3, law: x, r1: 1}\n", "p.yaml:2: "
		    "fit law must be usl or amdahl" },
		{ "name: a\nfit: {cou)ts: 2, kappa: 0, law: amdahl, r1: 100, "
		    "rmse: 0, sigma: 0.05}\n", "p.yaml:2: fit needs counts, "
		    "kappa, law, r1, rmse and sigma" },
		{ "name: a/b\n", "p.yaml:1: name is not a valid job name" },
		{ "name: a\nrescale: 5\n", "p.yaml:2: rescale must be a mapping "
		    "with down, down_observations, up and up_observations" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct profile p;
		struct diag d = { 0, "" };
		int rc = profile_parse(&p, "p.yaml", cases[i].in,
		    strlen(cases[i].in), &d);
		ok(rc == -1 && d.code == EX_DATAERR, "refused: %s",
		    cases[i].msg);
		is_str(d.text, cases[i].msg, "message");
	}
}

int
main(int argc, char **argv)
{
	char self[4096];
	int i;

	(void)argc;
	snprintf(self, sizeof self, "%s", argv[0]);
	load_curves(dirname(self));
	is_int(ncurves, 7, "seven BFTrainer curves loaded");
	for (i = 0; i < ncurves; i++)
		test_curve(&curves[i], 1000 + (uint64_t)i);
	test_law();
	test_law_least_squares();
	test_advisor();
	test_roundtrip(&curves[2]);
	test_no_commit(&curves[2]);
	test_rescale_choice();
	test_errors();
	return tap_done();
}
